// Locales in the entry editor and the entry list, in a real browser (issue 28 item 8), on the
// demo project (English, and German falling back to English): the switcher keeps the locale in
// the URL, the column beside shows another locale read-only with "Fill from" per field, "Fill
// empty fields" per entry, each locale's status in the bar and as badges in the list, Publish in
// and Schedule with chosen locales, at 1280x800 and 390x844, with axe on the editor.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { measureTyping } from "../../scripts/bench/typing.ts";
import type { ListedEntry as Listed } from "../../src/shared/entries.ts";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** The post the first test translates further (the last test lists it). */
let changedId = "";

/** The demo's posts in English: one translated into German and published in both, one not translated. */
async function posts(): Promise<{ translated: Listed; plain: Listed }> {
  const all = (await v2(env, "GET", "/v2/model-instances?model=post&limit=100")).data as Listed[];
  const translated = all.find((e) => (changedId ? e.id === changedId : e.locales?.de?.status === "published" && e.locales?.en?.status === "published"))!;
  changedId = translated.id;
  const plain = all.find((e) => !e.locales?.de && e.locales?.en?.status === "draft")!;
  return { translated, plain };
}

async function inLocale(id: string, code: string) {
  return v2(env, "GET", `/v2/model-instances/${id}?locale=${code}`);
}

async function openEntry(page: Page, id: string, search = "") {
  await signIn(page, env.origin, `/admin/content/post/${id}${search}`);
  await page.getByRole("navigation", { name: "Locales" }).waitFor();
}

