// Writes on /v2 with ?locale= and ?locale=* (decisions.md 13): localized fields of every kind,
// relations and media included, read and written in one locale (no fallback on /v2) or as objects
// keyed by code; blank values empty a locale; a locale the project does not have is refused by
// name; versions keep every locale's values; unique values and slugs per locale; duplicate,
// validate and the management list in a locale.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { l10n, type L10n } from "./fixture.ts";

let p: L10n;
let author: { a: string; b: string };
const FIELDS = [
  { namespace: "title", type: "string", localized: true, unique: true },
  { namespace: "slug", type: "string", localized: true, slug: { from: "title" } },
  { namespace: "body", type: "markdown", localized: true },
  { namespace: "html", type: "html", localized: true },
  { namespace: "price", type: "number", localized: true },
  { namespace: "day", type: "date", localized: true },
  { namespace: "labels", type: "array", arrayType: "string", localized: true },
  { namespace: "author", type: "relation", relation: "author", localized: true },
  { namespace: "cover", type: "image", localized: true },
  { namespace: "meta", type: "mixed", localized: true },
  { namespace: "sku", type: "string" },
];
const NULLS = { title: null, slug: null, body: null, html: null, price: null, day: null, labels: null, author: null, cover: null, meta: null, sku: null };
const IMG = { id: "img_1", url: "https://cdn.example.com/1.png", alt: "One", type: "image", width: 10, height: 20 };

