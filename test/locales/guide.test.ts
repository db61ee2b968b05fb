// What docs/localization.md says and the other localization tests do not show: chains followed
// breadth first without the default appended, codes compared without regard to case, too many
// fallbacks refused, `$locales` only when selected (and [] for a model without localized fields),
// locale=* filtering and sorting by the default's value, a site routing /de/<slug> to locale=de
// (a localized slug found after fallback, $locales for the languages an entry has), and the
// read API's OpenAPI document following a change of the locales at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiError, l10n, type L10n } from "./fixture.ts";

let p: L10n;
const id: Record<string, string> = {};
const enc = encodeURIComponent;
const LOCALES = {
  default: "en",
  locales: [
    { code: "en", name: "English", fallback: [] },
    { code: "de", name: "German", fallback: ["en"] },
    { code: "fr", name: "French", fallback: [] },
    { code: "de-CH", name: "Swiss German", fallback: ["de", "fr"] },
  ],
};

beforeAll(async () => {
  p = await l10n({}, LOCALES);
  await p.ok("POST", "/v2/models", {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string", localized: true },
      { namespace: "slug", type: "string", localized: true },
    ],
  });
  await p.ok("POST", "/v2/models", { name: "Tag", namespace: "tag", fields: [{ namespace: "name", type: "string" }] });
  const make = async (name: string, data: Record<string, unknown>) => {
    const e = await p.ok("POST", "/v2/model-instances?locale=*", { model: "post", data });
    await p.ok("POST", `/v2/model-instances/${e.id}/publish`, {});
    id[name] = e.id;
  };
  await make("hello", { title: { en: "Hello world", de: "Hallo Welt" }, slug: { en: "hello-world", de: "hallo-welt" } });
  // Only English and French: de-CH falls back to de (nothing), then fr, before de's own en.
  await make("cheese", { title: { en: "Cheese", fr: "Fromage" }, slug: { en: "cheese" } });
  id.tag = (await p.ok("POST", "/v2/model-instances", { model: "tag", data: { name: "news" } })).id;
});
afterAll(() => p.h.close());

const read = async (q: string) => {
  const r = await p.read(`/api/entries/post?${q}`, p.dev);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body;
};

describe("chains and codes", () => {
  test("de-CH -> [de, fr] with de -> [en] looks in de-CH, de, fr, en: French comes before English", async () => {
    const r = await read(`locale=de-CH&select=title&where=${enc(JSON.stringify({ id: id.cheese }))}`);
    expect([r.data, r.meta.fallbacks]).toEqual([[{ id: id.cheese, title: "Fromage" }], [{ id: id.cheese, field: "title", locale: "fr" }]]);
  });

  test("the default is not appended to a chain that does not name it: fr reads French only", async () => {
    expect((await read("locale=fr&select=title&sort=title")).data.map((x: any) => x.title)).toEqual(["Fromage", null]);
  });

  test("codes are compared without regard to case: locale=DE-ch reads de-CH", async () => {
    expect((await read("locale=DE-ch&select=title&sort=title")).meta.locale).toBe("de-CH");
  });

  test("more fallbacks than the project has locales is refused naming fallbackLocale", async () => {
    const r = await p.read("/api/entries/post?locale=de&fallbackLocale=en,fr,de-CH,en,fr", p.dev);
    expect([r.status, r.body]).toEqual([
      400,
      apiError(
        "invalid_locale",
        "fallbackLocale lists 5 locales; the project has 4.",
        "fallbackLocale",
        "Known locales: en, de, fr, de-CH. Example: fallbackLocale=de-CH",
      ),
    ]);
  });
});

describe("$locales and locale=*", () => {
  test("$locales comes back only when selected; an entry of a model without localized fields has none", async () => {
    const all = await read("select=*&sort=title");
    expect(Object.keys(all.data[0]).sort()).toEqual([
      "createdAt",
      "folder",
      "id",
      "model",
      "publishedAt",
      "slug",
      "status",
      "tags",
      "title",
      "updatedAt",
      "version",
    ]);
    const tags = await p.read("/api/entries/tag?select=name,$locales", p.dev);
    expect(tags.body.data).toEqual([{ id: id.tag, name: "news", locales: [] }]);
  });

  test("with locale=*, where and sort on a localized field use the default locale's value", async () => {
    const r = await read(`locale=*&select=title&sort=-title&where=${enc(JSON.stringify({ title: { startsWith: "H" } }))}`);
    expect(r.data).toEqual([{ id: id.hello, title: { en: "Hello world", de: "Hallo Welt", fr: null, "de-CH": null } }]);
    expect((await read("locale=*&select=title&sort=title")).data.map((x: any) => x.title.en)).toEqual(["Cheese", "Hello world"]);
  });
});

describe("a site routing /de/<slug> to locale=de", () => {
  const page = async (lang: string, slug: string) => (await read(`locale=${lang}&select=title,$locales&where=${enc(JSON.stringify({ slug }))}&limit=1`)).data;

  test("the German slug finds the translated entry, the English slug an untranslated one under /de/ too", async () => {
    expect(await page("de", "hallo-welt")).toEqual([{ id: id.hello, title: "Hallo Welt", locales: ["en", "de"] }]);
    expect(await page("de", "cheese")).toEqual([{ id: id.cheese, title: "Cheese", locales: ["en", "fr"] }]);
    expect(await page("de", "hello-world")).toEqual([]);
  });

  test("$locales has de lists the entries a German page is built for", async () => {
    const r = await read(`select=slug&where=${enc(JSON.stringify({ $locales: { has: "de" } }))}`);
    expect(r.data).toEqual([{ id: id.hello, slug: "hello-world" }]);
  });
});

describe("a change of the locales", () => {
  test("the read API's OpenAPI document loses locale with the second locale and gets it back at once", async () => {
    const documented = async () => {
      const r = await p.read("/api/openapi.json", p.prod);
      expect(r.status).toBe(200);
      const text = JSON.stringify(r.body);
      return [text.includes('"name":"locale"'), text.includes('"name":"fallbackLocale"')];
    };
    expect(await documented()).toEqual([true, true]);
    await p.ok("PUT", "/v2/locales?force=true", { default: "en", locales: [{ code: "en" }] });
    expect(await documented()).toEqual([false, false]);
    await p.ok("PUT", "/v2/locales", LOCALES);
    expect(await documented()).toEqual([true, true]);
  });
});
