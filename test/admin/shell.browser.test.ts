// The admin app in a real browser: sign in and out, deep links, the project switcher, the rail
// (workspace or every model, active item, collapsed folders remembered) and the screen links.
// Everything is found by role, label and visible text, as a person finds it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

describe("sign in and out", () => {
  test("a browser opening / lands on the sign-in screen; a wrong password is said; the right one opens the project", async () => {
    const page = await env.page();
    const asked: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/v2/")) asked.push(new URL(r.url()).pathname);
    });
    await page.goto(`${env.origin}/`);
    await page.getByRole("heading", { name: "Sign in to Capa" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    // With no session hint cookie there is nothing to resume: no refresh is tried (none fails).
    expect(asked).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, "sign-in");

    await page.getByLabel("Email").fill("owner@capa.local");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe("Invalid credentials");

    await page.getByLabel("Password").fill("owner-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    const rail = page.getByRole("navigation", { name: "Workspace" });
    // No workspace yet: the rail lists every model of the demo project (once the models load).
    await rail.getByRole("link", { name: "Settings", exact: true }).waitFor();
    expect(await rail.getByRole("link").allTextContents()).toEqual(["Author", "Category", "Post", "Settings"]);
    const screens = page.getByRole("navigation", { name: "Screens" });
    await screens.getByRole("link", { name: "Settings", exact: true }).waitFor();
    expect(await screens.getByRole("link").allTextContents()).toEqual([
      "Scheduled",
      "Trash",
      "Models",
      "Workspaces",
      "Media",
      "API keys",
      "Webhooks",
      "People",
      "Settings",
    ]);
    await expectAccessible(page);
    await screenshot(page, "home");

    // No token in either storage; the refresh token is in an httpOnly, SameSite=Strict cookie
    // that scripts cannot read, scoped to the session routes.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain("eyJ");
    expect(stored).not.toContain("rt_");
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.path, c.httpOnly, c.sameSite, c.value.startsWith("rt_")]).sort()).toEqual([
      ["capa_refresh", "/v2/user", true, "Strict", true],
      ["capa_session", "/admin", false, "Strict", false],
    ]);

    // A reload keeps the person signed in: the cookie resumes the session.
    await page.reload();
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    // Signing out revoked the session on the server and removed the cookie.
    await expect(page.context().cookies()).resolves.toEqual([]);
    // After signing out the app is behind sign-in again.
    await page.goto(`${env.origin}/admin/content/post`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
  }, 60_000);

  test("the session refreshes itself before the access token expires, and the person stays signed in", async () => {
    const page = await env.page();
    // The page's timers run on a clock the test can move; the server keeps real time.
    await page.clock.install();
    await signIn(page, env.origin);
    const refresh = page.waitForRequest((r) => r.url() === `${env.origin}/v2/user/refresh-token`);
    // Access tokens live 24 hours; the refresh is due 5 minutes before the end.
    await page.clock.fastForward("23:55:01");
    const res = (await (await refresh).response())!;
    expect(res.status()).toBe(200);
    // The refresh rides on the cookie and the anti-CSRF header; only the access token comes back.
    expect(Object.keys(await res.json())).toEqual(["accessToken"]);
    expect((await refresh).headers()["x-capa-csrf"]).toBe("1");
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Post" }).click();
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Sign out", exact: true }).waitFor();
  }, 60_000);

  test("a deep link survives sign-in: the filtered list opens afterwards", async () => {
    const page = await env.page();
    await signIn(page, env.origin, "/admin/content/post?status=draft");
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/content/post");
    expect(await page.getByLabel("Status").inputValue()).toBe("draft");
  }, 60_000);

  test("a screen link opens its screen; Skip to content is the first stop", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    expect(await page.getByRole("main").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole("link", { name: "Media" }).click();
    await page.getByRole("heading", { name: "Media", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "All files", level: 2 }).waitFor();
    await expectAccessible(page);
  }, 60_000);
});

describe("the rail and the project switcher", () => {
  test("the current workspace drives the rail; the active model is marked; a collapsed folder stays collapsed", async () => {
    const ws = await v2(env, "POST", "/v2/workspaces", { name: "Editorial", template: "blank" });
    const folder = await v2(env, "POST", `/v2/workspaces/${ws.id}/nodes`, { node: { folder: "Blog", children: [{ model: "post" }, { model: "author" }] } });
    await v2(env, "POST", `/v2/workspaces/${ws.id}/nodes`, { node: { model: "settings" } });
    await v2(env, "PUT", "/v2/workspaces/current", { workspaceId: ws.id });
    try {
      const page = await env.page();
      await signIn(page, env.origin);
      const rail = page.getByRole("navigation", { name: "Workspace" });
      await rail.getByRole("link", { name: "Post" }).waitFor();
      expect(await rail.getByRole("link").allTextContents()).toEqual(["Post", "Author", "Settings"]);
      await rail.getByRole("link", { name: "Post" }).click();
      await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
      expect(await rail.getByRole("link", { name: "Post" }).getAttribute("aria-current")).toBe("page");
      expect(await rail.getByRole("link", { name: "Author" }).getAttribute("aria-current")).toBeNull();
      await expectAccessible(page);
      await screenshot(page, "rail-workspace");

      const toggle = rail.getByRole("button", { name: /Blog/ });
      expect(await toggle.getAttribute("aria-expanded")).toBe("true");
      await toggle.click();
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      expect(await rail.getByRole("link").allTextContents()).toEqual(["Settings"]);
      // After a reload (the cookie keeps the session) the folder is still collapsed.
      await page.reload();
      await rail.getByRole("link", { name: "Settings" }).waitFor();
      expect(await rail.getByRole("button", { name: /Blog/ }).getAttribute("aria-expanded")).toBe("false");
      expect(folder.id).toBeString();
    } finally {
      await v2(env, "DELETE", `/v2/workspaces/${ws.id}`);
    }
  }, 60_000);

  test("the project switcher changes project and is remembered", async () => {
    const other = await v2(env, "POST", "/v2/projects", { name: "Second site", slug: "second-site" });
    const page = await env.page();
    await signIn(page, env.origin);
    const switcher = page.getByLabel("Project", { exact: true });
    expect(await switcher.getByRole("option").allTextContents()).toEqual(["Demo", "Second site"]);
    await switcher.selectOption({ label: "Second site" });
    await page.getByRole("heading", { name: "Second site", level: 1 }).waitFor();
    await page.getByText("This project has no models yet.").waitFor();
    await screenshot(page, "project-switched");
    await page.reload();
    await page.getByRole("heading", { name: "Second site", level: 1 }).waitFor();
    expect(await page.getByLabel("Project", { exact: true }).inputValue()).toBe(other.id);
    await page.getByLabel("Project", { exact: true }).selectOption({ label: "Demo" });
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
  }, 60_000);
});
