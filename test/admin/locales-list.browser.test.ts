// The entry list in a locale, in a real browser (issue 28 item 8), on the demo project (English,
// and German falling back to English): the Locale choice is kept in the URL as ?locale=de and sent
// on the list's request, so titles, status and search are German; a title opens the editor in
// German; bulk Publish, Unpublish and Schedule choose the locales and send them (with the list's
// ?locale=, also for "all N that match"); the export is German. A model without localized fields shows no Locale choice. At
// 1280x800 and 390x844, with axe on the list in German and on the bulk dialogs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page, Request } from "playwright-core";
import type { ListedEntry as Listed } from "../../src/shared/entries.ts";
import { expectAccessible, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

async function listed(query: string): Promise<Listed[]> {
  return (await v2(env, "GET", `/v2/model-instances?model=post&limit=100&${query}`)).data as Listed[];
}

/** The bulk requests the page sends, as "METHOD path?query body". */
function recordBulk(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (r: Request) => {
    const u = new URL(r.url());
    if (/\/v2\/model-instances\/(bulk-|export)/.test(u.pathname)) sent.push(`${r.method()} ${u.pathname}${u.search} ${r.postData() ?? ""}`);
  });
  return sent;
}

const titles = (page: Page) => page.getByRole("table").getByRole("cell").getByRole("link").allTextContents();

/** Waits until the list's titles are `want` (the list follows the URL a request later), then asserts them. */
async function titlesBecome(page: Page, want: unknown[]): Promise<void> {
  const goal = JSON.stringify(want);
  for (let i = 0; i < 100 && JSON.stringify(await titles(page)) !== goal; i++) await page.waitForTimeout(100);
  expect(await titles(page)).toEqual(want as string[]);
}

