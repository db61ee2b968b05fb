// Reads in a locale (decisions.md 13, "Reads"): values fall back along the chain (blank values
// included), fallbackLocale replaces or turns off the chain, locale=* answers every locale;
// meta.locale and meta.fallbacks; a production key sees an entry when a locale of its chain is
// published and never a draft through a fallback; relations are read in the same locale; where,
// sort and keyset cursors use the value after fallback; $locales; the refusals; caching.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiError, KNOWN, l10n, type L10n } from "./fixture.ts";

let p: L10n;
const id: Record<string, string> = {};
const enc = encodeURIComponent;

beforeAll(async () => {
  p = await l10n();
  await p.ok("POST", "/v2/models", { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string", localized: true }] });
  await p.ok("POST", "/v2/models", {
    name: "Article",
    namespace: "article",
    fields: [
      { namespace: "title", type: "string", localized: true },
      { namespace: "body", type: "markdown", localized: true },
      { namespace: "html", type: "html", localized: true },
      { namespace: "labels", type: "array", arrayType: "string", localized: true },
      { namespace: "day", type: "date", localized: true },
      { namespace: "price", type: "number" },
      { namespace: "author", type: "relation", relation: "author" },
    ],
  });
  const make = async (name: string, data: Record<string, unknown>, publish: string[] | null) => {
    const model = name.startsWith("author") ? "author" : "article";
    const e = await p.ok("POST", "/v2/model-instances?locale=*", { model, data });
    if (publish) await p.ok("POST", `/v2/model-instances/${e.id}/publish`, { locales: publish });
    id[name] = e.id;
  };
  await make("author", { name: { en: "Ann", de: "Anna" } }, ["en", "de"]);
  // Apple: every locale but French; German's body, HTML, labels and day are blank, so they fall back.
  await make(
    "apple",
    {
      title: { en: "Apple", de: "Apfel", "de-CH": "Öpfel" },
      body: { en: "en body", de: " \n" },
      html: { en: "<p>en</p>", de: "<p><br></p>" },
      labels: { en: ["fruit"], de: [] },
      day: { en: "2026-01-02" },
      price: 3,
      author: id.author,
    },
    ["en", "de", "de-CH"],
  );
  // Banana: published in English; its German title is a draft.
  await make("banana", { title: { en: "Banana", de: "Banane" }, price: 1 }, ["en"]);
  // Cherry: published in French alone.
  await make("cherry", { title: { en: "Cherry", fr: "Cerise" }, price: 2 }, ["fr"]);
  // Date: a draft in English only.
  await make("date", { title: { en: "Date" }, price: 4 }, null);
  // Egg: published in German; its English values are a draft, never shown through a fallback.
  await make("egg", { title: { en: "Egg", de: "Ei" }, body: { en: "secret draft" }, price: 5 }, ["de"]);
});
afterAll(() => p.h.close());

const meta = (extra: Record<string, unknown>) => ({ version: "2026-10-01", requestId: expect.any(String), contract: 1, ...extra });
const PAGE = { limit: 25, next: null, prev: null };

describe("the value of the locale read, or the first of its chain that has one", () => {
  test("one entry in de-CH (de-CH -> de -> en): each value from the first locale holding it, each fallback named", async () => {
    const r = await p.read(`/api/entries/article/${id.apple}?locale=de-CH&select=title,body,html,labels,day,price`, p.dev);
    expect([r.status, r.body]).toEqual([
      200,
      {
        data: { id: id.apple, title: "Öpfel", body: "en body", html: "<p>en</p>", labels: ["fruit"], day: "2026-01-02", price: 3 },
        meta: meta({
          locale: "de-CH",
          fallbacks: ["body", "html", "labels", "day"].map((field) => ({ id: id.apple, field, locale: "en" })),
        }),
      },
    ]);
  });

  test("blank values (written as white space, an empty paragraph, an empty list) fall back like absent ones", async () => {
    const r = await p.read(`/api/entries/article/${id.apple}?locale=de&select=title,body,html,labels`, p.dev);
    expect(r.body.data).toEqual({ id: id.apple, title: "Apfel", body: "en body", html: "<p>en</p>", labels: ["fruit"] });
  });

  test("fallbackLocale replaces the chain for one read; none turns it off; locale=* answers every locale, no fallback", async () => {
    const sel = "select=title,body,price";
    const fr = await p.read(`/api/entries/article/${id.apple}?locale=de&fallbackLocale=fr,de-CH&${sel}`, p.dev);
    expect(fr.body).toEqual({ data: { id: id.apple, title: "Apfel", body: null, price: 3 }, meta: meta({ locale: "de", fallbacks: [] }) });
    const none = await p.read(`/api/entries/article/${id.cherry}?locale=de&fallbackLocale=none&${sel}`, p.dev);
    expect(none.body).toEqual({ data: { id: id.cherry, title: null, body: null, price: 2 }, meta: meta({ locale: "de", fallbacks: [] }) });
    // A fallback list alone replaces the default locale's chain (it has none of its own).
    const alone = await p.read(`/api/entries/article/${id.cherry}?fallbackLocale=fr&${sel}`, p.dev);
    expect(alone.body).toEqual({ data: { id: id.cherry, title: "Cherry", body: null, price: 2 }, meta: meta({ locale: "en", fallbacks: [] }) });
    const all = await p.read(`/api/entries/article/${id.apple}?locale=*&${sel}`, p.dev);
    expect(all.body).toEqual({
      data: {
        id: id.apple,
        title: { en: "Apple", de: "Apfel", "de-CH": "Öpfel", fr: null },
        body: { en: "en body", de: null, "de-CH": null, fr: null },
        price: 3,
      },
      meta: meta({ locale: "*" }),
    });
  });

  test("without a locale the default is read and the answer says nothing of locales, as before", async () => {
    const r = await p.read(`/api/entries/article/${id.apple}?select=title,body`, p.dev);
    expect(r.body).toEqual({ data: { id: id.apple, title: "Apple", body: "en body" }, meta: meta({}) });
  });

  test("relations are read in the same locale, their fallbacks named too", async () => {
    const r = await p.read(`/api/entries/article/${id.apple}?locale=de-CH&select=title,author(name)`, p.dev);
    expect(r.body).toEqual({
      data: { id: id.apple, title: "Öpfel", author: { id: id.author, name: "Anna" } },
      meta: meta({ locale: "de-CH", fallbacks: [{ id: id.author, field: "name", locale: "de" }] }),
    });
  });
});

describe("a production key", () => {
  const list = (q: string, key = p.prod) => p.read(`/api/entries/article?select=title,body,status,publishedAt&sort=title&${q}`, key);

  test("sees an entry when a locale of the chain is published, and each value from the first published locale holding one", async () => {
    const de = await list("locale=de");
    expect(de.body).toEqual({
      data: [
        { id: id.apple, status: "published", publishedAt: "2026-11-21T12:00:00.000Z", title: "Apfel", body: "en body" },
        { id: id.banana, status: "published", publishedAt: "2026-11-21T12:00:00.000Z", title: "Banana", body: null },
        // Egg's English title and body are a draft: a fallback never shows one.
        { id: id.egg, status: "published", publishedAt: "2026-11-21T12:00:00.000Z", title: "Ei", body: null },
      ],
      meta: meta({
        locale: "de",
        fallbacks: [
          { id: id.apple, field: "body", locale: "en" },
          { id: id.banana, field: "title", locale: "en" },
        ],
        page: PAGE,
      }),
    });
    // The development key sees the drafts: Banana's German title, Egg's English body.
    const dev = await list("locale=de", p.dev);
    expect(dev.body.data.map((x: any) => [x.title, x.body, x.status])).toEqual([
      ["Apfel", "en body", "published"],
      ["Banane", null, "draft"],
      ["Cherry", null, "draft"],
      ["Date", null, "draft"],
      ["Ei", "secret draft", "published"],
    ]);
    expect((await list("locale=fr")).body.data.map((x: any) => x.title)).toEqual(["Cerise"]);
    expect((await list("locale=de-CH")).body.data.map((x: any) => x.title)).toEqual(["Banana", "Ei", "Öpfel"]);
  });

  test("an entry with no published locale in the chain is not found", async () => {
    const r = await p.read(`/api/entries/article/${id.cherry}?locale=de`, p.prod);
    expect([r.status, r.body]).toEqual([
      404,
      apiError("entry_not_found", "No entry with that id can be read with this key.", undefined, "Production keys read published entries only.", "not_found"),
    ]);
    expect((await p.read(`/api/entries/article/${id.cherry}?locale=fr&select=title`, p.prod)).body.data).toEqual({ id: id.cherry, title: "Cerise" });
  });
});

describe("where and sort use the value after fallback; cursors still seek", () => {
  const ids = async (q: string, key = p.dev) => {
    const r = await p.read(`/api/entries/article?select=title&${q}`, key);
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.data.map((x: any) => x.title);
  };

  test("a filter sees what the reader sees", async () => {
    const where = enc(JSON.stringify({ title: { startsWith: "D" } }));
    expect(await ids(`locale=de&where=${where}`)).toEqual(["Date"]);
    expect(await ids(`locale=de&fallbackLocale=none&where=${where}`)).toEqual([]);
    expect(await ids(`locale=de-CH&where=${enc(JSON.stringify({ title: { in: ["Öpfel", "Banane"] } }))}&sort=title`)).toEqual(["Banane", "Öpfel"]);
    expect(await ids(`locale=de&where=${enc(JSON.stringify({ body: { exists: true } }))}&sort=title`)).toEqual(["Apfel", "Ei"]);
    expect(await ids(`locale=de&where=${enc(JSON.stringify({ labels: { has: "fruit" } }))}`)).toEqual(["Apfel"]);
    expect(await ids(`locale=de&where=${enc(JSON.stringify({ day: { gte: "2026-01-01" } }))}`)).toEqual(["Apfel"]);
  });

  test("a sort orders by the value after fallback, nulls last; a cursor walk gives the one big page, both ways", async () => {
    expect(await ids("locale=de&sort=title")).toEqual(["Apfel", "Banane", "Cherry", "Date", "Ei"]);
    expect(await ids("locale=en&sort=-title")).toEqual(["Egg", "Date", "Cherry", "Banana", "Apple"]);
    expect(await ids("locale=fr&sort=title")).toEqual(["Cerise", null, null, null, null]);
    const seen: string[] = [];
    let next: string | null = null;
    let last: any = null;
    do {
      last = (await p.read(`/api/entries/article?select=title&locale=de-CH&sort=title&limit=2${next ? `&after=${next}` : ""}`, p.dev)).body;
      seen.push(...last.data.map((x: any) => x.title));
      next = last.meta.page.next;
    } while (next);
    expect(seen).toEqual(["Banane", "Cherry", "Date", "Ei", "Öpfel"]);
    const back = await p.read(`/api/entries/article?select=title&locale=de-CH&sort=title&limit=2&before=${last.meta.page.prev}`, p.dev);
    expect(back.body.data.map((x: any) => x.title)).toEqual(["Date", "Ei"]);
  });

  test("a cursor made for one chain is refused under another", async () => {
    const first = await p.read(`/api/entries/article?locale=de&sort=title&limit=2`, p.dev);
    const r = await p.read(`/api/entries/article?locale=de&fallbackLocale=none&sort=title&limit=2&after=${first.body.meta.page.next}`, p.dev);
    expect([r.status, r.body]).toEqual([
      400,
      apiError(
        "invalid_cursor",
        "The cursor was made for another sort order.",
        "after",
        "Pass meta.page.next or meta.page.prev exactly as returned, with the same sort.",
      ),
    ]);
  });
});

describe("$locales", () => {
  test("selectable: the locales holding a value, or for a production key the published ones", async () => {
    const sel = `select=$locales,title&sort=title`;
    expect((await p.read(`/api/entries/article?${sel}`, p.dev)).body.data.map((x: any) => x.locales)).toEqual([
      ["en", "de", "de-CH"],
      ["en", "de"],
      ["en", "fr"],
      ["en"],
      ["en", "de"],
    ]);
    expect((await p.read(`/api/entries/article?${sel}`, p.prod)).body.data.map((x: any) => [x.title, x.locales])).toEqual([
      ["Apple", ["en", "de", "de-CH"]],
      ["Banana", ["en"]],
    ]);
  });

  test("filterable with has, hasAny and hasAll; any other operator is refused", async () => {
    const w = (f: unknown) => `/api/entries/article?select=title&sort=title&where=${enc(JSON.stringify({ $locales: f }))}`;
    const titles = async (f: unknown, key = p.dev) => (await p.read(w(f), key)).body.data.map((x: any) => x.title);
    expect(await titles({ has: "fr" })).toEqual(["Cherry"]);
    expect(await titles({ hasAny: ["fr", "de-CH"] })).toEqual(["Apple", "Cherry"]);
    expect(await titles({ hasAll: ["en", "de"] })).toEqual(["Apple", "Banana", "Egg"]);
    expect(await titles({ hasAll: ["en", "de"] }, p.prod)).toEqual(["Apple"]);
    for (const op of ["eq", "exists", "contains"]) {
      const r = await p.read(w({ [op]: op === "exists" ? true : "de" }), p.dev);
      expect([r.status, r.body]).toEqual([
        400,
        apiError(
          "invalid_where",
          `The operator ${op} does not apply to "$locales"; it takes has, hasAny, hasAll.`,
          "where",
          'Example: where={"title":{"contains":"news"},"price":{"gte":10}}',
        ),
      ]);
    }
  });
});

describe("refusals name the parameter; the known codes are in the hint", () => {
  const cases: [string, string, string, string][] = [
    ["locale=es", "invalid_locale", 'locale: "es" is not a locale of this project.', "locale"],
    ["locale=de_CH", "invalid_locale", 'locale: "de_CH" is not a BCP 47 language tag of at most 35 characters.', "locale"],
    [`locale=de-${"x".repeat(40)}`, "invalid_locale", `locale: "de-${"x".repeat(37)}..." is not a BCP 47 language tag of at most 35 characters.`, "locale"],
    ["locale=", "invalid_locale", 'locale: "" is not a BCP 47 language tag of at most 35 characters.', "locale"],
    ["locale=de&fallbackLocale=en,es", "invalid_locale", 'fallbackLocale: "es" is not a locale of this project.', "fallbackLocale"],
    ["locale=de&fallbackLocale=en,,fr", "invalid_locale", 'fallbackLocale: "" is not a BCP 47 language tag of at most 35 characters.', "fallbackLocale"],
  ];
  for (const [q, code, message, param] of cases) {
    test(`${q.slice(0, 40)}: 400 ${code}`, async () => {
      const r = await p.read(`/api/entries/article?${q}`, p.dev);
      expect([r.status, r.body]).toEqual([400, apiError(code, message, param, KNOWN(param))]);
    });
  }

  test("locale=* with a fallback, and a parameter sent twice (or a thousand times), are refused at once", async () => {
    const star = await p.read("/api/entries/article?locale=*&fallbackLocale=en", p.dev);
    expect([star.status, star.body]).toEqual([
      400,
      apiError(
        "invalid_parameter",
        "locale=* reads every locale's own value, with no fallback; leave fallbackLocale out.",
        "fallbackLocale",
        "Example: ?locale=* or ?locale=de&fallbackLocale=en",
      ),
    ]);
    const many = await p.read(`/api/entries/article?${Array.from({ length: 1000 }, () => "locale=de").join("&")}`, p.dev);
    expect([many.status, many.body]).toEqual([
      400,
      apiError("invalid_parameter", "locale is sent 1000 times; send it once.", "locale", "Example: ?locale=de-CH&fallbackLocale=de,en"),
    ]);
    const twice = await p.read(`/api/entries/article/${id.apple}?locale=de&fallbackLocale=en&fallbackLocale=fr`, p.dev);
    expect([twice.status, twice.body.error.param, twice.body.error.message]).toEqual([400, "fallbackLocale", "fallbackLocale is sent 2 times; send it once."]);
  });
});

describe("caching", () => {
  test("locale and fallbackLocale are in the cache key; a locale's publish reaches the answers that fall back to it", async () => {
    const path = `/api/entries/article/${id.banana}?select=title`;
    const de = await p.h.req("GET", `${path}&locale=de-CH`, { headers: { "x-api-key": p.prod } });
    const en = await p.h.req("GET", path, { headers: { "x-api-key": p.prod } });
    expect([((await de.json()) as any).data.title, ((await en.json()) as any).data.title]).toEqual(["Banana", "Banana"]);
    expect(de.headers.get("etag")).not.toBe(en.headers.get("etag"));
    // Both carry the entry's tag: its publish in any locale purges them at the edge.
    expect(de.headers.get("surrogate-key")).toContain(`entry:${id.banana}`);
    const hits = p.h.capa.services.renderCache.hits;
    await p.h.req("GET", `${path}&locale=de-CH`, { headers: { "x-api-key": p.prod } });
    expect(p.h.capa.services.renderCache.hits).toBe(hits + 1);
    await p.ok("POST", `/v2/model-instances/${id.banana}/publish`, { locales: ["de"] });
    const after = await p.read(`${path}&locale=de-CH`, p.prod);
    expect([after.body.data.title, after.body.meta.fallbacks]).toEqual(["Banane", [{ id: id.banana, field: "title", locale: "de" }]]);
  });
});

describe("a project with one locale", () => {
  test("answers as before; locale=en is accepted and said; another code is refused with en in the hint", async () => {
    const q = await l10n({}, null);
    try {
      await q.ok("POST", "/v2/models", { name: "Note", namespace: "note", fields: [{ namespace: "text", type: "string" }] });
      const n = await q.ok("POST", "/v2/model-instances", { model: "note", data: { text: "one" } });
      expect((await q.read(`/api/entries/note/${n.id}?select=text`, q.dev)).body).toEqual({ data: { id: n.id, text: "one" }, meta: meta({}) });
      expect((await q.read(`/api/entries/note/${n.id}?select=text&locale=EN`, q.dev)).body).toEqual({
        data: { id: n.id, text: "one" },
        meta: meta({ locale: "en", fallbacks: [] }),
      });
      const r = await q.read(`/api/entries/note?locale=de`, q.dev);
      expect([r.status, r.body]).toEqual([
        400,
        apiError("invalid_locale", 'locale: "de" is not a locale of this project.', "locale", "Known locales: en. Example: locale=en"),
      ]);
    } finally {
      q.h.close();
    }
  });
});
