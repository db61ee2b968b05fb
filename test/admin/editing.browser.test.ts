// The editor on the server's editing rules (issue 26 items 6-8), in a real browser against the
// real server: autosave (and an autosave racing a Save), unique and slug as one types, a draft's
// broken rules beside their fields and in the publish panel, Duplicate, Delete saying who points
// at the entry, the Trash screen (Restore, a slug taken meanwhile, Delete for ever), and a
// relation to a trashed entry offering Restore. Controls found by role, label and text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
let authorOf: string;
beforeAll(async () => {
  env = await startBrowserEnv();
  // Pages: a title of at least 3 characters, a slug made from it, a unique SKU, a writer.
  const author = await v2(env, "GET", "/v2/models/author");
  authorOf = author.id;
  await v2(env, "POST", "/v2/models", {
    name: "Page",
    namespace: "page",
    fields: [
      { namespace: "title", label: "Title", type: "string", required: true, minLength: 3 },
      { namespace: "slug", label: "Slug", type: "string", slug: { from: "title" } },
      { namespace: "sku", label: "SKU", type: "string", unique: true, pattern: "^[A-Z]{3}-\\d{3}$", patternMessage: "SKU looks like ABC-123" },
      { namespace: "excerpt", label: "Excerpt", type: "string", help: "One or two sentences." },
      { namespace: "writer", label: "Writer", type: "relation", relation: authorOf },
    ],
  });
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const page = async (title: string, data: Record<string, unknown> = {}) => v2(env, "POST", "/v2/model-instances", { model: "page", data: { title, ...data } });
const get = (id: string) => v2(env, "GET", `/v2/model-instances/${id}`);

async function open(p: Page, id: string, title: string) {
  await signIn(p, env.origin, `/admin/content/page/${id}`);
  await p.getByRole("heading", { name: title, level: 1 }).waitFor();
}

describe("saving", () => {
  test("autosave a few seconds after typing stops, one version replaced in place; an autosave racing a Save loses nothing", async () => {
    const e = await page("Autosaved page");
    const p = await env.page();
    await open(p, e.id, "Autosaved page");
    await p.getByText("One or two sentences.").waitFor();
    await p.getByLabel("Excerpt", { exact: true }).fill("First words");
    await p
      .getByRole("status")
      .getByText(/^Saved at \d\d:\d\d$/)
      .waitFor({ timeout: 10_000 });
    expect((await get(e.id)).draft.data.excerpt).toBe("First words");
    await p.getByLabel("Excerpt", { exact: true }).fill("First words, more");
    await p.getByRole("status").getByText("Unsaved changes").waitFor();
    await p
      .getByRole("status")
      .getByText(/^Saved at/)
      .waitFor({ timeout: 10_000 });
    const versions = (await v2(env, "GET", `/v2/model-instances/${e.id}/versions`)).data;
    // Version 1 (created), then one autosave version replaced in place.
    expect(versions.map((v: { number: number; autosave: boolean }) => [v.number, v.autosave])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect((await get(e.id)).draft.data.excerpt).toBe("First words, more");

    // The server holds every PATCH a while, as a slow network would: the autosave starts, a Save
    // is pressed while it is on its way, and more is typed; all of it arrives, in order.
    await p.route(`**/v2/model-instances/${e.id}*`, async (route) => {
      if (route.request().method() === "PATCH") await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
    await p.getByLabel("Title", { exact: true }).fill("Autosaved page, raced");
    await p.getByRole("status").getByText("Saving…").waitFor({ timeout: 10_000 });
    await p.getByLabel("Excerpt", { exact: true }).fill("Typed during the autosave");
    await p.getByRole("button", { name: "Save", exact: true }).click();
    await p.getByText("Saved.", { exact: true }).waitFor({ timeout: 10_000 });
    await p
      .getByRole("status")
      .getByText(/^Saved at/)
      .waitFor({ timeout: 10_000 });
    const saved = await get(e.id);
    expect([saved.draft.data.title, saved.draft.data.excerpt]).toEqual(["Autosaved page, raced", "Typed during the autosave"]);
    // Saving again with nothing changed adds no version.
    const before = saved.version;
    await p.getByRole("button", { name: "Save", exact: true }).click();
    await p.waitForTimeout(300);
    expect((await get(e.id)).version).toBe(before);
  }, 60_000);
});

describe("rules", () => {
  test("a slug another entry holds is refused in words naming Slug as it is typed", async () => {
    await page("About us", { slug: "about" });
    const p = await env.page();
    await signIn(p, env.origin, "/admin/content/page/new");
    await p.getByRole("heading", { name: "New Page", level: 1 }).waitFor();
    await p.getByLabel("Slug", { exact: true }).fill("about");
    const slug = p.getByLabel("Slug", { exact: true });
    await p.getByText(/^Slug .*about/).waitFor();
    expect(await slug.getAttribute("aria-invalid")).toBe("true");
    const said = await slug.evaluate((el) =>
      el
        .getAttribute("aria-describedby")!
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent)
        .join(" "),
    );
    expect(said).toMatch(/^Slug .*about/);
    await p.getByLabel("Slug", { exact: true }).fill("about-2026");
    await p.waitForFunction(() => document.querySelector("[aria-invalid=true]") === null);
    await expectAccessible(p);
  }, 60_000);

  test("a saved draft shows its broken rules at once beside the fields and in Before publishing; Publish lists them all", async () => {
    const e = await page("Rules page", { sku: "ABC-123" });
    const p = await env.page();
    await open(p, e.id, "Rules page");
    await p.getByLabel("Title", { exact: true }).fill("ab");
    await p.getByLabel("SKU", { exact: true }).fill("abc");
    await p.getByRole("button", { name: "Save", exact: true }).click();
    await p.getByText("Saved.", { exact: true }).waitFor();
    const panel = p.getByRole("region", { name: "Before publishing" });
    await panel.getByText("2 rules to fix:").waitFor();
    const items = await panel.getByRole("listitem").allTextContents();
    expect(items).toEqual([expect.stringMatching(/^Title: Title must be at least 3 characters/), "SKU: SKU looks like ABC-123"]);
    expect(await p.getByLabel("Title", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await screenshot(p, "entry-rules");
    await expectAccessible(p);
    await panel.getByRole("link", { name: "SKU" }).click();
    expect(await p.getByLabel("SKU", { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    await p.getByRole("button", { name: "Publish", exact: true }).click();
    await panel.getByText("2 rules to fix:").waitFor();
    expect((await get(e.id)).status).toBe("draft");
    // Fixed: the panel goes and the entry publishes.
    await p.getByLabel("Title", { exact: true }).fill("Rules page");
    await p.getByLabel("SKU", { exact: true }).fill("ABC-124");
    await p.getByRole("button", { name: "Publish", exact: true }).click();
    await p.getByText("Published.").waitFor();
    expect(await panel.count()).toBe(0);
    expect((await get(e.id)).status).toBe("published");
  }, 60_000);
});

describe("duplicate, delete, trash", () => {
  test("Duplicate opens a new draft: unique values emptied, a new slug", async () => {
    const e = await page("Original page", { slug: "original", sku: "DUP-001" });
    const p = await env.page();
    await open(p, e.id, "Original page");
    await p.getByRole("button", { name: "Duplicate" }).click();
    await p.getByText("Duplicated: this is the copy, a new draft.").waitFor();
    await p.waitForURL((u) => !u.pathname.endsWith(e.id) && /[0-9a-f-]{36}$/.test(u.pathname));
    const copy = await get(new URL(p.url()).pathname.split("/").pop()!);
    expect([copy.version, copy.draft.data.title, copy.draft.data.slug, copy.draft.data.sku ?? null]).toEqual([1, "Original page", "original-2", null]);
    expect(await p.getByLabel("Slug", { exact: true }).inputValue()).toBe("original-2");
  }, 60_000);

  test("Delete says who points at the entry; the Trash restores it (the relation follows) and deletes for ever", async () => {
    const writer = await v2(env, "POST", "/v2/model-instances", { model: "author", data: { name: "Trash Writer", email: "trash@capa.local" } });
    const a = await page("Points at the writer", { writer: writer.id });
    await page("Also points", { writer: writer.id });
    const p = await env.page();
    await signIn(p, env.origin, `/admin/content/author/${writer.id}`);
    await p.getByRole("heading", { name: "Trash Writer", level: 1 }).waitFor();
    await p.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = p.getByRole("dialog", { name: "Delete this entry?" });
    await dialog.getByText("2 entries point at it; their relations will read “Deleted entry”:").waitFor();
    expect(await dialog.getByRole("listitem").allTextContents()).toEqual(["Points at the writer (page, writer)", "Also points (page, writer)"]);
    await expectAccessible(p);
    await screenshot(p, "entry-delete-usage");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await p.getByRole("heading", { name: "Author", level: 1 }).waitFor();

    // The page's relation reads Deleted entry, with Restore since it is in the trash.
    await p.goto(`${env.origin}/admin/content/page/${a.id}`);
    const rel = p.getByRole("group", { name: "Writer", exact: true });
    await rel.getByText("Deleted entry").waitFor();
    await rel.getByRole("button", { name: "Restore Trash Writer" }).waitFor();

    // The Trash: who deleted what when; Restore brings it back.
    await p.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Trash" }).click();
    await p.getByRole("heading", { name: "Trash", level: 1 }).waitFor();
    await p.getByLabel("Model").selectOption({ label: "Author" });
    await p.waitForURL(/\/admin\/trash\?model=author$/);
    const row = p.getByRole("row").filter({ hasText: "Trash Writer" });
    // The list of the chosen model loads after the URL changes: its row first, then its cells.
    await row.waitFor();
    expect((await row.getByRole("cell").allTextContents()).slice(0, 5)).toEqual([
      "Trash Writer",
      "Author",
      "Draft",
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      "Owner",
    ]);
    await expectAccessible(p);
    await screenshot(p, "trash");
    await row.getByRole("button", { name: "Restore Trash Writer" }).click();
    await p.getByText("Restored “Trash Writer”.").waitFor();
    await p.getByText("The trash is empty.").waitFor();
    expect((await get(writer.id)).draft.data.name).toBe("Trash Writer");
    await p.goto(`${env.origin}/admin/content/page/${a.id}`);
    await p.getByRole("group", { name: "Writer", exact: true }).getByText("Trash Writer").waitFor();

    // Delete for ever, after a confirmation.
    await v2(env, "DELETE", `/v2/model-instances/${writer.id}`);
    await p.goto(`${env.origin}/admin/trash`);
    await p.getByRole("button", { name: "Delete Trash Writer for ever" }).click();
    const sure = p.getByRole("dialog", { name: "Delete “Trash Writer” for ever?" });
    await expectAccessible(p);
    await sure.getByRole("button", { name: "Delete for ever" }).click();
    await p.getByText("Deleted “Trash Writer” for ever.").waitFor();
    const gone = await fetch(`${env.origin}/v2/trash/${writer.id}`, {
      headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId },
    });
    expect(gone.status).toBe(404);
  }, 60_000);

  test("a restore whose slug was taken meanwhile says the new slug; the Trash reads at 390 px", async () => {
    const e = await page("Taken slug", { slug: "taken" });
    await v2(env, "DELETE", `/v2/model-instances/${e.id}`);
    await page("Took it", { slug: "taken" });
    const p = await env.page({ width: 390, height: 844 });
    await signIn(p, env.origin, "/admin/trash?model=page");
    await p.getByRole("button", { name: "Restore Taken slug" }).click();
    await p.getByText("Restored “Taken slug”. Its slug was taken meanwhile and is now “taken-2”.").waitFor();
    expect((await get(e.id)).draft.data.slug).toBe("taken-2");
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(p);
    await screenshot(p, "trash-390");
  }, 60_000);
});

describe("field settings", () => {
  test("a field's rules are set in its form (by kind), saved on the model, and shown in the editor", async () => {
    const p = await env.page();
    const model = await v2(env, "GET", "/v2/models/page");
    await signIn(p, env.origin, `/admin/models/${model.id}`);
    await p.getByRole("button", { name: "Edit excerpt" }).click();
    const dialog = p.getByRole("dialog", { name: "Edit excerpt" });
    const rules = dialog.getByRole("group", { name: "Rules" });
    // A text field takes lengths, a pattern, unique, a slug source and help; not a minimum.
    expect(await rules.getByLabel("Minimum", { exact: true }).count()).toBe(0);
    await rules.getByLabel("Maximum length").fill("200");
    await rules.getByLabel("Help text").fill("Two hundred characters at most.");
    await expectAccessible(p);
    await dialog.getByRole("button", { name: "Save field" }).click();
    await p.getByText("Field excerpt saved.").waitFor();
    const excerpt = (await v2(env, "GET", "/v2/models/page")).fields.find((f: { namespace: string }) => f.namespace === "excerpt");
    expect([excerpt.maxLength, excerpt.help, excerpt.unique ?? false]).toEqual([200, "Two hundred characters at most.", false]);
    // A refusal names its setting: a minimum above the maximum is said at Minimum length.
    await p.getByRole("button", { name: "Edit excerpt" }).click();
    await rules.getByLabel("Minimum length").fill("300");
    await dialog.getByRole("button", { name: "Save field" }).click();
    await rules.getByText("editFields[0].minLength (300) is above maxLength (200)").waitFor();
    expect(await rules.getByLabel("Minimum length").getAttribute("aria-invalid")).toBe("true");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    // The editor counts against the new maximum and shows the help.
    const e = await page("Counted page");
    await p.goto(`${env.origin}/admin/content/page/${e.id}`);
    await p.getByLabel("Excerpt", { exact: true }).fill("Short");
    await p.getByText("5 of 200 characters").waitFor();
    await p.getByText("Two hundred characters at most.").waitFor();
  }, 60_000);
});