beforeAll(async () => {
  p = await l10n();
  await p.ok("POST", "/v2/models", { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string" }] });
  author = {
    a: (await p.ok("POST", "/v2/model-instances", { model: "author", data: { name: "A" } })).id,
    b: (await p.ok("POST", "/v2/model-instances", { model: "author", data: { name: "B" } })).id,
  };
  await p.ok("POST", "/v2/models", { name: "Article", namespace: "article", fields: FIELDS });
});
afterAll(() => p.h.close());

const create = async (data: Record<string, unknown>, q = "") => p.ok("POST", `/v2/model-instances${q}`, { model: "article", data });

describe("localized fields", () => {
  test("localized: true on any kind is kept on the field; a shared field has no such key", async () => {
    const m = await p.ok("GET", "/v2/models/article");
    expect(m.fields.map((f: any) => [f.namespace, f.localized ?? "absent"])).toEqual([
      ["title", true],
      ["slug", true],
      ["body", true],
      ["html", true],
      ["price", true],
      ["day", true],
      ["labels", true],
      ["author", true],
      ["cover", true],
      ["meta", true],
      ["sku", "absent"],
    ]);
  });

  test("each locale holds its own values; /v2 shows one locale without fallback, or every locale with *", async () => {
    const e = await create({ title: "Hello world", price: 5, day: "2026-01-02", labels: ["x"], author: author.a, cover: IMG, meta: { n: 1 }, sku: "S1" });
    expect(e.locale).toBe("en");
    expect(e.locales).toEqual({ en: { status: "draft", publishedAt: null } });
    expect(e.draft.data).toEqual({
      ...NULLS,
      title: "Hello world",
      slug: "hello-world",
      price: 5,
      day: "2026-01-02",
      labels: ["x"],
      author: author.a,
      cover: IMG,
      meta: { n: 1 },
      sku: "S1",
    });
    const de = await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=de`, { data: { title: "Hallo Welt", price: 6, author: author.b, sku: "S2" } });
    expect(de.locale).toBe("de");
    expect(de.locales).toEqual({ en: { status: "draft", publishedAt: null }, de: { status: "draft", publishedAt: null } });
    // German holds only what was written in German (and the slug made from its title); the shared sku changed for all.
    expect(de.draft.data).toEqual({ ...NULLS, title: "Hallo Welt", slug: "hallo-welt", price: 6, author: author.b, sku: "S2" });
    expect((await p.ok("GET", `/v2/model-instances/${e.id}`)).draft.data).toEqual({
      ...NULLS,
      title: "Hello world",
      slug: "hello-world",
      price: 5,
      day: "2026-01-02",
      labels: ["x"],
      author: author.a,
      cover: IMG,
      meta: { n: 1 },
      sku: "S2",
    });
    const all = await p.ok("GET", `/v2/model-instances/${e.id}?locale=*`);
    expect(all.locale).toBe("*");
    const none = { en: null, de: null, "de-CH": null, fr: null };
    expect(all.draft.data).toEqual({
      title: { ...none, en: "Hello world", de: "Hallo Welt" },
      slug: { ...none, en: "hello-world", de: "hallo-welt" },
      body: none,
      html: none,
      price: { ...none, en: 5, de: 6 },
      day: { ...none, en: "2026-01-02" },
      labels: { ...none, en: ["x"] },
      author: { ...none, en: author.a, de: author.b },
      cover: { ...none, en: IMG },
      meta: { ...none, en: { n: 1 } },
      sku: "S2",
    });
  });

  test("?locale=* writes objects keyed by code: the codes named change, null empties every locale", async () => {
    const e = await create({ title: "Star" });
    const r = await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=*`, { data: { title: { de: "Stern", FR: "Étoile" }, labels: { "de-ch": ["ch"] } } });
    expect([r.draft.data.title, r.draft.data.labels]).toEqual([
      { en: "Star", de: "Stern", "de-CH": null, fr: "Étoile" },
      { en: null, de: null, "de-CH": ["ch"], fr: null },
    ]);
    const cleared = await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=*`, { data: { title: null, slug: null, labels: { "de-CH": [] } } });
    expect([cleared.draft.data.title, cleared.draft.data.labels, cleared.locales]).toEqual([
      { en: null, de: null, "de-CH": null, fr: null },
      { en: null, de: null, "de-CH": null, fr: null },
      {},
    ]);
  });

  test("a blank value empties its locale, so reads fall back: null, empty text and lists, blank markdown and HTML", async () => {
    const e = await create({ title: "Blank", body: "**b**", html: "<p>h</p>", labels: ["l"] });
    await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=*`, {
      data: { body: { de: " \n\t " }, html: { de: "<p><br></p>\n<!-- x -->&nbsp;", fr: '<p><img src="x.png"></p>' }, labels: { de: [] }, price: { de: null } },
    });
    const all = (await p.ok("GET", `/v2/model-instances/${e.id}?locale=*`)).draft.data;
    expect([all.body.de, all.html.de, all.html.fr, all.labels.de, all.price.de]).toEqual([null, null, '<p><img src="x.png"></p>', null, null]);
    const stored = p.h.capa.services.projects.get(p.projectId).sqlite.query("SELECT draft_data AS d FROM entries WHERE id = ?").get(e.id) as { d: string };
    // Nothing of German is stored: only French's picture and English.
    expect(Object.values(JSON.parse(stored.d)).filter((v: any) => v && typeof v === "object" && "de" in v)).toEqual([]);
  });

  test("a value for a locale the project does not have is refused by path; nothing changes", async () => {
    const e = await create({ title: "Guarded" });
    for (const [q, data, field, sent] of [
      ["?locale=*", { title: { de: "x", es: "y" } }, "data.title.es", '"es"'],
      ["?locale=*", { title: { de_CH: "y" } }, "data.title.de_CH", '"de_CH"'],
      ["?locale=es", { title: "y" }, "locale", '"es"'],
      ["?locale=de-DE-x-private-and-too-long-for-a-tag", { title: "y" }, "locale", '"de-DE-x-private-and-too-long-for-a-tag"'],
    ] as const) {
      const r = await p.json("PATCH", `/v2/model-instances/${e.id}${q}`, { data });
      expect([q, r.status, r.body]).toEqual([
        q,
        400,
        {
          error: `${field}: ${sent} is not a locale of this project; its locales are en, de, de-CH, fr.`,
          code: "invalid_locale",
          field,
          locales: ["en", "de", "de-CH", "fr"],
        },
      ]);
    }
    const notObject = await p.json("PATCH", `/v2/model-instances/${e.id}?locale=*`, { data: { title: "flat" } });
    expect([notObject.status, notObject.body]).toEqual([
      400,
      { error: "data.title is localized: with locale=* send an object keyed by locale code", code: "invalid_body", field: "data.title" },
    ]);
    const wrongKind = await p.json("PATCH", `/v2/model-instances/${e.id}?locale=*`, { data: { price: { de: "six" } } });
    expect([wrongKind.status, wrongKind.body]).toEqual([400, { error: "data.price.de must be a number", code: "invalid_body", field: "data.price.de" }]);
    const ghost = await p.json("PATCH", `/v2/model-instances/${e.id}?locale=de`, { data: { author: "01900000-0000-7000-8000-00000000dead" } });
    expect([ghost.status, ghost.body.field]).toEqual([400, "data.author"]);
    const got = await p.ok("GET", `/v2/model-instances/${e.id}?locale=*`);
    expect([got.version, got.draft.data.title]).toEqual([1, { en: "Guarded", de: null, "de-CH": null, fr: null }]);
  });

  test("versions keep every locale's values, and a restore brings them all back", async () => {
    const e = await create({ title: "V1" });
    await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=de`, { data: { title: "V1 de" } });
    const v2 = (await p.ok("GET", `/v2/model-instances/${e.id}`)).draft.versionId;
    await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=*`, { data: { title: { en: "V3", de: "V3 de", fr: "V3 fr" } } });
    const versions = (await p.ok("GET", `/v2/model-instances/${e.id}/versions?locale=*`)).data;
    expect(versions.map((v: any) => [v.number, v.data.title])).toEqual([
      [3, { en: "V3", de: "V3 de", "de-CH": null, fr: "V3 fr" }],
      [2, { en: "V1", de: "V1 de", "de-CH": null, fr: null }],
      [1, { en: "V1", de: null, "de-CH": null, fr: null }],
    ]);
    expect((await p.ok("GET", `/v2/model-instances/${e.id}/versions?locale=fr`)).data.map((v: any) => v.data.title)).toEqual(["V3 fr", null, null]);
    const restored = await p.ok("POST", `/v2/model-instances/${e.id}/versions/${v2}/restore?locale=*`);
    expect([restored.version, restored.draft.data.title, restored.locales]).toEqual([
      4,
      { en: "V1", de: "V1 de", "de-CH": null, fr: null },
      { en: { status: "draft", publishedAt: null }, de: { status: "draft", publishedAt: null } },
    ]);
  });
});

