// The command palette (Ctrl/Cmd+K) and the list of shortcuts (?) in a real browser: screens,
// models, "New entry in <model>", entries found by title, keyboard use (arrows, Enter, Esc, focus
// back where it was), and a viewer offered no write.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const palette = (page: Page) => page.getByRole("dialog", { name: "Command palette" });
/** Waits until the palette has the entries of what is typed (its status then counts results). */
const settled = (page: Page) =>
  palette(page)
    .getByText(/^\d+ results?$/)
    .waitFor();
const options = async (page: Page) => (await palette(page).getByRole("option").allTextContents()).map((t) => t.replace(/\s+/g, " ").trim());

describe("the command palette", () => {
  test("Ctrl+K opens it; typing filters; arrows and Enter go; Esc closes and focus returns", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Settings", exact: true }).waitFor();
    const start = page.getByRole("button", { name: /^Search and commands/ });
    await start.focus();
    await page.keyboard.press("Control+k");
    const box = palette(page).getByRole("combobox", { name: "Search commands" });
    await box.waitFor();
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessible(page);
    await screenshot(page, "palette");

    // Every word typed must appear, in any order and case.
    await box.fill("post new");
    await settled(page);
    expect(await options(page)).toEqual(["New entry in Post Action"]);
    await box.fill("settings");
    await settled(page);
    // Screens, models and actions come first; entries whose text holds the words follow them.
    expect((await options(page)).slice(0, 3)).toEqual(["Settings Entries", "New entry in Settings Action", "Settings Screen"]);
    expect(await palette(page).getByRole("status").textContent()).toBe(`${(await options(page)).length} results`);
    // The first option is active; ArrowDown moves to the second, ArrowUp goes back.
    expect(await box.getAttribute("aria-activedescendant")).toBe(await palette(page).getByRole("option").nth(0).getAttribute("id"));
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await palette(page).getByRole("option", { selected: true }).textContent()).toBe("Settings Screen");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
    await expect(palette(page).count()).resolves.toBe(0);

    // Esc closes it without going anywhere, and focus is back on what had it.
    await start.focus();
    await page.keyboard.press("Control+k");
    await box.waitFor();
    await page.keyboard.press("Escape");
    await palette(page).waitFor({ state: "detached" });
    // Focus goes back in the frame after the dialog closes; waiting for it fails the test if it never does.
    await page.waitForFunction(() => document.activeElement?.textContent?.startsWith("Search and commands") === true);
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
  });

  test("entries are found by title and open in the editor; New entry in <model> opens a new entry", async () => {
    const posts = (await v2(env, "GET", "/v2/model-instances?model=post&limit=100")) as { data: { id: string; draft: { data: { title?: string } } }[] };
    const target = posts.data.find((p) => (p.draft.data.title ?? "").length > 8)!;
    const title = target.draft.data.title!;
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("button", { name: /^Search and commands/ }).click();
    const box = palette(page).getByRole("combobox", { name: "Search commands" });
    await box.fill(title);
    await settled(page);
    const found = palette(page).getByRole("option", { name: `${title} Post entry` });
    await found.waitFor();
    expect((await options(page)).filter((o) => o.endsWith("Post entry"))).toEqual([`${title} Post entry`]);
    await found.click();
    await page.waitForURL(`**/admin/content/post/${target.id}`);
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();

    await page.keyboard.press("Control+k");
    await box.fill("new entry in author");
    await settled(page);
    await page.keyboard.press("Enter");
    await page.waitForURL("**/admin/content/author/new");
    await page.getByRole("heading", { name: "New Author", level: 1 }).waitFor();
  });

  test("? lists the shortcuts; Esc closes the list", async () => {
    const page = await env.page({ colorScheme: "dark" });
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Settings", exact: true }).waitFor();
    await page.keyboard.press("?");
    const list = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await list.waitFor();
    expect(await list.getByRole("rowheader").allTextContents()).toEqual(["Ctrl K or ⌘ K", "?", "/", "j / k", "Enter", "Ctrl S or ⌘ S", "Esc"]);
    await expectAccessible(page);
    await screenshot(page, "shortcuts-dark");
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    // Typed into a field, ? is a character, not a shortcut.
    await page.keyboard.press("Control+k");
    await palette(page).getByRole("combobox").fill("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" }).count()).resolves.toBe(0);
  });

  test("a viewer is offered no New entry and no keys or webhooks", async () => {
    await addMember(env, "palette-viewer@capa.local", "viewer", "viewer-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "palette-viewer@capa.local", "viewer-password-1");
    await page.keyboard.press("Control+k");
    await palette(page).getByRole("combobox").waitFor();
    await settled(page);
    const all = await options(page);
    expect(all.filter((o) => o.startsWith("New entry"))).toEqual([]);
    expect(all.filter((o) => o.endsWith(" Screen"))).toEqual([
      "Scheduled Screen",
      "Trash Screen",
      "Models Screen",
      "Workspaces Screen",
      "Media Screen",
      "People Screen",
      "Settings Screen",
    ]);
  });
});
