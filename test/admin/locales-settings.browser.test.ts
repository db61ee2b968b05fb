// The Locales screen under Settings and `Localized` in the field form, in a real browser (issue
// 28 item 8): adding a locale, reordering a fallback chain, removing a locale that holds values
// (the 409's counts, then a confirm that sends force=true), the default that cannot be removed
// and another locale made the default;
// turning Localized on and off showing the plan's values kept and dropped; and a project with
// one locale showing none of it. At 1280x800 and 390x844, with axe on the Locales screen.
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

const card = (page: Page, heading: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: heading, level: 2 }) });

async function openLocales(page: Page) {
  await signIn(page, env.origin, "/admin/settings");
  await page.getByRole("link", { name: "Locales", exact: true }).click();
  await page.getByRole("heading", { name: "Locales", level: 1 }).waitFor();
}

describe("the Locales screen", () => {
  test("add a locale, reorder its fallbacks; the default has no Remove", async () => {
    const page = await env.page();
    await openLocales(page);
    expect(await page.getByRole("list", { name: "Locales of the project" }).getByRole("heading", { level: 2 }).allTextContents()).toEqual([
      "English (en) Default",
      "Deutsch (de)",
    ]);
    await card(page, "English (en) Default").getByText("The default locale falls back to nothing and cannot be removed.").waitFor();
    expect(await page.getByRole("button", { name: "Remove English (en)" }).count()).toBe(0);
    await expectAccessible(page);

    await page.getByLabel("Code").fill("de-CH");
    await page.getByLabel("Name", { exact: true }).fill("Swiss German");
    await page.getByLabel("First fallback").selectOption({ label: "Deutsch (de)" });
    await page.getByRole("button", { name: "Add locale" }).click();
    await page.getByText("Added Swiss German (de-CH).", { exact: true }).waitFor();
    const swiss = card(page, "Swiss German (de-CH)");
    await swiss.getByLabel("Add a fallback to de-CH").selectOption({ label: "English (en)" });
    await swiss.getByRole("button", { name: "Add fallback" }).click();
    await page.getByText("Swiss German now falls back to de, en.", { exact: true }).waitFor();
    await swiss.getByRole("button", { name: "Move en up in de-CH's fallbacks" }).click();
    await page.getByText("Swiss German now falls back to en, de.", { exact: true }).waitFor();
    expect(await swiss.getByRole("list").getByRole("listitem").allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^English \(en\)/)]));
    const saved = await v2(env, "GET", "/v2/locales");
    expect(saved.locales.find((l: { code: string }) => l.code === "de-CH")).toEqual({ code: "de-CH", name: "Swiss German", fallback: ["en", "de"] });

    // A malformed code is refused at the field, nothing saved.
    await page.getByLabel("Code").fill("de_CH");
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByRole("button", { name: "Add locale" }).click();
    const bad = await fetch(`${env.origin}/v2/locales`, {
      method: "PUT",
      headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId, "content-type": "application/json" },
      body: JSON.stringify({ default: "en", locales: [...saved.locales, { code: "de_CH", fallback: ["en"] }] }),
    });
    const refusal = (await bad.json()) as { error: string; path: string };
    expect([bad.status, refusal.path]).toEqual([400, "locales[3].code"]);
    await page.getByText(refusal.error, { exact: true }).waitFor();
    expect(await page.getByLabel("Code").getAttribute("aria-invalid")).toBe("true");
    expect((await v2(env, "GET", "/v2/locales")).locales.map((l: { code: string }) => l.code)).toEqual(["en", "de", "de-CH"]);
    await expectAccessible(page);
    await screenshot(page, "locales-screen");
  }, 90_000);

  test("another locale made the default: its chain is emptied, the old default can be removed, and back again", async () => {
    const page = await env.page();
    await openLocales(page);
    const before = await v2(env, "GET", "/v2/locales");
    expect(await page.getByRole("button", { name: "Make English (en) the default" }).count()).toBe(0);
    await page.getByRole("button", { name: "Make Deutsch (de) the default" }).click();
    await page.getByText("Deutsch (de) is now the default locale.", { exact: true }).waitFor();
    const list = page.getByRole("list", { name: "Locales of the project" });
    expect((await list.getByRole("heading", { level: 2 }).allTextContents()).slice(0, 2)).toEqual(["English (en)", "Deutsch (de) Default"]);
    await card(page, "Deutsch (de) Default").getByText("The default locale falls back to nothing and cannot be removed.").waitFor();
    await page.getByRole("button", { name: "Remove English (en)" }).waitFor();
    const saved = await v2(env, "GET", "/v2/locales");
    expect(saved.default).toBe("de");
    expect(saved.locales.find((l: { code: string }) => l.code === "de").fallback).toEqual([]);
    // Every other locale keeps its chain.
    expect(saved.locales.filter((l: { code: string }) => l.code !== "de")).toEqual(before.locales.filter((l: { code: string }) => l.code !== "de"));

    await page.getByRole("button", { name: "Make English (en) the default" }).click();
    await page.getByText("English (en) is now the default locale.", { exact: true }).waitFor();
    expect((await v2(env, "GET", "/v2/locales")).default).toBe("en");
    expect(await page.getByRole("button", { name: "Remove English (en)" }).count()).toBe(0);
  }, 60_000);

  test("Localized in the field form: turning it off shows the plan's values kept and dropped before anything changes", async () => {
    const post = (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "post");
    const excerpt = post.fields.find((f: { namespace: string }) => f.namespace === "excerpt");
    const { namespace, label, type, required } = excerpt;
    const plan = await v2(env, "POST", `/v2/models/${post.id}/field-changes/plan`, {
      editFields: [{ id: excerpt.id, namespace, label, type, required, localized: false }],
    });
    const c = plan.ops.find((o: { kind: string }) => o.kind === "localize").counts;
    expect(c.dropped).toBeGreaterThan(0);

    const page = await env.page();
    await signIn(page, env.origin, `/admin/models/${post.id}`);
    await page.getByRole("button", { name: "Edit excerpt" }).click();
    const edit = page.getByRole("dialog", { name: "Edit excerpt" });
    expect(await edit.getByLabel("Localized").isChecked()).toBe(true);
    await edit.getByLabel("Localized").uncheck();
    await edit.getByRole("button", { name: "Save field" }).click();
    const shown = page.getByRole("dialog", { name: "Change excerpt: the plan" });
    await shown.getByRole("heading", { name: "excerpt: shared by every locale" }).waitFor();
    expect(await shown.getByRole("list", { name: "Values of excerpt" }).getByRole("listitem").allTextContents()).toEqual([
      `${c.values} values`,
      `${c.kept} kept`,
      `${c.dropped} dropped`,
    ]);
    await expectAccessible(page);
    await shown.getByRole("button", { name: "Cancel" }).click();
    // Nothing changed.
    expect((await v2(env, "GET", `/v2/models/${post.id}`)).fields.find((f: { id: string }) => f.id === excerpt.id).localized).toBe(true);

    // On, for a shared field of a model with entries: every value is kept (it becomes English's).
    const author = (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "author");
    await page.goto(`${env.origin}/admin/models/${author.id}`);
    await page.getByRole("button", { name: "Edit email" }).click();
    const edit2 = page.getByRole("dialog", { name: "Edit email" });
    await edit2.getByLabel("Localized").check();
    await edit2.getByRole("button", { name: "Save field" }).click();
    const shown2 = page.getByRole("dialog", { name: "Change email: the plan" });
    await shown2.getByRole("heading", { name: "email: localized (one value per locale)" }).waitFor();
    const items = await shown2.getByRole("list", { name: "Values of email" }).getByRole("listitem").allTextContents();
    expect(items[2]).toBe("0 dropped");
    expect(items[0]!.replace(" values", "")).toBe(items[1]!.replace(" kept", ""));
  }, 90_000);

  test("removing a locale with values shows the 409's counts and sends force=true on confirm (390 x 844)", async () => {
    // Swiss German holds nothing: removed at once.
    const page = await env.page({ width: 390, height: 844 });
    await openLocales(page);
    await page.getByRole("button", { name: "Remove Swiss German (de-CH)" }).click();
    await page.getByText("Removed Swiss German (de-CH).", { exact: true }).waitFor();

    const put = { default: "en", locales: [{ code: "en", name: "English", fallback: [] }] };
    const refused = await fetch(`${env.origin}/v2/locales`, {
      method: "PUT",
      headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId, "content-type": "application/json" },
      body: JSON.stringify(put),
    });
    const counts = ((await refused.json()) as { locales: { code: string; entries: number; values: number }[] }).locales[0]!;
    expect(refused.status).toBe(409);

    await page.getByRole("button", { name: "Remove Deutsch (de)" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove Deutsch (de)?" });
    await dialog
      .getByText(
        `${counts.entries} entries hold ${counts.values} values in de. Removing the locale drops them from every draft, published copy and version; an entry published only in de goes offline.`,
      )
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, "locales-remove-phone");
    await dialog.getByRole("button", { name: "Remove and drop the values" }).click();
    await page.getByText("Removed de and its values.", { exact: true }).waitFor();
    expect((await v2(env, "GET", "/v2/locales")).locales.map((l: { code: string }) => l.code)).toEqual(["en"]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 90_000);

  test("with one locale left, the editor, the list and the field form show nothing of locales", async () => {
    const post = (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "post");
    const first = (await v2(env, "GET", "/v2/model-instances?model=post&limit=1")).data[0];
    const page = await env.page();
    await signIn(page, env.origin, `/admin/content/post/${first.id}`);
    await page.getByLabel("Title", { exact: true }).waitFor();
    expect(await page.getByRole("navigation", { name: "Locales" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Publish in…" }).count()).toBe(0);
    expect(await page.getByRole("group", { name: "Locales" }).count()).toBe(0);
    await page.goto(`${env.origin}/admin/content/post`);
    await page.getByRole("table").waitFor();
    expect(await page.getByRole("columnheader", { name: "Locales" }).count()).toBe(0);
    await page.goto(`${env.origin}/admin/models/${post.id}`);
    await page.getByRole("button", { name: "Edit title" }).click();
    await page.getByRole("dialog", { name: "Edit title" }).getByLabel("Required").waitFor();
    expect(await page.getByRole("dialog", { name: "Edit title" }).getByLabel("Localized").count()).toBe(0);
  }, 90_000);
});
