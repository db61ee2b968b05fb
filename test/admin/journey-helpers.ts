// What the owner's journey (owner-journey.browser.test.ts) needs besides test/admin/browser.ts:
// the Add field dialog filled as a person fills it, the layout editor's cards and what a saved
// card holds, a small PNG of one colour, reads made as a website makes them (with an API key),
// and the rail's screen links of an owner and of an editor.
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";

/** Adds a field on a model's page through the Add field dialog and waits for its notice. */
export async function addField(page: Page, f: { label: string; kind: string; related?: string; required?: boolean }): Promise<void> {
  await page.getByRole("button", { name: "Add field" }).click();
  const d = page.getByRole("dialog", { name: "Add field" });
  await d.getByLabel("Label").fill(f.label);
  await d.getByLabel("Type", { exact: true }).selectOption({ label: f.kind });
  if (f.related) await d.getByLabel("Related model").selectOption({ label: f.related });
  if (f.required) await d.getByLabel("Required").check();
  await d.getByRole("button", { name: "Add field" }).click();
  await page.getByText(`Field ${f.label.toLowerCase()} added.`).waitFor();
}

/** A PNG of one colour, `w` x `h`. */
export function flatPng(w: number, h: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A read of `path` with the API key `key`, as a website makes it: the status and the parsed body. */
export async function readWith(origin: string, key: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(origin + path, { headers: { "x-api-key": key } });
  return { status: res.status, body: await res.json() };
}

/** A workspace's document tree without the node ids the server makes. */
export function stripIds(nodes: any[]): any[] {
  return nodes.map(({ id: _id, children, ...n }) => ({ ...n, ...(children ? { children: stripIds(children) } : {}) }));
}

/** The terms of the page's description lists with their definitions, as a person reads them. */
export async function facts(page: Page): Promise<Record<string, string>> {
  const terms = await page.getByRole("term").allTextContents();
  const definitions = await page.getByRole("definition").allTextContents();
  if (terms.length !== definitions.length) throw new Error(`${terms.length} terms, ${definitions.length} definitions`);
  return Object.fromEntries(terms.map((t, i) => [t, definitions[i]!]));
}

/** The rail's screen links of an owner, and of an editor (no API keys, no Webhooks). */
export const OWNER_SCREENS = ["Scheduled", "Trash", "Models", "Workspaces", "Media", "API keys", "Webhooks", "People", "Settings"];
export const EDITOR_SCREENS = OWNER_SCREENS.filter((s) => s !== "API keys" && s !== "Webhooks");

/** A table row by the name in its row header (a field on a model's page, a key on API keys). */
export function rowOf(page: Page, name: string): Locator {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

/** A card of the layout editor, named by its title. */
export function layoutCard(page: Page, title: string): Locator {
  return page.getByRole("region", { name: `Card: ${title}`, exact: true });
}

/** The fields placed in a card of the layout editor, in order. */
export function placed(card: Locator): Promise<(string | null)[]> {
  return card.getByRole("listitem").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
}

/** A card as GET /v2/models/:id answers it: a title, defaults otherwise, full-width fields. */
export function savedCard(id: string, title: string, fieldIds: string[]) {
  const items = fieldIds.map((f) => ({ t: "field", id: f, fieldId: f, width: "full" }));
  return { t: "card", id, title, description: null, collapsible: false, collapsed: false, items };
}