describe("locales in the entry editor", () => {
  test("the switcher keeps the locale in the URL; the column beside shows English; Fill from copies one field", async () => {
    const { translated } = await posts();
    const en = translated.draft.data.title as string;
    const de = (await inLocale(translated.id, "de")).draft.data.title as string;
    expect(de.startsWith("Ein erster Blick auf")).toBe(true);
    const page = await env.page();
    await openEntry(page, translated.id);
    const nav = page.getByRole("navigation", { name: "Locales" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["English (en) Published", "Deutsch (de) Published"]);
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(en);

    await nav.getByRole("link", { name: "Deutsch (de) Published" }).click();
    await page.waitForURL(/locale=de/);
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(de);
    expect(await nav.getByRole("link", { name: "Deutsch (de) Published" }).getAttribute("aria-current")).toBe("page");
    // A reload keeps the locale.
    await page.reload();
    await page.getByLabel("Title", { exact: true }).waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(de);

    await page.getByLabel("Show beside").selectOption({ label: "English (en)" });
    await page.waitForURL(/compare=en/);
    const beside = page.getByRole("region", { name: "Title in English (en)" });
    await expect(beside.getByText(en, { exact: true }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, "locales-editor-side-by-side");

    await page.getByRole("button", { name: "Fill Title from en" }).click();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(en);
    await page.getByLabel("Title", { exact: true }).fill(`${de} (neu)`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.", { exact: true }).waitFor();
    expect((await inLocale(translated.id, "de")).draft.data.title).toBe(`${de} (neu)`);
    // English is untouched, and German is changed now.
    expect((await inLocale(translated.id, "en")).draft.data.title).toBe(en);
    await nav.getByRole("link", { name: "Deutsch (de) Changed" }).waitFor();
  }, 90_000);

  test("Fill empty fields copies English into every empty localized field of an untranslated post, then Publish in de only", async () => {
    const { plain } = await posts();
    const page = await env.page();
    await openEntry(page, plain.id, "?locale=de");
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("");
    await page.getByRole("button", { name: "Fill empty fields from English (en)" }).click();
    await page.getByText("Filled 3 empty fields from English (en). Save to keep them.", { exact: true }).waitFor();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(plain.draft.data.title as string);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.", { exact: true }).waitFor();
    const saved = (await inLocale(plain.id, "de")).draft.data;
    expect([saved.title, saved.excerpt, saved.body]).toEqual([plain.draft.data.title, plain.draft.data.excerpt, plain.draft.data.body]);

    await page.getByRole("button", { name: "Publish in…" }).click();
    const dialog = page.getByRole("dialog", { name: "Publish in which locales?" });
    // The server's default: every locale holding a value.
    expect(await dialog.getByLabel("English (en)").isChecked()).toBe(true);
    expect(await dialog.getByLabel("Deutsch (de)").isChecked()).toBe(true);
    await expectAccessible(page);
    await dialog.getByLabel("English (en)").uncheck();
    await dialog.getByRole("button", { name: "Publish de" }).click();
    await page.getByText("Published in de.", { exact: true }).waitFor();
    const after = await inLocale(plain.id, "de");
    expect(after.locales.de.status).toBe("published");
    expect(after.locales.en.status).toBe("draft");
    const nav = page.getByRole("navigation", { name: "Locales" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["English (en) Draft", "Deutsch (de) Published"]);

    // Scheduling names the locales chosen.
    await page.getByLabel("Action").selectOption({ label: "Publish" });
    const locales = page.getByRole("group", { name: "Locales" });
    await locales.getByLabel("Deutsch (de)").uncheck();
    await page.getByLabel("Time", { exact: true }).fill("2031-03-01T09:00");
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await page.getByText(/^Scheduled: runs at/).waitFor();
    const actions = (await v2(env, "GET", `/v2/model-instances/${plain.id}/scheduled`)).data;
    expect(actions.map((a: { locales?: string[] }) => a.locales)).toEqual([["en"]]);
    await page.getByText(/^Publish en on /).waitFor();
  }, 90_000);

  test("the list shows one badge per locale; at 390 x 844 the editor stacks the column beside", async () => {
    const { translated } = await posts();
    const page = await env.page({ width: 390, height: 844 });
    await signIn(page, env.origin, "/admin/content/post");
    await page.getByRole("columnheader", { name: "Locales" }).waitFor();
    const title = translated.draft.data.title as string;
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: title, exact: true }) });
    // The first test left German changed; English is as published.
    expect(await row.getByText(/^(en|de) /).allTextContents()).toEqual(["en published", "de changed"]);
    expect((await inLocale(translated.id, "de")).locales).toMatchObject({ en: { status: "published" }, de: { status: "changed" } });

    await page.goto(`${env.origin}/admin/content/post/${translated.id}?locale=de&compare=en`);
    await page.getByRole("region", { name: "Title in English (en)" }).waitFor();
    const field = await page.getByLabel("Title", { exact: true }).boundingBox();
    const beside = await page.getByRole("region", { name: "Title in English (en)" }).boundingBox();
    // Stacked: the English value is under the German field, not beside it.
    expect(beside!.y).toBeGreaterThan(field!.y + field!.height - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, "locales-editor-phone");
  }, 90_000);

  test("a keystroke in German with English beside costs what a keystroke costs (the column is not rendered again)", async () => {
    const { translated } = await posts();
    const page = await env.page();
    await openEntry(page, translated.id, "?locale=de&compare=en");
    await page.getByRole("region", { name: "Body in English (en)" }).waitFor();
    await page.getByLabel("Slug", { exact: true }).click();
    await page.keyboard.type("warm", { delay: 20 });
    const work = (await measureTyping(page, "Excerpt")).work;
    const p = (q: number) => [...work].sort((a, b) => a - b)[Math.min(work.length - 1, Math.floor(q * work.length))]!;
    console.log(`keystroke main-thread work beside a locale, ms: ${JSON.stringify({ p50: p(0.5), p95: p(0.95), keys: work.length })}`);
    expect(work.length).toBeGreaterThan(40);
    // The median, which load on a shared machine moves little; typing.browser.test.ts holds the p95.
    expect(p(0.5)).toBeLessThan(16);
    await page.getByText("Unsaved changes").waitFor();
  }, 90_000);
});
