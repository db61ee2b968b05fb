// Entry lists and the entry editor in a real browser, as an editor uses them: pages by cursor, filters, an input for every field kind labelled with the field's label, Save,
// Publish, Unpublish, Delete with a confirmation, New entry, server errors at their field, the
// unsaved-changes guard and the model's entry layout. Found by role, label and visible text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, rail, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
  // The demo has 24 posts; 30 more make three pages of 25.
  for (let i = 1; i <= 30; i++) await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: `Field note ${i}`, slug: `field-note-${i}` } });
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const rowsOf = (page: Page) => page.getByRole("table").getByRole("row");

async function openList(page: Page) {
  await signIn(page, env.origin);
  await (await rail(page)).getByRole("link", { name: "Post" }).click();
  await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
}

describe("the entry list", () => {
  test("25 rows a page by cursor with the count; status and text filters; the first screen stays under 250 KB", async () => {
    const page = await env.page();
    // Count what a first visit downloads: no HTTP cache for this page.
    await (await page.context().newCDPSession(page)).send("Network.setCacheDisabled", { cacheDisabled: true });
    // Each size is read asynchronously; they are all awaited before the sum is checked (a loaded
    // machine answers them after the list has rendered).
    const sizes: Promise<number>[] = [];
    page.on("requestfinished", (r) => {
      if (r.url().includes("/admin/assets/")) sizes.push(r.sizes().then((x) => x.responseBodySize));
    });
    await openList(page);
    await page.getByText("Entries 1–25 of 54").waitFor();
    expect(await rowsOf(page).count()).toBe(26);
    // Newest first: the 30 field notes came last.
    expect(await rowsOf(page).nth(1).getByRole("link").textContent()).toBe("Field note 30");
    await expect(rowsOf(page).nth(1).getByRole("cell").allTextContents()).resolves.toEqual([
      "",
      "Field note 30",
      "Draft",
      expect.any(String),
      "Owner",
      "en draft de draft",
    ]);
    // Sign-in plus the list loaded only the first screen's files, compressed.
    const assetBytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    expect(assetBytes).toBeGreaterThan(50 * 1024);
    expect(assetBytes).toBeLessThan(250 * 1024);
    console.log(`first screen assets over the wire: ${(assetBytes / 1024).toFixed(1)} KB`);
    await expectAccessible(page);
    await screenshot(page, "entry-list");

    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Entries 26–50 of 54").waitFor();
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Entries 51–54 of 54").waitFor();
    expect(await rowsOf(page).count()).toBe(5);
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    // Back a page by the cursor this tab saw, and the browser's Back too.
    await page.getByRole("button", { name: "Previous page" }).click();
    await page.getByText("Entries 26–50 of 54").waitFor();
    await page.goBack();
    await page.getByText("Entries 51–54 of 54").waitFor();
    await page.goBack();
    await page.goBack();
    await page.getByText("Entries 1–25 of 54").waitFor();

    // Keyboard: j and k move between entries, / focuses the search box.
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await page.keyboard.press("j");
    expect(await page.getByRole("link", { name: "Field note 29", exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("/");
    expect(await page.getByLabel("Search").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel("Search").blur();

    await page.getByLabel("Status").selectOption({ label: "Published" });
    await page.getByText("Entries 1–8 of 8").waitFor();
    expect(new URL(page.url()).search).toBe("?status=published");
    const statuses = [];
    for (const row of (await rowsOf(page).all()).slice(1)) statuses.push((await row.getByRole("cell").allTextContents())[2]);
    expect(statuses).toEqual(Array(8).fill("Published"));

    // Search as one types: no Enter.
    await page.getByLabel("Status").selectOption({ label: "Any status" });
    await page.getByLabel("Search").fill("webhooks");
    await page.getByText("Entries 1–2 of 2").waitFor();
    expect((await rowsOf(page).allTextContents()).slice(1).every((t) => t.includes("webhooks"))).toBe(true);

    // Sorting by Updated: an old post saved a moment ago comes first, then last.
    const old = (await v2(env, "GET", "/v2/model-instances?model=post&q=previewing%20drafts")).data[0];
    await v2(env, "PATCH", `/v2/model-instances/${old.id}`, { data: { excerpt: "Touched." } });
    await page.getByLabel("Search").fill("");
    await page.getByText("Entries 1–25 of 54").waitFor();
    await page.getByRole("button", { name: "Updated" }).click();
    await page.waitForURL(/sort=-updatedAt/);
    await rowsOf(page).nth(1).getByRole("link", { name: old.draft.data.title }).waitFor();
    expect(await page.getByRole("columnheader", { name: "Updated" }).getAttribute("aria-sort")).toBe("descending");
    await page.getByRole("button", { name: "Updated" }).click();
    await page.waitForURL(/sort=updatedAt/);
    expect(await page.getByRole("columnheader", { name: "Updated" }).getAttribute("aria-sort")).toBe("ascending");
    await page.getByLabel("Per page").selectOption("100");
    await page.getByText("Entries 1–54 of 54").waitFor();
    expect(await rowsOf(page).nth(54).getByRole("link").textContent()).toBe(old.draft.data.title);
  }, 60_000);

  test("select entries, Publish them after a dry run whose count the confirmation shows", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByLabel("Status").selectOption({ label: "Draft" });
    await page.waitForURL(/status=draft/);
    await page.getByRole("checkbox", { name: "Select Field note 29" }).check();
    await page.getByRole("checkbox", { name: "Select Field note 28" }).check();
    const bar = page.getByRole("region", { name: "Selection" });
    await bar.getByText("2 entries selected").waitFor();
    await bar.getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Publish 2 entries?" });
    await dialog.waitFor();
    await expectAccessible(page);
    await screenshot(page, "entry-list-bulk");
    await dialog.getByRole("button", { name: "Publish 2 entries" }).click();
    await page.getByText("Published 2 entries.").waitFor();
    await page.getByRole("link", { name: "Field note 27", exact: true }).waitFor();
    await page.getByRole("link", { name: "Field note 29", exact: true }).waitFor({ state: "detached" });
    const published = (await v2(env, "GET", "/v2/model-instances?model=post&q=Field%20note%2029")).data[0];
    expect(published.status).toBe("published");
    // Unpublish them again so the other tests see the list as seeded.
    await v2(env, "POST", "/v2/model-instances/bulk-unpublish", { instanceIds: [published.id] });
    await v2(env, "POST", "/v2/model-instances/bulk-unpublish", {
      instanceIds: [(await v2(env, "GET", "/v2/model-instances?model=post&q=Field%20note%2028")).data[0].id],
    });
  }, 60_000);

  test("at 360 px wide in dark mode the list still reads", async () => {
    const page = await env.page({ width: 360, height: 740, colorScheme: "dark" });
    await openList(page);
    await page.getByText("Entries 1–25 of 54").waitFor();
    await expectAccessible(page);
    await screenshot(page, "entry-list-360-dark");
  }, 60_000);
});

describe("the entry editor", () => {
  test("every field of a post has its input, labelled with the field's label", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByLabel("Search").fill("media fields");
    await page.getByLabel("Search").press("Enter");
    await page.getByRole("link", { name: "Notes on media fields" }).click();
    await page.getByRole("heading", { name: "Notes on media fields", level: 1 }).waitFor();
    const model = (await v2(env, "GET", "/v2/models/post")) as { fields: { label: string; type: string; arrayType: string | null }[] };
    // Lists of strings are tags (a text box); other lists and relations are groups; rich text,
    // code and JSON are editors with the textbox role; the rest are labelled controls.
    const roleOf = (f: { type: string; arrayType: string | null }) =>
      f.type === "array"
        ? f.arrayType === "string"
          ? null
          : "group"
        : f.type === "relation"
          ? "group"
          : ["markdown", "html", "code", "mixed"].includes(f.type)
            ? "textbox"
            : null;
    for (const f of model.fields) {
      const role = roleOf(f);
      // The editors load on first use: wait for the input before counting.
      const found = role ? page.getByRole(role, { name: f.label, exact: true }) : page.getByLabel(f.label, { exact: true });
      await found.first().waitFor();
      expect([f.label, await found.count()]).toEqual([f.label, 1]);
    }
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Notes on media fields");
    // A boolean is a switch.
    expect(await page.getByRole("switch", { name: "Featured", exact: true }).isChecked()).toBe(false);
    const stored = (await v2(env, "GET", "/v2/model-instances?model=post&q=media%20fields")).data[0].draft.data;
    expect(await page.getByLabel("Kind", { exact: true }).inputValue()).toBe(stored.kind);
    expect(await page.getByLabel("Reading time (minutes)", { exact: true }).inputValue()).toBe(String(stored.readingMinutes));
    // A media field is a "Choose from library" button labelled by the field, and shows the chosen
    // file by name (a library reference) or by its URL (a value written before the library).
    expect(await page.getByLabel("Cover image", { exact: true }).textContent()).toBe("Choose from library");
    const coverShown = stored.cover.url ?? (await v2(env, "GET", `/v2/media/${stored.cover.id}`)).filename;
    await page.getByText(coverShown, { exact: true }).waitFor();
    // Markdown is rich text: the heading and the list are drawn as such.
    const body = page.getByRole("textbox", { name: "Body", exact: true });
    await body.getByRole("heading", { name: "Notes on media fields", level: 1 }).waitFor();
    expect(await body.getByRole("listitem").allTextContents()).toEqual(["one point", "another point"]);
    expect(
      await page.getByRole("toolbar", { name: "Formatting of Body", exact: true }).getByRole("button", { name: "Bold" }).getAttribute("aria-keyshortcuts"),
    ).toBe("Control+B");
    // Keywords are tags, each removable by name.
    for (const k of stored.keywords) await page.getByRole("button", { name: `Remove ${k} from Keywords` }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "entry-editor");
  }, 60_000);

  test("Save, Publish, Unpublish; a server error is shown at its field", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByRole("link", { name: "Field note 7", exact: true }).click();
    const title = page.getByLabel("Title", { exact: true });
    await title.fill("Field note seven");
    await page.getByText("Unsaved changes").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    await page.getByRole("heading", { name: "Field note seven", level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split("/").pop()!;
    expect((await v2(env, "GET", `/v2/model-instances/${id}`)).draft.data.title).toBe("Field note seven");

    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByText("Published.").waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${id}`)).status).toBe("published");
    expect(await page.getByRole("button", { name: "Publish", exact: true }).count()).toBe(0);

    await page.getByRole("button", { name: "Unpublish" }).click();
    await page.getByText("Unpublished.").waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${id}`)).status).toBe("draft");

    // Title is required to publish: the server names data.title (in the locale published, en), and the app shows it there.
    await page.getByLabel("Title", { exact: true }).fill("");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const field = page.getByLabel("Title", { exact: true });
    await page.getByText("Title (en) is required before the entry can be published").first().waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    const description = await field.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent);
    expect(description).toBe("Title (en) is required before the entry can be published");
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    // The change was saved as a draft before the publish was refused.
    const after = await v2(env, "GET", `/v2/model-instances/${id}`);
    // A localized field stores no blank value (docs/localization.md): the emptied title reads null.
    expect([after.status, after.draft.data.title]).toEqual(["draft", null]);
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "entry-field-error");
  }, 60_000);

  test("leaving with unsaved changes asks first; Cancel stays, Leave goes", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByRole("link", { name: "Field note 8", exact: true }).click();
    await page.getByLabel("Excerpt", { exact: true }).fill("Not saved yet");
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Author" }).click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByLabel("Excerpt", { exact: true }).inputValue()).toBe("Not saved yet");
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Author" }).click();
    await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Leave" }).click();
    await page.getByRole("heading", { name: "Author", level: 1 }).waitFor();

    // Ctrl+S saves a draft; with nothing unsaved, leaving asks nothing.
    await page.goBack();
    await page.getByRole("heading", { name: "Field note 8", level: 1 }).waitFor();
    await page.getByLabel("Excerpt", { exact: true }).fill("Saved by keyboard");
    await page.keyboard.press("Control+s");
    await page.getByText("Saved.").waitFor();
    const id = new URL(page.url()).pathname.split("/").pop()!;
    expect((await v2(env, "GET", `/v2/model-instances/${id}`)).draft.data.excerpt).toBe("Saved by keyboard");
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Author" }).click();
    await page.getByRole("heading", { name: "Author", level: 1 }).waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
  }, 60_000);

  test("New entry, then Delete with a confirmation", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByRole("link", { name: "New entry" }).click();
    await page.getByRole("heading", { name: "New Post", level: 1 }).waitFor();
    // Publish without a title: no draft is created, and the rule is shown at Title and in the panel.
    await page.getByLabel("Slug", { exact: true }).fill("written-in-the-browser");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByText("Title (en) is required before the entry can be published").first().waitFor();
    const panel = page.getByRole("region", { name: "Before publishing" });
    expect(await panel.getByRole("listitem").allTextContents()).toEqual(["Title: Title (en) is required before the entry can be published"]);
    expect((await v2(env, "GET", "/v2/model-instances?model=post&q=written-in-the-browser")).total).toBe(0);
    await panel.getByRole("link", { name: "Title" }).click();
    expect(await page.getByLabel("Title", { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel("Title", { exact: true }).fill("Written in the browser");
    await page.getByLabel("Reading time (minutes)", { exact: true }).fill("6");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("heading", { name: "Written in the browser", level: 1 }).waitFor();
    await page.waitForURL(/\/admin\/content\/post\/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const saved = await v2(env, "GET", `/v2/model-instances/${id}`);
    expect(saved.draft.data).toMatchObject({ title: "Written in the browser", slug: "written-in-the-browser", readingMinutes: 6 });
    expect(saved.version).toBe(1);
    expect((await v2(env, "GET", "/v2/model-instances?model=post&q=written-in-the-browser")).total).toBe(1);

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this entry?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog", { name: "Delete this entry?" }).getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
    const gone = await fetch(`${env.origin}/v2/model-instances/${id}`, {
      headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId },
    });
    expect(gone.status).toBe(404);
  }, 60_000);

  test("the model's entry layout: cards in main and aside, a collapsed card opens", async () => {
    const author = await v2(env, "GET", "/v2/models/author");
    const f = Object.fromEntries(author.fields.map((x: { namespace: string; id: string }) => [x.namespace, x.id]));
    const item = (fieldId: string, width: string) => ({ t: "field", id: `i-${fieldId.slice(-6)}`, fieldId, width });
    await v2(env, "PUT", `/v2/models/${author.id}/layout`, {
      layout: {
        v: 1,
        main: [
          { t: "card", id: "who", title: "Who", collapsible: false, collapsed: false, items: [item(f.name, "half"), item(f.email, "half")] },
          { t: "card", id: "story", title: "Story", collapsible: true, collapsed: true, items: [item(f.bio, "full")] },
        ],
        aside: [{ t: "card", id: "links", title: "Links", collapsible: false, collapsed: false, items: [item(f.links, "full")] }],
      },
    });
    const page = await env.page({ width: 1440, height: 900 });
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Author" }).click();
    await page.getByRole("link", { name: "Ada Brenner" }).click();
    await page.getByRole("heading", { name: "Who", level: 2 }).waitFor();
    expect(await page.getByRole("region", { name: "Links" }).getByRole("textbox", { name: "Links" }).count()).toBe(1);
    const story = page.getByRole("button", { name: /Story/ });
    expect(await story.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("textbox", { name: "Biography" }).count()).toBe(0);
    await story.click();
    expect(await story.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("textbox", { name: "Biography" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "entry-layout-1440");
  }, 60_000);

  test("relation displays: inline opens the related entry, embedded shows its fields in place", async () => {
    const post = await v2(env, "GET", "/v2/models/post");
    const f = Object.fromEntries(post.fields.map((x: { namespace: string; id: string }) => [x.namespace, x.id]));
    const item = (fieldId: string, extra: Record<string, unknown> = {}) => ({ t: "field", id: `i-${fieldId.slice(-6)}`, fieldId, width: "full", ...extra });
    await v2(env, "PUT", `/v2/models/${post.id}/layout`, {
      layout: {
        v: 1,
        main: [
          { t: "card", id: "main", title: "Post", collapsible: false, collapsed: false, items: [item(f.title), item(f.categories, { display: "inline" })] },
        ],
        aside: [{ t: "card", id: "by", title: "Byline", collapsible: false, collapsed: false, items: [item(f.author, { display: "embedded" })] }],
      },
    });
    try {
      const stored = (await v2(env, "GET", "/v2/model-instances?model=post&q=media%20fields")).data[0];
      const category = await v2(env, "GET", `/v2/model-instances/${stored.draft.data.categories[0]}`);
      const author = await v2(env, "GET", `/v2/model-instances/${stored.draft.data.author}`);
      const page = await env.page({ width: 1440, height: 900 });
      await openList(page);
      await page.getByLabel("Search").fill("media fields");
      await page.getByLabel("Search").press("Enter");
      await page.getByRole("link", { name: "Notes on media fields" }).click();
      const byline = page.getByRole("region", { name: "Byline" });
      const embedded = byline.getByRole("region", { name: `Author: ${author.draft.data.name}` });
      await embedded.getByText(author.draft.data.email).waitFor();
      await expectAccessible(page);
      await screenshot(page, "entry-relations");
      await page.getByRole("link", { name: `Open ${category.draft.data.name}` }).click();
      await page.getByRole("heading", { name: category.draft.data.name, level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/admin/content/category/${category.id}`);
    } finally {
      await v2(env, "DELETE", `/v2/models/${post.id}/layout`);
    }
  }, 60_000);
});

describe("versions", () => {
  test("the version list names who saved when; two versions compare field by field; an old one is restored as a new draft", async () => {
    const page = await env.page({ width: 1440, height: 900 });
    await openList(page);
    await page.getByRole("link", { name: "Field note 10", exact: true }).click();
    await page.getByLabel("Title", { exact: true }).fill("Field note ten");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    const card = page.getByRole("region", { name: "Versions" });
    await card.getByText(/^Version 2 by Owner, /).waitFor();
    await card.getByText(/^Version 1 by Owner, /).waitFor();
    expect(await card.getByLabel("Compare").inputValue()).toBe("1");
    expect(await card.getByLabel("With").inputValue()).toBe("2");
    const table = card.getByRole("table", { name: "Fields that differ between version 1 and version 2" });
    expect(await table.getByRole("row").allTextContents()).toEqual(["FieldVersion 1Version 2", "TitleField note 10Field note ten"]);
    await expectAccessible(page);
    await screenshot(page, "entry-versions");

    await card.getByRole("button", { name: "Restore version 1 as a new draft" }).click();
    await page.getByText("Restored as version 3.").waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Field note 10");
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const saved = await v2(env, "GET", `/v2/model-instances/${id}`);
    expect([saved.version, saved.draft.data.title]).toEqual([3, "Field note 10"]);
    await card.getByText(/^Version 3 by Owner, /).waitFor();
  }, 60_000);
});

describe("relation search", () => {
  test("a relation is chosen in a dialog that searches the target model and shows titles and status; the choice is saved", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByRole("link", { name: "Field note 8", exact: true }).click();
    await page.waitForURL(/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const author = page.getByRole("group", { name: "Author", exact: true });
    await author.getByText("None").waitFor();
    await author.getByRole("button", { name: "Choose Author" }).click();
    const dialog = page.getByRole("dialog", { name: "Choose Author" });
    await dialog.getByText("4 entries").waitFor();
    await dialog.getByLabel("Search Author").fill("Mei");
    // The rows follow the server's answer to the search.
    await dialog.getByText("1 entry", { exact: true }).waitFor();
    const rows = dialog.getByRole("list", { name: "Entries of Author" }).getByRole("listitem");
    expect(await rows.allTextContents()).toEqual(["Choose Mei LinPublished"]);
    await expectAccessible(page);
    await screenshot(page, "entry-relation-dialog");
    await dialog.getByRole("button", { name: "Choose Mei Lin" }).click();
    await author.getByText("Mei Lin").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    const saved = await v2(env, "GET", `/v2/model-instances/${id}`);
    const mei = (await v2(env, "GET", "/v2/model-instances?model=author&q=Mei")).data[0];
    expect(saved.draft.data.author).toBe(mei.id);
  });
});

describe("edit conflicts", () => {
  test("a save after someone else's is refused; the dialog names both sides; Overwrite and Reload", async () => {
    const page = await env.page();
    await openList(page);
    await page.getByRole("link", { name: "Field note 11", exact: true }).click();
    await page.waitForURL(/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByLabel("Title", { exact: true }).fill("Field note eleven");
    // Meanwhile a script saves the excerpt.
    await v2(env, "PATCH", `/v2/model-instances/${id}`, { data: { excerpt: "Changed elsewhere" } });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "This entry changed while you edited it" });
    await dialog.getByText("It is now at version 2. Changed there: Excerpt.").waitFor();
    await dialog.getByText("Not saved here: Title.").waitFor();
    await expectAccessible(page);
    await screenshot(page, "entry-conflict");
    expect((await v2(env, "GET", `/v2/model-instances/${id}`)).draft.data.title).toBe("Field note 11");
    await dialog.getByRole("button", { name: "Overwrite" }).click();
    await page.getByText("Saved.").waitFor();
    const merged = await v2(env, "GET", `/v2/model-instances/${id}`);
    expect([merged.version, merged.draft.data.title, merged.draft.data.excerpt]).toEqual([3, "Field note eleven", "Changed elsewhere"]);

    // Again, and this time Reload: the newer version replaces the form.
    await page.getByLabel("Title", { exact: true }).fill("Mine, not kept");
    await v2(env, "PATCH", `/v2/model-instances/${id}`, { data: { title: "Theirs" } });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // The dialog reads the entry afresh each time: version 4 now, not the version 2 of the first conflict.
    const again = page.getByRole("dialog", { name: "This entry changed while you edited it" });
    await again.getByText("It is now at version 4. Changed there: Title.").waitFor();
    await again.getByRole("button", { name: "Reload" }).click();
    await page.getByText("Reloaded version 4.").waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Theirs");
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
    expect((await v2(env, "GET", `/v2/model-instances/${id}`)).version).toBe(4);
  }, 60_000);
});

describe("scheduling", () => {
  test("Schedule a publish at a wall time in a zone: the server's resolved instant and DST note are shown; Cancel removes it", async () => {
    const page = await env.page({ width: 1440, height: 900 });
    await openList(page);
    await page.getByRole("link", { name: "Field note 9", exact: true }).click();
    await page.waitForURL(/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const card = page.getByRole("region", { name: "Schedule" });
    await card.getByText("Nothing scheduled.").waitFor();

    // A time in the past is refused at the Time input.
    await card.getByLabel("Time", { exact: true }).fill("2020-01-01T10:00");
    await card.getByLabel("Time zone").fill("Europe/Berlin");
    await card.getByRole("button", { name: "Schedule", exact: true }).click();
    await card.getByText("is less than 60 seconds ahead").waitFor();
    expect(await card.getByLabel("Time", { exact: true }).getAttribute("aria-invalid")).toBe("true");

    // 02:30 on the spring-forward night does not exist in Berlin: the server says so.
    await card.getByLabel("Time", { exact: true }).fill("2027-03-28T02:30");
    await card.getByRole("button", { name: "Schedule", exact: true }).click();
    await card.getByText("Scheduled: runs at 2027-03-28 01:30 UTC (offset +02:00).").waitFor();
    await card.getByText("02:30 does not exist on 2027-03-28 in Europe/Berlin").waitFor();
    // The action reads once, on one line, in its own zone (02:30 does not exist: it runs at 03:30 there).
    await card.getByText("Publish on 28 Mar 2027, 03:30 Europe/Berlin", { exact: true }).waitFor();
    const actions = (await v2(env, "GET", `/v2/model-instances/${id}/scheduled`)).data;
    expect(actions.map((a: any) => [a.action, a.wallTime, a.timezone, a.resolved.at, a.status])).toEqual([
      ["publish", "2027-03-28T02:30:00", "Europe/Berlin", "2027-03-28T01:30:00.000Z", "pending"],
    ]);
    await expectAccessible(page);
    await screenshot(page, "entry-schedule");

    // Reschedule to the time now in the form: an hour later, in New York.
    await card.getByLabel("Time", { exact: true }).fill("2027-03-28T09:15");
    await card.getByLabel("Time zone").fill("America/New_York");
    await card.getByRole("button", { name: "Reschedule publish on 28 Mar 2027, 03:30 Europe/Berlin to the time above" }).click();
    await card.getByText("Scheduled: runs at 2027-03-28 13:15 UTC (offset -04:00).").waitFor();
    await card.getByText("Publish on 28 Mar 2027, 09:15 America/New_York", { exact: true }).waitFor();
    const moved = await v2(env, "GET", `/v2/scheduled-actions/${actions[0].id}`);
    expect([moved.wallTime, moved.timezone, moved.resolved.at, moved.status]).toEqual([
      "2027-03-28T09:15:00",
      "America/New_York",
      "2027-03-28T13:15:00.000Z",
      "pending",
    ]);

    await card.getByRole("button", { name: "Cancel publish on 28 Mar 2027, 09:15 America/New_York" }).click();
    await card.getByText("Nothing scheduled.").waitFor();
    expect((await v2(env, "GET", `/v2/scheduled-actions/${actions[0].id}`)).status).toBe("cancelled");
  }, 60_000);
});
