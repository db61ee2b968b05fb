// The entry layout editor in a real browser (issue 14): an owner lays out a model's editor in two
// cards, one in main and one in aside, moving fields by dragging and by the keyboard path, with a
// width and a relation display; the saved body is read back over /v2 and the entry editor shows
// the cards. Also: the 80- and 200-character limits as typed, a server refusal shown at its input,
// the 50-card limit, Reset to default, and a role that may not change layouts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
let book: { id: string; fields: { id: string; namespace: string }[] };
let f: Record<string, string>;

beforeAll(async () => {
  env = await startBrowserEnv();
  const author = await v2(env, "GET", "/v2/models/author");
  book = await v2(env, "POST", "/v2/models", {
    name: "Book",
    namespace: "book",
    fields: [
      { namespace: "title", label: "Title", type: "string" },
      { namespace: "summary", label: "Summary", type: "string" },
      { namespace: "writer", label: "Writer", type: "relation", relation: author.id },
      { namespace: "pages", label: "Pages", type: "number" },
      { namespace: "published", label: "Published on", type: "date" },
    ],
  });
  f = Object.fromEntries(book.fields.map((x) => [x.namespace, x.id]));
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** Signs in as the owner and opens the layout editor from the model's page. */
async function openEditor(page: Page, modelId: string, name: string): Promise<void> {
  await signIn(page, env.origin, `/admin/models/${modelId}`);
  await page.getByRole("link", { name: "Edit layout" }).click();
  await page.getByRole("heading", { name: `Layout of ${name}`, level: 1 }).waitFor();
}

const card = (page: Page, title: string) => page.getByRole("region", { name: `Card: ${title}`, exact: true });
const unplaced = (page: Page) => page.getByRole("list", { name: "Fields not in the layout" });

describe("layouts", () => {
  test("an owner lays out its editor in two cards: drag, keyboard, width, display, save, the entry editor follows", async () => {
    const page = await env.page({ width: 1440, height: 900 });
    await openEditor(page, book.id, "Book");
    expect(
      await unplaced(page)
        .getByRole("listitem")
        .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))),
    ).toEqual(["Title", "Summary", "Writer", "Pages", "Published on"]);

    await page.getByRole("button", { name: "Add card to main" }).click();
    await card(page, "Card 1").getByLabel("Title", { exact: true }).fill("Story");
    await card(page, "Story").getByLabel("Description").fill("What the book is about");
    await page.getByRole("button", { name: "Add card to aside" }).click();
    await card(page, "Card 2").getByLabel("Title", { exact: true }).fill("Facts");
    await card(page, "Facts").getByLabel("Collapsible").check();
    await card(page, "Facts").getByLabel("Collapsed at first").check();

    // By dragging: Title, then Summary, into Story (dropped on the card, so each goes last).
    await unplaced(page)
      .getByRole("listitem", { name: "Title" })
      .dragTo(card(page, "Story").getByRole("heading", { name: "Story" }));
    await card(page, "Story").getByRole("listitem", { name: "Title" }).waitFor();
    await unplaced(page)
      .getByRole("listitem", { name: "Summary" })
      .dragTo(card(page, "Story").getByRole("heading", { name: "Story" }));
    await card(page, "Story").getByRole("listitem", { name: "Summary" }).waitFor();
    // By the keyboard: Summary up above Title, Writer to Facts and Pages to Story with Move to.
    await card(page, "Story").getByRole("button", { name: "Move Summary up" }).press("Enter");
    await page.getByLabel("Move Writer to").selectOption({ label: "Aside: Facts" });
    await page.getByLabel("Move Pages to").selectOption({ label: "Main: Story" });
    expect(
      await card(page, "Story")
        .getByRole("listitem")
        .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))),
    ).toEqual(["Summary", "Title", "Pages"]);
    // Dropped on a row, a field goes just before it; Move down takes it back.
    const order = () =>
      card(page, "Story")
        .getByRole("listitem")
        .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    // A person grabs a row by its name (its controls are selects and buttons).
    const rowName = (name: string) => card(page, "Story").getByRole("listitem", { name }).getByText(name, { exact: true }).first();
    await rowName("Pages").dragTo(rowName("Summary"));
    expect(await order()).toEqual(["Pages", "Summary", "Title"]);
    await card(page, "Story").getByRole("button", { name: "Move Pages down" }).click();
    await card(page, "Story").getByRole("button", { name: "Move Pages down" }).click();
    expect(await order()).toEqual(["Summary", "Title", "Pages"]);
    await card(page, "Story").getByLabel("Width of Title").selectOption({ label: "Two thirds" });
    await card(page, "Story").getByLabel("Width of Pages").selectOption({ label: "Third" });
    await card(page, "Facts").getByLabel("Display of Writer").selectOption({ label: "Embedded" });
    expect(
      await unplaced(page)
        .getByRole("listitem")
        .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))),
    ).toEqual(["Published on"]);
    await page.getByText("2 of 50 cards, 4 of 500 fields placed. Unsaved changes.").waitFor();

    // The preview is the entry editor's own form with this layout, as it stands.
    const preview = page.getByRole("region", { name: "Preview", exact: true });
    await preview.getByRole("heading", { name: "Story", level: 2 }).waitFor();
    expect(await preview.getByRole("region", { name: "Story" }).locator(".label-row").allTextContents()).toEqual(["Summary", "Title", "Pages"]);
    expect(await preview.getByRole("button", { name: /Facts/ }).getAttribute("aria-expanded")).toBe("false");
    expect(await preview.getByRole("textbox", { name: "Published on" }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "layout-editor-1440");

    await page.getByRole("button", { name: "Save layout" }).click();
    await page.getByText("Layout saved. The entry editor of this model follows it now.").waitFor();
    await page.getByText("2 of 50 cards, 4 of 500 fields placed.", { exact: true }).waitFor();
    const item = (id: string, width: string, extra: Record<string, string> = {}) => ({ t: "field", id, fieldId: id, width, ...extra });
    expect((await v2(env, "GET", `/v2/models/${book.id}`)).layout).toEqual({
      v: 1,
      main: [
        {
          t: "card",
          id: "card-1",
          title: "Story",
          description: "What the book is about",
          collapsible: false,
          collapsed: false,
          items: [item(f.summary!, "full"), item(f.title!, "two_thirds"), item(f.pages!, "third")],
        },
      ],
      aside: [
        {
          t: "card",
          id: "card-2",
          title: "Facts",
          description: null,
          collapsible: true,
          collapsed: true,
          items: [item(f.writer!, "full", { display: "embedded" })],
        },
      ],
    });

    // The entry editor of a new Book: Story in the main column, Facts folded in the aside.
    await page.goto(`${env.origin}/admin/content/book/new`);
    const story = page.getByRole("region", { name: "Story", exact: true });
    await story.getByRole("heading", { name: "Story", level: 2 }).waitFor();
    expect(await story.locator(".label-row").allTextContents()).toEqual(["Summary", "Title", "Pages"]);
    expect(await page.locator(".editor-grid > div:first-child").getByRole("region", { name: "Story", exact: true }).count()).toBe(1);
    const facts = page.locator(".editor-grid > div:nth-child(2)").getByRole("region", { name: /Facts$/ });
    const toggle = facts.getByRole("button", { name: /Facts/ });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await facts.getByRole("group", { name: "Writer" }).waitFor();
    expect(await page.getByRole("textbox", { name: "Published on" }).count()).toBe(0);
    expect(await story.locator(".w-two_thirds").getByRole("textbox", { name: "Title" }).count()).toBe(1);
  }, 120_000);

  test("titles stop at 80 characters and descriptions at 200 as typed; a refusal is shown at its input", async () => {
    const page = await env.page();
    await openEditor(page, book.id, "Book");
    // The card's name follows its title, so the input is found through the Main column.
    const title = page.getByRole("region", { name: "Main", exact: true }).getByRole("textbox", { name: "Title", exact: true });
    await title.fill("");
    await title.pressSequentially("x".repeat(85));
    expect(await title.inputValue()).toBe("x".repeat(80));
    const named = card(page, "x".repeat(80));
    await named.getByText("80 of 80 characters: the limit").waitFor();
    const description = named.getByLabel("Description");
    await description.fill("y".repeat(205));
    expect(await description.inputValue()).toBe("y".repeat(200));
    await named.getByText("200 of 200 characters: the limit").waitFor();

    // A blank title is the server's to refuse: its sentence appears at the Title input.
    await title.fill("   ");
    await page.getByRole("button", { name: "Save layout" }).click();
    const blank = card(page, "Untitled card");
    await blank.getByText("main[0].title must be 1 to 80 characters").waitFor();
    expect(await blank.getByRole("textbox", { name: "Title", exact: true }).getAttribute("aria-invalid")).toBe("true");
    // Focus moves to the refused input in the frame after the refusal renders (it failed once on a loaded machine when read at once).
    await page.waitForFunction(() => document.activeElement?.id === "lc-card-1-title", undefined, { timeout: 5000 });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("lc-card-1-title");
    await expectAccessible(page);
    expect((await v2(env, "GET", `/v2/models/${book.id}`)).layout.main[0].title).toBe("Story");
  }, 60_000);

  test("the 50th card is the last: Add card is disabled with the reason", async () => {
    const wide = await v2(env, "POST", "/v2/models", { name: "Wide", namespace: "wide", fields: [{ namespace: "name", label: "Name", type: "string" }] });
    const cards = Array.from({ length: 49 }, (_, i) => ({ t: "card", id: `c${i}`, title: `Part ${i + 1}`, collapsible: false, collapsed: false, items: [] }));
    await v2(env, "PUT", `/v2/models/${wide.id}/layout`, { layout: { v: 1, main: cards, aside: [] } });
    const page = await env.page();
    await openEditor(page, wide.id, "Wide");
    await page.getByText("49 of 50 cards, 0 of 500 fields placed.").waitFor();
    await page.getByRole("button", { name: "Add card to aside" }).click();
    await page.getByText("50 of 50 cards, 0 of 500 fields placed. Unsaved changes.").waitFor();
    for (const name of ["Add card to main", "Add card to aside"]) {
      const add = page.getByRole("button", { name });
      expect(await add.isDisabled()).toBe(true);
      expect(await add.getAttribute("aria-describedby")).toBe("layout-card-limit");
    }
    await page.getByText("This layout has 50 cards, the most a layout holds: remove one to add another.").waitFor();
    await page.getByRole("button", { name: "Save layout" }).click();
    await page.getByText("Layout saved.", { exact: false }).waitFor();
    const saved = (await v2(env, "GET", `/v2/models/${wide.id}`)).layout;
    expect(saved.main).toHaveLength(49);
    expect(saved.aside).toEqual([{ t: "card", id: "card-50", title: "Card 50", description: null, collapsible: false, collapsed: false, items: [] }]);
    // Removing one enables Add card again.
    await card(page, "Card 50").getByRole("button", { name: "Remove card Card 50" }).click();
    expect(await page.getByRole("button", { name: "Add card to main" }).isDisabled()).toBe(false);
  }, 60_000);

  test("Reset to default asks first, then the editor shows every field in one column", async () => {
    const page = await env.page();
    await openEditor(page, book.id, "Book");
    await page.getByRole("button", { name: "Reset to default" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset the layout?" });
    await dialog.getByText("The saved layout of Book is deleted", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await v2(env, "GET", `/v2/models/${book.id}`)).layout).not.toBeNull();
    await page.getByRole("button", { name: "Reset to default" }).click();
    await dialog.getByRole("button", { name: "Reset to default" }).click();
    await page.getByText("Layout reset: the entry editor shows every field in one column.").waitFor();
    expect((await v2(env, "GET", `/v2/models/${book.id}`)).layout).toBeNull();
    await page.getByText("0 of 50 cards, 0 of 500 fields placed.").waitFor();
    expect(await unplaced(page).getByRole("listitem").count()).toBe(5);
    const preview = page.getByRole("region", { name: "Preview", exact: true });
    expect(await preview.getByRole("region", { name: "Fields" }).locator(".label-row").allTextContents()).toEqual([
      "Title",
      "Summary",
      "Writer",
      "Pages",
      "Published on",
    ]);
  }, 60_000);

  test("an editor sees the layout's preview and no controls; the model page offers View layout", async () => {
    await addMember(env, "layout-editor@capa.local", "editor", "editor-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "layout-editor@capa.local", "editor-password-1", `/admin/models/${book.id}`);
    await page.getByRole("link", { name: "View layout" }).click();
    await page.getByText("Your role (editor) can see this layout; owners, admins and developers change it.").waitFor();
    await page.getByRole("region", { name: "Preview", exact: true }).waitFor();
    for (const name of ["Save layout", "Reset to default", "Add card to main", "Add card to aside"])
      expect(await page.getByRole("button", { name }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Edit layout" }).count()).toBe(0);
    await expectAccessible(page);
  }, 60_000);

  test("the editor with its preview at 360 px in dark mode", async () => {
    const page = await env.page({ width: 360, height: 800, colorScheme: "dark" });
    await openEditor(page, book.id, "Book");
    await page.getByRole("button", { name: "Start with every field in one card" }).click();
    await page.getByRole("button", { name: "Add card to aside" }).click();
    await page.getByLabel("Move Writer to").selectOption({ label: "Aside: Card 2" });
    await page.getByRole("region", { name: "Preview", exact: true }).getByRole("heading", { name: "Card 2" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "layout-editor-360-dark");
  }, 60_000);
});
