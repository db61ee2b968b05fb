// The project settings screen in a real browser: the projects overview (role, Open), a taken
// slug said at its field with nothing changed, a rename and new slug saved (the switcher
// follows), deleting a project with its slug typed, and a viewer's read-only view.
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

describe("project settings", () => {
  test("taken slug refused at the field; rename saved; a project deleted with its slug typed", async () => {
    await v2(env, "POST", "/v2/projects", { name: "Other", slug: "other-site" });
    const page = await env.page();
    await signIn(page, env.origin);
    // Creating a project opens it; go back to Demo.
    await page.getByLabel("Project", { exact: true }).selectOption({ label: "Demo" });
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    expect(await page.getByLabel("Slug", { exact: true }).inputValue()).toBe("demo");
    // The overview: both projects with the owner's role; the one open now says so.
    const overview = page.getByRole("table", { name: "Your projects" });
    expect(await overview.getByRole("rowheader").allTextContents()).toEqual(["Demo demo", "Other other-site"]);
    expect((await overview.getByRole("row").nth(1).getByRole("cell").allTextContents()).filter((_, i) => i !== 1)).toEqual(["Owner", "Open now"]);
    expect(await overview.getByRole("button", { name: "Open Other" }).count()).toBe(1);

    await page.getByLabel("Name", { exact: true }).fill("Demo site");
    await page.getByLabel("Slug", { exact: true }).fill("other-site");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#project-slug-error").textContent()).resolves.toBe("That URL is taken");
    expect(await page.getByLabel("Slug", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    const before = await v2(env, "GET", `/v2/projects/${env.demoProjectId}`);
    expect([before.name, before.slug]).toEqual(["Demo", "demo"]);
    await expectAccessible(page);
    await screenshot(page, "settings-slug-taken");

    await page.getByLabel("Slug", { exact: true }).fill("demo-site");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved.").waitFor();
    const after = await v2(env, "GET", `/v2/projects/${env.demoProjectId}`);
    expect([after.name, after.slug]).toEqual(["Demo site", "demo-site"]);
    const switcher = page.getByLabel("Project", { exact: true });
    await switcher.getByRole("option", { name: "Demo site" }).waitFor({ state: "attached" });

    await page.getByRole("button", { name: "Open Other" }).click();
    await page.getByRole("heading", { name: "Other", level: 1 }).waitFor();
    expect(await switcher.inputValue()).not.toBe(env.demoProjectId);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Delete project" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Other?" });
    await dialog.getByLabel("Slug of the project").fill("other");
    expect(await dialog.getByRole("button", { name: "Delete for good" }).isDisabled()).toBe(true);
    await dialog.getByLabel("Slug of the project").fill("other-site");
    await expectAccessible(page);
    await screenshot(page, "settings-delete");
    await dialog.getByRole("button", { name: "Delete for good" }).click();
    await page.getByRole("heading", { name: "Demo site", level: 1 }).waitFor();
    // The project list is asked for again after the switch; the deleted one then leaves it.
    await switcher.getByRole("option", { name: "Other" }).waitFor({ state: "detached" });
    expect(await switcher.getByRole("option").allTextContents()).toEqual(["Demo site"]);
    expect((await v2(env, "GET", "/v2/projects")).data.map((p: { slug: string }) => p.slug)).toEqual(["demo-site"]);
  }, 90_000);

  test("a viewer reads the settings and cannot change or delete", async () => {
    await addMember(env, "viewer@capa.local", "viewer", "viewer-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "viewer@capa.local", "viewer-password-1", "/admin/settings");
    await page.getByText("Your role (viewer) can read these settings; owners and admins change them.").waitFor();
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("readonly")).toBe("");
    expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete project" }).count()).toBe(0);
    await expectAccessible(page);
  }, 60_000);
});