describe("the entry list in a locale", () => {
  test("Locale keeps de in the URL; titles, status and search are German; a title opens the editor in German", async () => {
    const de = await listed("locale=de");
    const translated = de.find((e) => e.locales?.de?.status === "published" && e.locales?.en?.status === "published")!;
    const deTitle = translated.draft.data.title as string;
    expect(deTitle.startsWith("Ein erster Blick auf")).toBe(true);
    const page = await env.page();
    await signIn(page, env.origin, "/admin/content/post");
    const locale = page.getByLabel("Locale", { exact: true });
    expect(await locale.inputValue()).toBe("en");
    expect(await locale.locator("option").allTextContents()).toEqual(["English (en)", "Deutsch (de)"]);
    expect(page.url()).not.toContain("locale=");

    await locale.selectOption({ label: "Deutsch (de)" });
    await page.waitForURL(/[?&]locale=de/);
    await page.getByRole("link", { name: deTitle, exact: true }).waitFor();
    // Status is German's: only the posts published in German.
    await page.getByLabel("Status").selectOption({ label: "Published" });
    await page.waitForURL(/status=published/);
    const published = (await listed("locale=de&status=published")).map((e) => e.draft.data.title);
    expect(published.length).toBeGreaterThan(0);
    expect(published.length).toBeLessThan((await listed("status=published")).length);
    await titlesBecome(page, published);
    await expectAccessible(page);
    // A reload keeps the locale and the status.
    await page.reload();
    await titlesBecome(page, published);
    expect(await page.getByLabel("Locale", { exact: true }).inputValue()).toBe("de");

    // Search finds the German title, which English does not hold.
    await page.getByLabel("Status").selectOption({ label: "Any status" });
    await page.getByLabel("Search").fill(deTitle);
    await titlesBecome(page, [deTitle]);

    await page.getByRole("link", { name: deTitle, exact: true }).click();
    await page.waitForURL(new RegExp(`/content/post/${translated.id}\\?locale=de$`));
    const nav = page.getByRole("navigation", { name: "Locales" });
    expect(await nav.getByRole("link", { name: "Deutsch (de) Published" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(deTitle);

    // Back to English: the parameter goes, and so does German's search.
    await page.goBack();
    await page.getByLabel("Locale", { exact: true }).selectOption({ label: "English (en)" });
    await page.waitForURL((u) => !u.searchParams.has("locale"));
    expect(await page.getByLabel("Search").inputValue()).toBe(deTitle);
    await page.getByText("No entries match.").waitFor();

    // A model without localized fields shows no Locale choice.
    await page.goto(`${env.origin}/admin/content/author`);
    await page.getByRole("heading", { name: "Author", level: 1 }).waitFor();
    await page.getByRole("table").waitFor();
    expect(await page.getByLabel("Locale", { exact: true }).count()).toBe(0);
  }, 90_000);

  test("bulk Unpublish and Publish choose the locales; the list's ?locale= rides on them; the export is German", async () => {
    const de = await listed("locale=de");
    const translated = de.find((e) => e.locales?.de?.status === "published" && e.locales?.en?.status === "published")!;
    const deTitle = translated.draft.data.title as string;
    const page = await env.page();
    const sent = recordBulk(page);
    await signIn(page, env.origin, "/admin/content/post?locale=de");
    await page.getByRole("link", { name: deTitle, exact: true }).waitFor();
    await page.getByRole("checkbox", { name: `Select ${deTitle}` }).check();
    const bar = page.getByRole("region", { name: "Selection" });

    await bar.getByRole("button", { name: "Unpublish" }).click();
    const unpublish = page.getByRole("dialog", { name: "Unpublish 1 entry?" });
    const group = unpublish.getByRole("group", { name: "Locales to unpublish" });
    // The server's default: every published locale.
    expect(await group.getByLabel("English (en)").isChecked()).toBe(true);
    expect(await group.getByLabel("Deutsch (de)").isChecked()).toBe(true);
    await expectAccessible(page);
    await group.getByLabel("English (en)").uncheck();
    await unpublish.getByRole("button", { name: "Unpublish 1 entry" }).click();
    await page.getByText("Unpublished 1 entry. Locales: de.", { exact: true }).waitFor();
    const after = await v2(env, "GET", `/v2/model-instances/${translated.id}?locale=de`);
    expect([after.locales.en.status, after.locales.de.status]).toEqual(["published", "draft"]);
    expect(sent.filter((s) => s.includes("bulk-unpublish"))).toEqual([
      `POST /v2/model-instances/bulk-unpublish?locale=de {"instanceIds":["${translated.id}"],"dryRun":true}`,
      `POST /v2/model-instances/bulk-unpublish?locale=de {"instanceIds":["${translated.id}"],"expectedCount":1,"locales":["de"]}`,
    ]);

    // Publish, untouched: the boxes show the server's default and no `locales` is sent.
    await page.getByRole("checkbox", { name: `Select ${deTitle}` }).check();
    await bar.getByRole("button", { name: "Publish", exact: true }).click();
    const publish = page.getByRole("dialog", { name: "Publish 1 entry?" });
    const pGroup = publish.getByRole("group", { name: "Locales to publish" });
    expect(await pGroup.getByLabel("English (en)").isChecked()).toBe(true);
    expect(await pGroup.getByLabel("Deutsch (de)").isChecked()).toBe(true);
    await publish.getByRole("button", { name: "Publish 1 entry" }).click();
    await page.getByText("Published 1 entry.", { exact: true }).waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${translated.id}?locale=de`)).locales.de.status).toBe("published");
    expect(sent.filter((s) => s.includes("bulk-publish")).at(-1)).toBe(
      `POST /v2/model-instances/bulk-publish?locale=de {"instanceIds":["${translated.id}"],"expectedCount":1}`,
    );

    // The export holds the German title.
    await page.getByRole("checkbox", { name: `Select ${deTitle}` }).check();
    const [download] = await Promise.all([page.waitForEvent("download"), bar.getByRole("button", { name: "Export JSON" }).click()]);
    const json = JSON.parse(readFileSync((await download.path())!, "utf8")) as Record<string, unknown>[];
    expect(json.map((r) => r.title)).toEqual([deTitle]);
    expect(sent.some((s) => s.startsWith("POST /v2/model-instances/export?locale=de "))).toBe(true);

    // "Select all N that match" counts what the German list counts: the posts still draft in German.
    const drafts = (await v2(env, "GET", "/v2/model-instances?model=post&locale=de&status=draft&limit=1")).total as number;
    const enDrafts = (await v2(env, "GET", "/v2/model-instances?model=post&status=draft&limit=1")).total as number;
    expect(drafts).toBeGreaterThan(10);
    expect(drafts).not.toBe(enDrafts);
    await page.goto(`${env.origin}/admin/content/post?locale=de&status=draft&limit=10`);
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("button", { name: `Select all ${drafts} entries that match` }).click();
    await bar.getByRole("button", { name: "Publish", exact: true }).click();
    const all = page.getByRole("dialog", { name: `Publish ${drafts} entries?` });
    await all.getByRole("button", { name: "Cancel" }).click();
    expect(sent.at(-1)).toBe(`POST /v2/model-instances/bulk-publish?locale=de {"modelId":"post","status":"draft","dryRun":true}`);
  }, 90_000);

  test("at 390 x 844: the Locale choice, and Schedule naming de for an untranslated post", async () => {
    const en = await listed("");
    const plain = en.find((e) => !e.locales?.de && e.locales?.en?.status === "draft")!;
    const title = plain.draft.data.title as string;
    const page = await env.page({ width: 390, height: 844 });
    const sent = recordBulk(page);
    await signIn(page, env.origin, "/admin/content/post");
    const locale = page.getByLabel("Locale", { exact: true });
    await locale.waitFor();
    expect(await locale.isVisible()).toBe(true);
    await page.getByRole("checkbox", { name: `Select ${title}` }).check();
    await page.getByRole("region", { name: "Selection" }).getByRole("button", { name: "Schedule" }).click();
    const dialog = page.getByRole("dialog", { name: "Schedule 1 entry" });
    const group = dialog.getByRole("group", { name: "Locales" });
    // The post holds English only: a publish moves English by default.
    expect(await group.getByLabel("English (en)").isChecked()).toBe(true);
    expect(await group.getByLabel("Deutsch (de)").isChecked()).toBe(false);
    await expectAccessible(page);
    await group.getByLabel("Deutsch (de)").check();
    await group.getByLabel("English (en)").uncheck();
    await dialog.getByLabel("Time", { exact: true }).fill("2031-03-01T09:00");
    await dialog.getByLabel("Time zone").fill("Europe/Berlin");
    await dialog.getByRole("button", { name: "Schedule 1 entry" }).click();
    await page.getByText(/^Publish of 1 entry in de scheduled for /).waitFor();
    const actions = (await v2(env, "GET", `/v2/model-instances/${plain.id}/scheduled`)).data as { locales?: string[] }[];
    expect(actions.map((a) => a.locales)).toEqual([["de"]]);
    // The English list sends no ?locale=.
    expect(sent.filter((s) => s.includes("bulk-schedule")).map((s) => s.split(" ")[1])).toEqual(["/v2/model-instances/bulk-schedule"]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 90_000);
});
