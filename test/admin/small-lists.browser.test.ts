// The small lists of issue 27 (Lists): API keys, webhooks and people sorted by a header
// (aria-sort, a second click turns the order round), searched as you type with the count ("1 of
// 4 keys"), and both in the URL, so a link opens the same list. These lists are sorted and searched
// in the browser (docs/admin.md). At 1280 x 800 and 390 x 844, axe on each.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember } from "./people-helpers.ts";

let env: BrowserEnv;
const words = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });
const asc = (xs: string[]) => [...xs].sort(words.compare);
const URLS = ["/beta", "/alpha", "/gamma"].map((p) => `https://127.0.0.1:9${p}`);

beforeAll(async () => {
  env = await startBrowserEnv({ webhookAllowPrivate: true });
  for (const [name, environment] of [
    ["Zeta site", "production"],
    ["alpha script", "development"],
    ["Mid preview", "production"],
  ]) {
    await v2(env, "POST", "/v2/tenants/api-keys", { name, environment, scopes: ["instance:read"] });
  }
  for (const url of URLS) await v2(env, "POST", "/v2/webhooks", { url, events: ["instance.published"] });
  await addMember(env, "zed@example.com", "editor", "zed-password-1");
  await addMember(env, "amy@example.com", "viewer", "amy-password-1");
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** The text each row starts its row header with (a key's name, an address), in order. */
const rowNames = (table: Locator) => table.getByRole("rowheader").evaluateAll((els) => els.map((e) => (e.firstChild?.textContent ?? "").trim()));

/** Opens `url` in a fresh page (signed in) at the same size: what a shared link shows. */
async function opened(width: number, height: number, path: string): Promise<Page> {
  const other = await env.page({ width, height });
  await signIn(other, env.origin, path);
  return other;
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  describe(`small lists at ${width} x ${height}`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await env.page({ width, height });
      await signIn(page, env.origin, "/admin/keys");
    }, 60_000);
    afterAll(() => page.close());

    test("API keys: sort by a header, search as you type, the state in the URL", async () => {
      const all: string[] = (await v2(env, "GET", "/v2/tenants/api-keys")).data.map((k: { name: string }) => k.name);
      expect(all.length).toBeGreaterThanOrEqual(3);
      await page.goto(`${env.origin}/admin/keys`);
      const table = page.getByRole("table", { name: /^API keys of / });
      await page.getByText(`${all.length} keys`, { exact: true }).waitFor();
      await table.getByRole("button", { name: "Name" }).click();
      await page.waitForURL((u) => u.searchParams.get("sort") === "name");
      expect(await table.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("ascending");
      expect(await rowNames(table)).toEqual(asc(all));
      await table.getByRole("button", { name: "Name" }).click();
      await page.waitForURL((u) => u.searchParams.get("sort") === "-name");
      expect(await table.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("descending");
      expect(await rowNames(table)).toEqual(asc(all).reverse());

      await page.getByLabel("Search", { exact: true }).pressSequentially("alpha", { delay: 20 });
      await page.getByText(`1 of ${all.length} keys`, { exact: true }).waitFor();
      expect(await rowNames(table)).toEqual(["alpha script"]);
      await page.waitForURL((u) => u.searchParams.get("q") === "alpha");
      await expectAccessible(page);
      if (width === 390) await screenshot(page, "keys-search-390");
      // Every word is looked for, in any order.
      await page.getByLabel("Search", { exact: true }).fill("nothing like it");
      await page.waitForURL((u) => u.searchParams.get("q") === "nothing like it");
      await page.getByText(`0 of ${all.length} keys`, { exact: true }).waitFor();
      await page.getByText("No keys match “nothing like it”.", { exact: true }).waitFor();
      await page.getByLabel("Search", { exact: true }).fill("script alpha");
      await page.waitForURL((u) => u.searchParams.get("q") === "script alpha");
      await page.getByText(`1 of ${all.length} keys`, { exact: true }).waitFor();
      expect(await rowNames(table)).toEqual(["alpha script"]);

      const link = await opened(width, height, "/admin/keys?sort=-name&q=ta");
      const linked = link.getByRole("table", { name: /^API keys of / });
      await link.getByText(`1 of ${all.length} keys`, { exact: true }).waitFor();
      expect(await link.getByLabel("Search", { exact: true }).inputValue()).toBe("ta");
      expect(await linked.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("descending");
      expect(await rowNames(linked)).toEqual(["Zeta site"]);
      await link.close();
    }, 60_000);

    test("webhooks: sort by URL either way, search by address, the state in the URL", async () => {
      await page.goto(`${env.origin}/admin/webhooks`);
      const table = page.getByRole("table", { name: /^Webhooks of / });
      await page.getByText("3 webhooks", { exact: true }).waitFor();
      expect(await rowNames(table)).toHaveLength(3);
      await table.getByRole("button", { name: "URL" }).click();
      await page.waitForURL((u) => u.searchParams.get("sort") === "url");
      expect(await rowNames(table)).toEqual(asc(URLS));
      await table.getByRole("button", { name: "URL" }).click();
      await page.waitForURL((u) => u.searchParams.get("sort") === "-url");
      expect(await table.getByRole("columnheader", { name: "URL" }).getAttribute("aria-sort")).toBe("descending");
      expect(await rowNames(table)).toEqual(asc(URLS).reverse());
      await page.getByLabel("Search", { exact: true }).pressSequentially("gam", { delay: 20 });
      await page.getByText("1 of 3 webhooks", { exact: true }).waitFor();
      expect(await rowNames(table)).toEqual([URLS[2]]);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ sort: "-url", q: "gam" });
      await expectAccessible(page);
      if (width === 390) await screenshot(page, "webhooks-search-390");
      const link = await opened(width, height, "/admin/webhooks?sort=url&q=a");
      await link.getByText("3 webhooks", { exact: true }).waitFor();
      expect(await rowNames(link.getByRole("table", { name: /^Webhooks of / }))).toEqual(asc(URLS));
      await link.close();
    }, 60_000);

    test("people: sort by role from owner down and by address, search by address, the state in the URL", async () => {
      await page.goto(`${env.origin}/admin/people`);
      const table = page.getByRole("table", { name: /^Members of / });
      const members: { email: string; role: string }[] = await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`).then((r) => r.data ?? r);
      await page.getByText(`${members.length} members`, { exact: true }).waitFor();
      await table.getByRole("button", { name: "Role" }).click();
      await page.waitForURL((u) => u.searchParams.get("sort") === "role");
      const rank = ["owner", "admin", "developer", "editor", "viewer"];
      const byRole = [...members].sort((a, b) => rank.indexOf(a.role) - rank.indexOf(b.role)).map((m) => m.email);
      expect(await rowNames(table)).toEqual(byRole);
      await table.getByRole("button", { name: "Member" }).click();
      await page.waitForURL((u) => u.searchParams.get("sort") === "member");
      expect(await table.getByRole("columnheader", { name: "Member" }).getAttribute("aria-sort")).toBe("ascending");
      expect(await table.getByRole("columnheader", { name: "Role" }).getAttribute("aria-sort")).toBeNull();
      expect(await rowNames(table)).toEqual(asc(members.map((m) => m.email)));
      await page.getByLabel("Search", { exact: true }).pressSequentially("amy", { delay: 20 });
      await page.getByText(`1 of ${members.length} members`, { exact: true }).waitFor();
      expect(await rowNames(table)).toEqual(["amy@example.com"]);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ sort: "member", q: "amy" });
      // The role in words is searched too.
      await page.getByLabel("Search", { exact: true }).fill("editor");
      await page.waitForURL((u) => u.searchParams.get("q") === "editor");
      await page.getByText(`1 of ${members.length} members`, { exact: true }).waitFor();
      expect(await rowNames(table)).toEqual(["zed@example.com"]);
      await expectAccessible(page);
      if (width === 390) await screenshot(page, "people-search-390");
      const link = await opened(width, height, "/admin/people?sort=-member");
      await link.getByText(`${members.length} members`, { exact: true }).waitFor();
      expect(await rowNames(link.getByRole("table", { name: /^Members of / }))).toEqual(asc(members.map((m) => m.email)).reverse());
      await link.close();
    }, 60_000);
  });
}