describe("unique values and slugs per locale", () => {
  test("a unique localized value is compared within its locale: the same German title twice is refused, naming the locale", async () => {
    const one = await create({ title: "Uno" }, "?locale=de");
    const r = await p.json("POST", "/v2/model-instances?locale=de", { model: "article", data: { title: "Uno" } });
    expect([r.status, r.body]).toEqual([
      409,
      {
        error: 'title must be unique in de: another entry of this model already has "Uno".',
        code: "not_unique",
        field: "data.title",
        entryId: one.id,
        locale: "de",
      },
    ]);
    // The same text in another locale is another value.
    const en = await create({ title: "Uno" });
    expect(en.draft.data.title).toBe("Uno");
  });

  test("a localized slug is filled in each locale from the title in that locale, unique there", async () => {
    const a = await create({ title: "Grüne Wiese" }, "?locale=de");
    const b = await create({ title: "Grüne  Wiese!" }, "?locale=de");
    expect([a.draft.data.slug, b.draft.data.slug]).toEqual(["grune-wiese", "grune-wiese-2"]);
    const en = await p.ok("PATCH", `/v2/model-instances/${b.id}?locale=*`, { data: { title: { en: "Green meadow" } } });
    expect(en.draft.data.slug).toEqual({ en: "green-meadow", de: "grune-wiese-2", "de-CH": null, fr: null });
  });

  test("duplicate copies every locale; unique values empty and slugs move on in each", async () => {
    const src = await p.ok("PATCH", `/v2/model-instances/${(await create({ title: "Twin" })).id}?locale=*`, {
      data: { title: { de: "Zwilling" }, price: { de: 2 } },
    });
    const copy = await p.ok("POST", `/v2/model-instances/${src.id}/duplicate?locale=*`);
    expect([copy.draft.data.title, copy.draft.data.slug, copy.draft.data.price]).toEqual([
      { en: null, de: null, "de-CH": null, fr: null },
      { en: "twin-2", de: "zwilling-2", "de-CH": null, fr: null },
      { en: null, de: 2, "de-CH": null, fr: null },
    ]);
  });

  test("validate checks the locale it is asked about", async () => {
    const holder = await create({ title: "Taken" }, "?locale=fr");
    const r = await p.ok("POST", "/v2/model-instances/validate?locale=fr", { model: "article", data: { title: "Taken" } });
    expect(r).toEqual({
      valid: false,
      errors: [
        {
          field: "data.title",
          rule: "unique",
          message: 'title must be unique in fr: another entry of this model already has "Taken".',
          locale: "fr",
          entryId: holder.id,
        },
      ],
    });
    expect(await p.ok("POST", "/v2/model-instances/validate?locale=de", { model: "article", data: { title: "Taken" } })).toEqual({ valid: true, errors: [] });
  });
});

describe("the management list in a locale", () => {
  test("search and status read the locale listed; each item shows it", async () => {
    const e = await create({ title: "Listed in English" });
    await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=de`, { data: { title: "Auf Deutsch gelistet" } });
    await p.ok("POST", `/v2/model-instances/${e.id}/publish`, { locales: ["de"] });
    const de = await p.ok("GET", "/v2/model-instances?model=article&locale=de&q=Deutsch&status=published");
    expect([de.total, de.data.map((x: any) => [x.id, x.locale, x.status, x.draft.data.title])]).toEqual([
      1,
      [[e.id, "de", "published", "Auf Deutsch gelistet"]],
    ]);
    const en = await p.ok("GET", "/v2/model-instances?model=article&q=Deutsch");
    expect(en.total).toBe(0);
    const drafts = await p.ok("GET", "/v2/model-instances?model=article&q=Listed&status=draft");
    expect(drafts.data.map((x: any) => [x.id, x.status, x.locales])).toEqual([
      [e.id, "draft", { en: { status: "draft", publishedAt: null }, de: { status: "published", publishedAt: "2026-11-21T12:00:00.000Z" } }],
    ]);
  });
});
