// The People screen and the invitation page in a real browser: invite (the link with its token
// shown once), pending invitations and revoke, accepting as a new account (a short password
// refused at its field), a member's read-only view, changing a role, an admin refused the owner
// role in words, accepting with an existing account after signing in, and removing a member.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

describe("people", () => {
  test("invite, revoke, accept as a new account, change a role, remove", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "People" }).click();
    await page.getByRole("heading", { name: "People", level: 1 }).waitFor();
    const ownerRow = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "owner@capa.local (you)" }) });
    await ownerRow.waitFor();
    // The only owner's row offers no role change and no Remove, and Transfer ownership instead.
    expect(await ownerRow.getByRole("cell").allTextContents()).toEqual(["OwnerThe only owner", "Transfer ownership"]);
    expect(await page.getByLabel("Role of owner@capa.local").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Remove owner@capa.local" }).count()).toBe(0);

    // An invitation revoked: its link no longer works.
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByLabel("Email").fill("gone@capa.local");
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await page.getByRole("button", { name: "Send invitation" }).click();
    const goneLink = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Revoke the invitation of gone@capa.local" }).click();
    await page.getByText("The invitation of gone@capa.local is revoked: its link no longer works.").waitFor();
    await page.getByText("No pending invitations.").waitFor();

    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByLabel("Email").fill("writer@capa.local");
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
    await expectAccessible(page);
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByRole("heading", { name: "Invitation for writer@capa.local" }).waitFor();
    const link = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
    expect(link).toMatch(new RegExp(`^${env.origin}/admin/invite\\?token=inv_`));
    const pending = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "writer@capa.local" }) });
    // The list is asked for again after the invitation; wait for its row before reading it.
    await pending.waitFor();
    const cells = await pending.getByRole("cell").allTextContents();
    expect([cells[0], cells[1]?.replace(/until .*/, "until"), cells[2]]).toEqual(["Editor", "Works until", "Copy linkRevoke"]);
    await expectAccessible(page);
    await screenshot(page, "people-invited");

    const gone = await env.page();
    await gone.goto(goneLink);
    await gone.getByLabel("New password").fill("writer-password-1");
    await gone.getByRole("button", { name: "Accept and sign in" }).click();
    await expect(gone.getByRole("alert").textContent()).resolves.toBe("The invitation is not valid: it was never made, was used, withdrawn, or has expired.");

    const writer = await env.page();
    await writer.goto(link);
    await writer.getByRole("heading", { name: "Join a project on Capa" }).waitFor();
    expect(await writer.title()).toBe("Join a project · Capa");
    await expectAccessible(writer);
    await screenshot(writer, "invite-accept");
    await writer.getByLabel("New password").fill("short");
    await writer.getByRole("button", { name: "Accept and sign in" }).click();
    await writer.getByText("password must be 8 to 200 characters").waitFor();
    expect(await writer.getByLabel("New password").getAttribute("aria-invalid")).toBe("true");
    await writer.getByLabel("New password").fill("writer-password-1");
    await writer.getByRole("button", { name: "Accept and sign in" }).click();
    await writer.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    await writer.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "People" }).click();
    await writer.getByText("You can see who is here; owners and admins invite people and change roles.").waitFor();
    expect(await writer.getByRole("button", { name: "Invite" }).count()).toBe(0);
    expect(await writer.getByRole("combobox").count()).toBe(1); // the project switcher only

    // The owner's list shows the new member; the invitation is no longer pending.
    await page.getByRole("button", { name: "Done" }).click();
    // The browser's one cookie jar now holds the writer's session: sign the owner in afresh.
    await (await page.context().newCDPSession(page)).send("Network.clearBrowserCookies");
    await page.reload();
    await signIn(page, env.origin, "/admin/people");
    await page.getByLabel("Role of writer@capa.local").selectOption({ label: "Viewer" });
    await page.getByText("writer@capa.local is now Viewer.").waitFor();
    await page.getByText("No pending invitations.").waitFor();
    expect((await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data.find((m: { email: string }) => m.email === "writer@capa.local").role).toBe(
      "viewer",
    );

    await page.getByRole("button", { name: "Remove writer@capa.local" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove writer@capa.local?" });
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Remove" }).click();
    await page.getByText("writer@capa.local is no longer a member.").waitFor();
    await page.getByRole("rowheader", { name: "writer@capa.local" }).waitFor({ state: "detached" });
  }, 120_000);

  test("an admin is told only an owner can give the owner role, and nothing changes", async () => {
    await addMember(env, "admin@capa.local", "admin", "admin-password-1");
    await addMember(env, "dev@capa.local", "developer", "dev-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "admin@capa.local", "admin-password-1", "/admin/people");
    await page.getByLabel("Role of dev@capa.local").selectOption({ label: "Owner" });
    await page.getByText("Only an owner can give, change or remove the owner role.").waitFor();
    await page.waitForFunction(() => (document.querySelector('[aria-label="Role of dev@capa.local"]') as HTMLSelectElement | null)?.value === "developer");
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByLabel("Email").fill("boss@capa.local");
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Owner" });
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByRole("form", { name: "Invite someone" }).getByText("Only an owner can give, change or remove the owner role.").waitFor();
    await expectAccessible(page);
    await screenshot(page, "people-owner-refused");
    const roles = (await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data.map((m: { email: string; role: string }) => `${m.email} ${m.role}`);
    expect(roles.sort()).toEqual(["admin@capa.local admin", "dev@capa.local developer", "owner@capa.local owner"]);
  }, 60_000);

  test("someone whose e-mail has an account signs in first, then accepts", async () => {
    const second = await v2(env, "POST", "/v2/projects", { name: "Second site", slug: "second-site" });
    const { invitation } = await v2(env, "POST", `/v2/projects/${second.id}/members`, { email: "dev@capa.local", role: "editor" });
    const page = await env.page();
    await page.goto(`${env.origin}/admin/invite?token=${invitation.token}`);
    await page.getByLabel("New password").fill("dev-password-1");
    await page.getByRole("button", { name: "Accept and sign in" }).click();
    await page.getByText("This e-mail address already has an account. Sign in as it, then accept the invitation.").waitFor();
    await page.getByRole("link", { name: "Sign in to accept" }).click();
    await page.getByLabel("Email").fill("dev@capa.local");
    await page.getByLabel("Password").fill("dev-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.getByRole("heading", { name: "Second site", level: 1 }).waitFor();
    expect(await page.getByLabel("Project", { exact: true }).getByRole("option").allTextContents()).toEqual(["Demo", "Second site"]);
  }, 60_000);

  test("a link without a token, and an invitation opened by another signed-in account, are said in words", async () => {
    const page = await env.page();
    await page.goto(`${env.origin}/admin/invite`);
    await expect(page.getByRole("alert").textContent()).resolves.toBe(
      "This link holds no invitation token. Ask the person who invited you for the whole link.",
    );

    // Signed in as the owner: an invitation for an address with no account, then one for another account.
    await addMember(env, "other@capa.local", "viewer", "other-password-1");
    const third = await v2(env, "POST", "/v2/projects", { name: "Third", slug: "third" });
    const fresh = (await v2(env, "POST", `/v2/projects/${third.id}/members`, { email: "someone@capa.local", role: "viewer" })).invitation;
    const taken = (await v2(env, "POST", `/v2/projects/${third.id}/members`, { email: "other@capa.local", role: "viewer" })).invitation;
    for (const [inv, words] of [
      [fresh, "This invitation is for an e-mail address that has no account yet. Sign out, then open the link again to create that account."],
      [taken, "The invitation is for another e-mail address than the account signed in."],
    ] as const) {
      await page.goto(`${env.origin}/admin/sign-in?redirect=${encodeURIComponent(`/invite?token=${inv.token}`)}`);
      await page.getByLabel("Email").fill("owner@capa.local");
      await page.getByLabel("Password").fill("owner-password-1");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("button", { name: "Accept invitation" }).click();
      await expect(page.getByRole("alert").textContent()).resolves.toBe(words);
      await expectAccessible(page);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.getByRole("heading", { name: "Sign in to Capa" }).waitFor();
    }
  }, 60_000);
});
