// GraphQL in locales (decisions.md 13): with a second locale the entry roots (lists, singles,
// entry, node, nodes) take locale and fallbackLocales, a localized field takes its own locale,
// entry types have _locales and filters take it; with one locale the schema is as it was. The
// answer equals the REST answer for the same arguments, relations are read in the root's
// locale, and extensions.svc.rest carries locale and fallbackLocale.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { l10n, type L10n } from "./fixture.ts";

let p: L10n;
const id: Record<string, string> = {};

beforeAll(async () => {
  p = await l10n();
  await p.ok("POST", "/v2/models", { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string", localized: true }] });
  await p.ok("POST", "/v2/models", {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string", localized: true },
      { namespace: "price", type: "number" },
      { namespace: "author", type: "relation", relation: "author" },
    ],
  });
  const make = async (name: string, model: string, data: Record<string, unknown>, locales: string[]) => {
    const e = await p.ok("POST", "/v2/model-instances?locale=*", { model, data });
    await p.ok("POST", `/v2/model-instances/${e.id}/publish`, { locales });
    id[name] = e.id;
  };
  await make("ann", "author", { name: { en: "Ann", de: "Anna" } }, ["en", "de"]);
  await make("one", "post", { title: { en: "One", de: "Eins", fr: "Un" }, price: 1, author: id.ann }, ["en", "de", "fr"]);
  await make("two", "post", { title: { en: "Two", "de-CH": "Zwoi" }, price: 2, author: id.ann }, ["en", "de-CH"]);
  await make("three", "post", { title: { en: "Three", de: "Drei" }, price: 3 }, ["en"]);
});
afterAll(() => p.h.close());

const gql = async (query: string, key = p.dev, variables?: Record<string, unknown>) => {
  const r = await p.h.json("POST", "/api/graphql", { headers: { "x-api-key": key }, body: { query, variables, extensions: { svc: true } } });
  return r.body;
};
const argsOf = async (key: string) => {
  const b = await gql(`{ __schema { queryType { fields { name args { name } } } } __type(name: "Post") { fields { name args { name } } } }`, key);
  const roots = Object.fromEntries(b.data.__schema.queryType.fields.map((f: any) => [f.name, f.args.map((a: any) => a.name)]));
  const fields = Object.fromEntries(b.data.__type.fields.map((f: any) => [f.name, f.args.map((a: any) => a.name)]));
  return { roots, fields };
};

describe("the schema", () => {
  test("with a second locale: locale arguments on every entry root and localized field, _locales on types and filters", async () => {
    const { roots, fields } = await argsOf(p.dev);
    expect(roots).toEqual({
      author: ["first", "after", "last", "before", "sort", "filter", "locale", "fallbackLocales"],
      authorById: ["id", "locale", "fallbackLocales"],
      post: ["first", "after", "last", "before", "sort", "filter", "locale", "fallbackLocales"],
      postById: ["id", "locale", "fallbackLocales"],
      entry: ["id", "locale", "fallbackLocales"],
      node: ["id", "locale", "fallbackLocales"],
      nodes: ["ids", "locale", "fallbackLocales"],
      version: [],
      me: [],
    });
    expect(fields).toEqual({
      id: [],
      model: [],
      status: [],
      createdAt: [],
      updatedAt: [],
      publishedAt: [],
      _version: [],
      _tags: [],
      _folder: [],
      _locales: [],
      title: ["locale"],
      price: [],
      author: [],
    });
    const filter = await gql(`{ __type(name: "PostFilter") { inputFields { name type { name } } } }`);
    expect(filter.data.__type.inputFields.find((f: any) => f.name === "_locales")).toEqual({ name: "_locales", type: { name: "StringListFilter" } });
  });

  test("with one locale, none of it; a second locale added shows it at once", async () => {
    const q = await l10n({}, null);
    try {
      await q.ok("POST", "/v2/models", { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string", localized: true }] });
      const before = (
        await q.h.json("POST", "/api/graphql", {
          headers: { "x-api-key": q.dev },
          body: { query: `{ __type(name: "Post") { fields { name args { name } } } }` },
        })
      ).body;
      expect(before.data.__type.fields.map((f: any) => [f.name, f.args.length])).toEqual([
        ["id", 0],
        ["model", 0],
        ["status", 0],
        ["createdAt", 0],
        ["updatedAt", 0],
        ["publishedAt", 0],
        ["_version", 0],
        ["_tags", 0],
        ["_folder", 0],
        ["title", 0],
      ]);
      await q.ok("PUT", "/v2/locales", { default: "en", locales: [{ code: "en" }, { code: "de" }] });
      const after = (
        await q.h.json("POST", "/api/graphql", {
          headers: { "x-api-key": q.dev },
          body: { query: `{ post(locale: "de") { nodes { _locales title(locale: "en") } } }` },
        })
      ).body;
      expect(after.data).toEqual({ post: { nodes: [] } });
    } finally {
      q.h.close();
    }
  });
});

describe("answers", () => {
  test("a list root in a locale equals the REST read of the same arguments, and svc.rest shows it", async () => {
    const b = await gql(
      `{ post(locale: "de-CH", sort: [title_ASC], filter: { _locales: { has: "de-CH" } }) { nodes { id title price _locales author { name } } } }`,
      p.prod,
    );
    const url =
      "/api/entries/post?select=title,price,$locales,author(name)&where=%7B%22$locales%22:%7B%22has%22:%22de-CH%22%7D%7D&sort=title&limit=25&locale=de-CH";
    expect(b.extensions.svc.rest).toEqual([{ field: "post", url }]);
    const rest = await p.read(url, p.prod);
    expect(b.data.post.nodes).toEqual(
      rest.body.data.map((x: any) => ({ id: x.id, title: x.title, price: x.price, _locales: x.locales, author: x.author && { name: x.author.name } })),
    );
    expect(b.data.post.nodes).toEqual([{ id: id.two, title: "Zwoi", price: 2, _locales: ["en", "de-CH"], author: { name: "Anna" } }]);
  });

  test("fallbackLocales replaces the chain and an empty list turns it off; a field reads its own locale", async () => {
    const b = await gql(
      `{ a: post(locale: "de", sort: [price_ASC]) { nodes { title en: title(locale: "en") fr: title(locale: "fr") } }
         b: post(locale: "de", fallbackLocales: [], sort: [price_ASC]) { nodes { title } }
         c: post(locale: "fr", fallbackLocales: ["de-CH", "en"], sort: [price_ASC]) { nodes { title } } }`,
    );
    expect(b.data).toEqual({
      a: {
        nodes: [
          { title: "Eins", en: "One", fr: "Un" },
          { title: "Two", en: "Two", fr: null },
          { title: "Drei", en: "Three", fr: null },
        ],
      },
      b: { nodes: [{ title: "Eins" }, { title: null }, { title: "Drei" }] },
      c: { nodes: [{ title: "Un" }, { title: "Zwoi" }, { title: "Three" }] },
    });
    expect(b.extensions.svc.rest.map((r: any) => r.url)).toEqual([
      "/api/entries/post?select=title&sort=price&limit=25&locale=de",
      "/api/entries/post?select=title&sort=price&limit=25&locale=de&fallbackLocale=none",
      "/api/entries/post?select=title&sort=price&limit=25&locale=fr&fallbackLocale=de-CH,en",
    ]);
  });

  test("single roots, entry, node and nodes take the locale and cascade it into relations", async () => {
    const b = await gql(
      `query($ids: [ID!]!) {
        postById(id: "${id.one}", locale: "fr") { title author { name } }
        entry(id: "${id.two}", locale: "de-CH") { ... on Post { title author { name(locale: "en") } } }
        node(id: "${id.one}", locale: "de") { ... on Post { title } }
        nodes(ids: $ids, locale: "de", fallbackLocales: []) { ... on Post { title } }
      }`,
      p.dev,
      { ids: [id.three, id.two] },
    );
    expect(b.data).toEqual({
      postById: { title: "Un", author: { name: null } },
      entry: { title: "Zwoi", author: { name: "Ann" } },
      node: { title: "Eins" },
      nodes: [{ title: "Drei" }, { title: null }],
    });
    // nodes reads each model's ids in one read, in the order the project stores them.
    expect(b.extensions.svc.rest.map((r: any) => r.url)).toEqual([
      `/api/entries/post/${id.one}?select=title,author(name)&locale=fr`,
      `/api/entries/post/${id.two}?select=title,author(name)&locale=de-CH`,
      `/api/entries/post/${id.one}?select=title&locale=de`,
      `/api/entries/post?select=title&where=%7B%22$id%22:%7B%22in%22:%5B%22${id.two}%22,%22${id.three}%22%5D%7D%7D&limit=2&locale=de&fallbackLocale=none`,
    ]);
  });

  test("a production key sees what REST shows it: no entry of an unpublished chain, no draft through a fallback", async () => {
    const b = await gql(`{ post(locale: "fr", sort: [price_ASC]) { nodes { title } } postById(id: "${id.three}", locale: "de") { title } }`, p.prod);
    // Three is published in English only: its German title is a draft, so German falls back to English.
    expect(b.data).toEqual({ post: { nodes: [{ title: "Un" }] }, postById: { title: "Three" } });
  });

  test("an unknown locale fails its root field with invalid_locale naming the argument; * is refused", async () => {
    const b = await gql(
      `{ a: post(locale: "es") { nodes { title } } b: post(fallbackLocales: ["xx_1"]) { nodes { title } } c: post(locale: "*") { nodes { title } } v: version }`,
    );
    expect(b.data).toEqual({ a: null, b: null, c: null, v: "2026-10-01" });
    expect(b.errors.map((e: any) => [e.path, e.message, e.extensions.code, e.extensions.param, e.extensions.hint])).toEqual([
      [["a"], 'locale: "es" is not a locale of this project.', "invalid_locale", "locale", "Known locales: en, de, de-CH, fr. Example: locale=fr"],
      [
        ["b"],
        'fallbackLocale: "xx_1" is not a BCP 47 language tag of at most 35 characters.',
        "invalid_locale",
        "fallbackLocales",
        "Known locales: en, de, de-CH, fr. Example: fallbackLocale=fr",
      ],
      [
        ["c"],
        "GraphQL reads one locale at a time; every locale keyed by code is REST's locale=*.",
        "invalid_parameter",
        "locale",
        'Example: posts(locale: "de", fallbackLocales: ["en"])',
      ],
    ]);
  });
});
