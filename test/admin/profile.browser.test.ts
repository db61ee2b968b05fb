// The person's own profile in a real browser: reached from their name at the foot of the rail;
// `Name` saved (the rail follows); a wrong current password and a short new one said at their
// fields with nothing changed; a password change that keeps this browser signed in (across a
// reload, through the rotated session cookie) and ends every session from before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, OWNER, screenshot, signIn, startBrowserEnv, type BrowserEnv } from "./browser.ts";

const NEW_PASSWORD = "owner-password-2";
let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

async function login(password: string): Promise<Response> {
  return fetch(`${env.origin}/v2/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: OWNER.email, password }),
  });
}

describe("your profile", () => {
  test("name saved; refusals at their fields; a new password keeps this browser signed in and ends the other sessions", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    const person = page.getByRole("link", { name: "Owner Your profile" });
    await person.click();
    await page.getByRole("heading", { name: "Your profile", level: 1 }).waitFor();
    expect(await person.getAttribute("aria-current")).toBe("page");
    expect(await page.getByLabel("Email").inputValue()).toBe(OWNER.email);
    expect(await page.getByLabel("Email").getAttribute("readonly")).toBe("");
    expect(await page.getByLabel("Name").inputValue()).toBe("Owner");

    await page.getByLabel("Name").fill("Ada Owner");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Profile saved.").waitFor();
    await page.getByRole("link", { name: "Ada Owner Your profile" }).waitFor();
    const token = await env.token();
    const me = await (await fetch(`${env.origin}/v2/user/me`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(me).toMatchObject({ email: OWNER.email, name: "Ada Owner" });

    // Only a new password: said at once, nothing sent.
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator("#profile-currentPassword-error").getByText("Type your current password to set a new one.").waitFor();
    // A wrong current password: the server's refusal at its field.
    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator("#profile-currentPassword-error").getByText("The current password is not right.").waitFor();
    expect(await page.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
    // A new password that is too short: at the New password field.
    await page.getByLabel("Current password").fill(OWNER.password);
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator("#profile-newPassword-error").getByText("newPassword must be 8 to 200 characters").waitFor();
    expect(await page.getByLabel("New password").getAttribute("aria-invalid")).toBe("true");
    expect((await login(OWNER.password)).status).toBe(200);
    await expectAccessible(page);
    await screenshot(page, "profile");

    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Password changed; every other session of yours is signed out.").waitFor();
    expect(await page.getByLabel("Current password").inputValue()).toBe("");
    // A session from before the change is over; the new password signs in, the old one does not.
    const before = await fetch(`${env.origin}/v2/user/me`, { headers: { authorization: `Bearer ${token}` } });
    expect([before.status, ((await before.json()) as { code: string }).code]).toEqual([401, "invalid_token"]);
    expect((await login(OWNER.password)).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);

    // This browser stays signed in: the next screen loads, and a reload resumes from the new cookie.
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "People" }).click();
    await page.getByRole("heading", { name: "People", level: 1 }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "People", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Ada Owner Your profile" }).waitFor();
  }, 90_000);
});
