// The inputs per field kind (issue 26 item 5) in a real browser, found by role, label and text:
// a list whose Add puts the cursor in the new row and whose rows reorder by keyboard, by button
// and by dragging; tags for a list of strings; a date and a date-time in the zone; a relation to
// an entry that is gone reads "Deleted entry"; the media library dialog, wide and searchable; an
// image from the library in rich text; the editor at 390 px.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

async function open(page: Page, title: string, data: Record<string, unknown> = {}) {
  const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title, slug: title.toLowerCase().replace(/\W+/g, "-"), ...data } });
  await signIn(page, env.origin, `/admin/content/post/${e.id}`);
  await page.getByRole("heading", { name: title, level: 1 }).waitFor();
  return e.id as string;
}

async function save(page: Page) {
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.").waitFor();
}

const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.id ?? "");
const data = async (id: string) => (await v2(env, "GET", `/v2/model-instances/${id}`)).draft.data;

describe("field kinds", () => {
  test("a list: Add puts the cursor in the new row; rows move by Alt+Arrow, by Move buttons and by dragging", async () => {
    const page = await env.page();
    const id = await open(page, "List rows", { scores: [1, 2] });
    const list = page.getByRole("group", { name: "Reader scores", exact: true });
    await list.getByRole("button", { name: "Add to Reader scores" }).click();
    const third = list.getByLabel("Reader scores 3", { exact: true });
    await page.waitForFunction(() => document.activeElement?.tagName === "INPUT");
    expect(await third.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("3");
    // Alt+ArrowUp inside the row moves it; the cursor stays in the moved input.
    await page.keyboard.press("Alt+ArrowUp");
    await page.keyboard.press("Alt+ArrowUp");
    expect(await list.getByLabel("Reader scores 1", { exact: true }).inputValue()).toBe("3");
    expect(await list.getByLabel("Reader scores 1", { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    await list.getByText("Reader scores 2 moved to position 1.").waitFor();
    // The buttons: focus stays on the moved row's button.
    await list.getByRole("button", { name: "Move Reader scores 1 down" }).click();
    expect(await focusedName(page)).toBe("Move Reader scores 2 down");
    expect(await list.getByRole("spinbutton").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(["1", "3", "2"]);
    // Dragging the last row's handle onto the first row puts it first.
    const handles = list.getByTitle("Drag to reorder");
    // The mouse starts from rest over the handle, as a hand does (a drag begun mid-move is not one).
    await handles.nth(2).hover();
    await handles.nth(2).dragTo(handles.nth(0));
    await list.getByText("Reader scores 3 moved to position 1.").waitFor();
    expect(await list.getByRole("spinbutton").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(["2", "1", "3"]);
    await expectAccessible(page);
    await save(page);
    expect((await data(id)).scores).toEqual([2, 1, 3]);
  }, 60_000);

  test("tags for a list of strings: Enter or a comma adds, each tag removes by name", async () => {
    const page = await env.page();
    const id = await open(page, "Tagged", { keywords: ["cms"] });
    const box = page.getByLabel("Keywords", { exact: true });
    await box.fill("alpha");
    await box.press("Enter");
    await box.pressSequentially("beta,");
    await page.getByRole("button", { name: "Remove cms from Keywords" }).click();
    expect(await page.getByRole("list", { name: "Keywords: 2 items" }).getByRole("listitem").allTextContents()).toEqual(["alpha×", "beta×"]);
    await save(page);
    expect((await data(id)).keywords).toEqual(["alpha", "beta"]);
  }, 60_000);

  test("a date stores YYYY-MM-DD; with a time it is entered in the zone and stored as an ISO instant", async () => {
    const page = await env.page({ timezoneId: "Europe/Berlin" });
    const id = await open(page, "Dated");
    await page.getByLabel("Publish date", { exact: true }).fill("2026-12-01");
    await save(page);
    expect((await data(id)).publishDate).toBe("2026-12-01");
    await page.getByRole("switch", { name: "Publish date with a time" }).check();
    await page.getByLabel("Time of Publish date").fill("09:30");
    await page.getByText("Europe/Berlin", { exact: true }).waitFor();
    await save(page);
    expect((await data(id)).publishDate).toBe("2026-12-01T09:30:00+01:00");
    // Read back as the same wall time.
    await page.reload();
    expect(await page.getByLabel("Time of Publish date").inputValue()).toBe("09:30");
    expect(await page.getByLabel("Publish date", { exact: true }).inputValue()).toBe("2026-12-01");
  }, 60_000);

  test("what is typed before a slow /v2/locales answers is kept: the form is not remade when the locales arrive", async () => {
    const page = await env.page();
    // The demo project has two locales and localized posts: the editor's key names the locale.
    await page.route("**/v2/locales", async (route) => {
      await Bun.sleep(1_500);
      await route.continue();
    });
    const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Slow locales", slug: "slow-locales" } });
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/v2/locales");
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    await page.getByRole("heading", { name: "Slow locales", level: 1 }).waitFor();
    const date = page.getByLabel("Publish date", { exact: true });
    await date.fill("2026-12-01");
    await answered;
    // One frame for whatever the answer re-renders.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    expect(await date.inputValue()).toBe("2026-12-01");
    await save(page);
    expect((await data(e.id)).publishDate).toBe("2026-12-01");
  }, 60_000);

  test("a relation to an entry that is gone reads Deleted entry, never its id", async () => {
    const author = await v2(env, "POST", "/v2/model-instances", { model: "author", data: { name: "Gone Author", email: "gone@capa.local" } });
    const page = await env.page();
    const id = await open(page, "Orphaned", {});
    await v2(env, "PATCH", `/v2/model-instances/${id}`, { data: { author: author.id } });
    await v2(env, "DELETE", `/v2/model-instances/${author.id}`);
    await page.reload();
    const group = page.getByRole("group", { name: "Author", exact: true });
    await group.getByText("Deleted entry").waitFor();
    expect(await group.textContent()).not.toContain(author.id);
  }, 60_000);

  test("the media library dialog is wide, its search labelled; an image from it goes into rich text", async () => {
    const page = await env.page();
    const id = await open(page, "With a picture", { body: "Text." });
    await page.getByLabel("Cover image", { exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Choose a file for Cover image" });
    await dialog.getByLabel("Search the library").waitFor();
    const tiles = dialog.getByRole("list", { name: "Files of the library" }).getByRole("listitem");
    await tiles.first().waitFor();
    expect((await dialog.boundingBox())!.width).toBeGreaterThan(900);
    await expectAccessible(page);
    await screenshot(page, "entry-media-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("toolbar", { name: "Formatting of Body", exact: true }).getByRole("button", { name: "Bold" }).waitFor();
    await page.getByRole("textbox", { name: "Body", exact: true }).getByText("Text.").click();
    await page.keyboard.press("End");
    await page.getByRole("toolbar", { name: "Formatting of Body", exact: true }).getByRole("button", { name: "Image" }).click();
    const images = page.getByRole("dialog", { name: "Insert an image into Body" });
    const first = images.getByRole("list", { name: "Files of the library" }).getByRole("button").first();
    const name = (await first.textContent())!.replace(/^Choose /, "");
    const file = (await v2(env, "GET", `/v2/media?q=${encodeURIComponent(name)}`)).data[0];
    await first.click();
    await save(page);
    expect((await data(id)).body).toBe(`Text.![${file.alt}](${file.url})`);
  }, 60_000);

  test("at 390 px the editor fits the screen and reads", async () => {
    const page = await env.page({ width: 390, height: 844 });
    await open(page, "Narrow editor", { body: "# Narrow\n\nText." });
    await page.getByRole("toolbar", { name: "Formatting of Body", exact: true }).getByRole("button", { name: "Bold" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, "entry-editor-390");
  }, 60_000);
});
