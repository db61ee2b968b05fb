// The rich text editor of markdown and html fields in a real browser (issue 26 item 5): the
// stored text is kept byte for byte when nothing is edited and outside the edit when something
// is; the toolbar and shortcuts; links; images from the media library; the source view; HTML
// with script stored as given and never run; a 10 MB paste refused in words with nothing lost.
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

/** Markdown written the way people do, not the way a serialiser would. */
const BODY = ["Intro  ", "=====", "", "Some __bold__ and _em_ text, wrapped", "by hand.", "", "* first point", "* second point", "", "Last line.", ""].join(
  "\n",
);

const HTML = `<p class="lead">Hello <b>there</b>.</p>\n<script>window.hacked = 1</script>\n<p><img src="x" onerror="window.hacked = 2"><a href="javascript:window.hacked=3">click</a></p>\n`;

async function openEntry(page: Page, title: string, id: string) {
  await signIn(page, env.origin, `/admin/content/post/${id}`);
  await page.getByRole("heading", { name: title, level: 1 }).waitFor();
  // The editors' chunk loads on first use: until then a read-only text area stands in.
  for (const label of ["Body", "Body (HTML)"])
    await page
      .getByRole("toolbar", { name: `Formatting of ${label}`, exact: true })
      .getByRole("button", { name: "Bold" })
      .waitFor();
}

const stored = async (id: string) => (await v2(env, "GET", `/v2/model-instances/${id}`)).draft.data;

describe("rich text", () => {
  test("opened and saved without an edit, both fields are kept byte for byte; an edit changes only what was edited", async () => {
    const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Kept as written", slug: "kept", body: BODY, bodyHtml: HTML } });
    const page = await env.page();
    await openEntry(page, "Kept as written", e.id);
    // The HTML field draws nothing active: the script is shown as its source, the rest as safe markup.
    const html = page.getByRole("textbox", { name: "Body (HTML)", exact: true });
    await html.getByText("<script>window.hacked = 1</script>").waitFor();
    const drawn = await html.evaluate((el) => el.innerHTML);
    expect(drawn).not.toContain("onerror");
    expect(drawn).not.toContain("javascript:");
    expect(drawn).not.toMatch(/<script/i);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    await expectAccessible(page);
    await screenshot(page, "rich-text");

    // Save after changing only the title: both rich fields are sent as stored (or not at all).
    await page.getByLabel("Title", { exact: true }).fill("Kept as written, saved");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    let data = await stored(e.id);
    expect([data.body, data.bodyHtml]).toEqual([BODY, HTML]);

    // One word typed in each: everything else stays as stored (the `*` bullets, `__bold__`, the
    // Setext heading, the script, the onerror, the attribute quoting).
    const body = page.getByRole("textbox", { name: "Body", exact: true });
    await body.getByText("second point").click();
    await page.keyboard.press("End");
    await page.keyboard.type(", sharper");
    // At the paragraph's left edge, so the caret starts before "Hello" whatever the line's width.
    await html.getByText("Hello").click({ position: { x: 1, y: 4 } });
    await page.keyboard.press("Home");
    await page.keyboard.type("Oh, ");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    data = await stored(e.id);
    expect(data.body).toBe(BODY.replace("second point", "second point, sharper"));
    expect(data.bodyHtml).toBe(HTML.replace("Hello", "Oh, Hello"));
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
  }, 60_000);

  test("the toolbar and shortcuts: bold, italic, heading, list, quote, code, link; the source view edits the text itself", async () => {
    const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Formatting", slug: "formatting", body: "" } });
    const page = await env.page();
    await openEntry(page, "Formatting", e.id);
    const body = page.getByRole("textbox", { name: "Body", exact: true });
    const tools = page.getByRole("toolbar", { name: "Formatting of Body", exact: true });
    await body.click();
    await page.keyboard.press("Control+Alt+2");
    await page.keyboard.type("Plan");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+b");
    await page.keyboard.type("Bold");
    await page.keyboard.press("Control+b");
    expect(await tools.getByRole("button", { name: "Bold" }).getAttribute("aria-pressed")).toBe("false");
    await page.keyboard.type(" and ");
    await tools.getByRole("button", { name: "Italic" }).click();
    await page.keyboard.type("slanted");
    await tools.getByRole("button", { name: "Italic" }).click();
    await page.keyboard.press("Enter");
    // Markdown's own shortcuts while typing.
    await page.keyboard.type("- one");
    await page.keyboard.press("Enter");
    await page.keyboard.type("two");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("> quoted");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("see ");
    await page.keyboard.press("Control+k");
    const link = page.getByRole("dialog", { name: "Link" });
    await link.getByLabel("Link address").fill("https://capa.example/docs");
    await expectAccessible(page);
    await link.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    expect((await stored(e.id)).body).toBe("## Plan\n\n**Bold** and *slanted*\n\n* one\n\n* two\n\n> quoted\n\nsee <https://capa.example/docs>");

    // The source view shows the text and edits it as text; back in rich text the edit is drawn.
    await tools.getByRole("button", { name: "Source" }).click();
    const source = page.getByRole("textbox", { name: "Body", exact: true });
    // The code editor's chunk loads on first use; a read-only text area stands in until then.
    for (let i = 0; i < 100 && !(await source.isEditable()); i++) await page.waitForTimeout(100);
    await source.getByText("## Plan").waitFor();
    await source.getByText("## Plan").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" B");
    await tools.getByRole("button", { name: "Source" }).click();
    await body.getByRole("heading", { name: "Plan B", level: 2 }).waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    expect((await stored(e.id)).body).toStartWith("## Plan B\n\n**Bold**");
  }, 60_000);

  test("10 MB pasted: refused in words before anything changes, and the text is kept", async () => {
    const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Big paste", slug: "big-paste", body: "Keep me." } });
    const page = await env.page();
    await openEntry(page, "Big paste", e.id);
    const body = page.getByRole("textbox", { name: "Body", exact: true });
    await body.getByText("Keep me.").click();
    // A paste event with 10 MB of text, as the clipboard would bring it.
    await body.evaluate((el) => {
      const data = new DataTransfer();
      data.setData("text/plain", "x".repeat(10 * 1024 * 1024));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page
      .getByRole("alert")
      .getByText(
        "Not pasted: the clipboard holds 10,485,760 characters (10.0 MB), and a field holds at most 1,000,000 characters. Nothing was changed; the clipboard still has it.",
      )
      .waitFor();
    expect(await body.textContent()).toBe("Keep me.");
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
  }, 60_000);
});
