// The served schema (interface.md, GraphQL "Schema" and "Naming rules"): a real client builds it
// from introspection; it matches the golden SDL of the fixture project for a full key and for a
// key limited to one model; every type, field, argument and enum value has a description; the
// schema is cached until a model changes. `UPDATE_GOLDEN=1 bun test test/graphql` rewrites the files.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  buildClientSchema,
  getIntrospectionQuery,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  isIntrospectionType,
  isSpecifiedScalarType,
  lexicographicSortSchema,
  printSchema,
  type GraphQLSchema,
} from "graphql";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type Harness } from "../harness.ts";
import { fixture, type Fixture } from "./fixture.ts";

let h: Harness;
let f: Fixture;
const GOLDEN = join(import.meta.dir, "golden");

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
});
afterAll(() => h.close());

async function clientSchema(key: string): Promise<GraphQLSchema> {
  const r = await f.gql(key, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  return buildClientSchema(r.body.data);
}

function golden(name: string, sdl: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, sdl);
  expect(sdl).toBe(readFileSync(file, "utf8"));
}

const sdlOf = (s: GraphQLSchema) => `${printSchema(lexicographicSortSchema(s))}\n`;

describe("introspection", () => {
  test("the full key's schema matches the golden SDL", async () => {
    golden("full.graphql", sdlOf(await clientSchema(f.dev)));
  });

  test("a production key with the same grants sees the same schema", async () => {
    expect(sdlOf(await clientSchema(f.prod))).toBe(sdlOf(await clientSchema(f.dev)));
  });

  test("a key limited to one model sees only that model; relations into others are ID and named by no description", async () => {
    const s = await clientSchema(f.itemOnly);
    golden("item-only.graphql", sdlOf(s));
    const models = Object.values(s.getTypeMap()).filter((t) => t instanceof GraphQLObjectType && t.getInterfaces().some((i) => i.name === "Entry"));
    expect(models.map((t) => t.name)).toEqual(["Item"]);
    expect(Object.keys(s.getQueryType()!.getFields())).toEqual(["item", "itemById", "entry", "node", "nodes", "version", "me"]);
    const item = s.getType("Item") as GraphQLObjectType;
    expect(String(item.getFields().author!.type)).toBe("ID");
    expect(String(item.getFields().authors!.type)).toBe("[ID]");
    expect(item.getFields().author!.description).toBe("Capa field author, type relation");
    expect(s.getType("Author")).toBeUndefined();
    expect(s.getType("AuthorRelationFilter")).toBeUndefined();
    const filter = s.getType("ItemFilter") as GraphQLInputObjectType;
    expect(String(filter.getFields().author!.type)).toBe("RelationIDFilter");
    expect(String(filter.getFields().authors!.type)).toBe("RelationIDListFilter");
    expect(sdlOf(s)).not.toContain("model author");
    // The sort has no hop into an unreadable model.
    expect((s.getType("ItemSort") as GraphQLEnumType).getValues().some((v) => v.name.startsWith("author__"))).toBe(false);
  });

  test("a key with no instance:read still introspects: only the fixed roots", async () => {
    const s = await clientSchema(f.noRead);
    expect(Object.keys(s.getQueryType()!.getFields())).toEqual(["entry", "node", "nodes", "version", "me"]);
  });

  test("every type, field, argument and enum value has a description", async () => {
    const s = await clientSchema(f.dev);
    const missing: string[] = [];
    for (const t of Object.values(s.getTypeMap())) {
      if (isIntrospectionType(t) || isSpecifiedScalarType(t)) continue;
      if (!t.description) missing.push(t.name);
      if (t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType || t instanceof GraphQLInputObjectType) {
        for (const fld of Object.values(t.getFields())) {
          if (!fld.description) missing.push(`${t.name}.${fld.name}`);
          for (const a of "args" in fld ? fld.args : []) if (!a.description) missing.push(`${t.name}.${fld.name}(${a.name})`);
        }
      }
      if (t instanceof GraphQLEnumType) for (const v of t.getValues()) if (!v.description) missing.push(`${t.name}.${v.name}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("naming and descriptions", () => {
  let s: GraphQLSchema;
  beforeAll(async () => {
    s = await clientSchema(f.dev);
  });
  const roots = () => s.getQueryType()!.getFields();

  test("leading digit, hyphens and collisions", () => {
    expect(s.getType("_2024Reports")).toBeDefined();
    expect(roots()._2024Reports).toBeDefined();
    expect(roots()._2024Report).toBeDefined();
    expect(s.getType("Model_news_item")).toBeDefined();
    expect(s.getType("Model_newsItem")).toBeDefined();
    expect(roots().model_news_item).toBeDefined();
    expect(roots().model_newsItemById).toBeDefined();
    // blog-post and blog_post both become Model_blog_post, which collides again: both left out.
    expect(s.getType("Model_blog_post")).toBeUndefined();
    expect(s.getType("BlogPost")).toBeUndefined();
    expect(s.getQueryType()!.description).toEndWith("\n\nModels not exposed in GraphQL: blog-post, blog_post");
  });

  test("names GraphQL already uses or derived endings get Model; reserved roots get List", () => {
    expect(s.getType("MediaModel")!.description).toBe("Media (model media)");
    expect(s.getType("PageInfoModel")).toBeDefined();
    expect(s.getType("OrderSortModel")).toBeDefined();
    expect(roots().mediaList).toBeDefined();
    expect(roots().pageInfo).toBeDefined();
    expect(roots().orderSort).toBeDefined();
    expect(roots().entriesList).toBeDefined();
    expect(roots().entries).toBeUndefined();
    expect(String(roots().entry!.type)).toBe("Entry");
  });

  test("single roots: singular of the last word, or <list>ById", () => {
    expect(roots().setting).toBeDefined();
    expect(roots().postById).toBeDefined();
    expect(roots().itemById).toBeDefined();
    expect(roots().authorById).toBeDefined();
    expect(roots().mediaListById).toBeDefined();
  });

  test("root descriptions", () => {
    expect(roots().item!.description).toBe("Entries of the Item model. Same as GET /api/entries/item.");
    expect(roots().itemById!.description).toBe("One entry of the Item model by id, or null. Same as GET /api/entries/item/{id}.");
    expect(roots().setting!.description).toBe(
      "One entry of the Site settings model by id, or null. Same as GET /api/entries/settings/{id}. Without id, the model's one entry, the same as GET /api/entries/settings?limit=1.",
    );
    // A single-entry model's single root takes an optional id; every other one requires it.
    expect(String(roots().setting!.args[0]!.type)).toBe("ID");
    expect(String(roots().itemById!.args[0]!.type)).toBe("ID!");
  });

  test("fields: system names get _field, tags stays, $ fields are left out, clashes listed", () => {
    const k = s.getType("Kitchen") as GraphQLObjectType;
    const names = Object.keys(k.getFields());
    expect(names).toEqual([
      "id",
      "model",
      "status",
      "createdAt",
      "updatedAt",
      "publishedAt",
      "_version",
      "_tags",
      "_folder",
      "title",
      "size",
      "tint",
      "id_field",
      "createdAt_field",
      "status_field",
      "_tags_field",
      "tags",
      "_nd",
      "sizes",
      "say__hi_",
      "legacyPost",
    ]);
    expect(k.description).toBe("Kitchen sink (model kitchen)\nNot exposed: a-b, a_b, __hidden");
    const item = s.getType("Item") as GraphQLObjectType;
    expect(item.getFields().odd_name!.description).toBe('Capa field "odd,name", type string');
    expect(k.getFields().say__hi_!.description).toBe('Capa field "say ""hi""", type string');
  });

  test("field descriptions: label only when it says more, One of for enums, the Capa line last", () => {
    const k = (s.getType("Kitchen") as GraphQLObjectType).getFields();
    expect(k.title!.description).toBe("Capa field title, type string");
    expect(k.size!.description).toBe("One of: s, m, l.\nCapa field size, type enum");
    expect(k.tint!.description).toBe("Tint colour shown on cards\nCapa field tint, type color");
    expect(k.sizes!.description).toBe("One of: x, y.\nCapa field sizes, type array of enum");
    // A relation into a readable model GraphQL leaves out is an ID that keeps its label and model part.
    expect(String(k.legacyPost!.type)).toBe("ID");
    expect(k.legacyPost!.description).toBe("Post from the old blog\nCapa field legacyPost, type relation, model blog-post");
    const item = (s.getType("Item") as GraphQLObjectType).getFields();
    expect(item.authors!.description).toBe("Capa field authors, type array of relation, model author");
    expect(item.author!.description).toBe("Capa field author, type relation, model author");
  });

  test("every field kind's type", () => {
    const item = (s.getType("Item") as GraphQLObjectType).getFields();
    const types = Object.fromEntries(Object.entries(item).map(([n, x]) => [n, String(x.type)]));
    expect(types).toMatchObject({
      title: "String",
      body: "String",
      rich: "String",
      snippet: "String",
      size: "String",
      tint: "String",
      price: "Float",
      onSale: "Boolean",
      launch: "DateTime",
      labels: "[String]",
      scores: "[Float]",
      flags: "[Boolean]",
      days: "[DateTime]",
      authors: "AuthorRelationConnection!",
      gallery: "[Media]",
      extras: "[JSON]",
      author: "Author",
      cover: "Media",
      clip: "Media",
      manual: "Media",
      meta: "JSON",
      tags: "[String]",
      odd_name: "String",
    });
    const filter = (s.getType("ItemFilter") as GraphQLInputObjectType).getFields();
    const filters = Object.fromEntries(Object.entries(filter).map(([n, x]) => [n, String(x.type)]));
    expect(filters).toMatchObject({
      id: "IDFilter",
      status: "EntryStatusFilter",
      createdAt: "DateTimeFilter",
      _tags: "StringListFilter",
      title: "StringFilter",
      size: "StringFilter",
      price: "FloatFilter",
      onSale: "BooleanFilter",
      launch: "DateTimeFilter",
      labels: "StringListFilter",
      scores: "FloatListFilter",
      flags: "BooleanListFilter",
      days: "DateTimeListFilter",
      authors: "AuthorRelationListFilter",
      gallery: "PresenceFilter",
      extras: "PresenceFilter",
      author: "AuthorRelationFilter",
      cover: "MediaFilter",
      meta: "JSONFilter",
      and: "[ItemFilter!]",
      or: "[ItemFilter!]",
      not: "ItemFilter",
    });
    expect(filters._version).toBeUndefined();
    expect(filters._folder).toBeUndefined();
    expect((s.getType("MediaKind") as GraphQLEnumType).getValues().map((v) => v.name)).toEqual([
      "image",
      "video",
      "audio",
      "document",
      "pdf",
      "file",
      "unknown",
    ]);
    const hop = (s.getType("AuthorRelationFilter") as GraphQLInputObjectType).getFields();
    expect(Object.keys(hop)).toEqual([
      "eq",
      "ne",
      "in",
      "nin",
      "exists",
      "null",
      "status",
      "createdAt",
      "updatedAt",
      "publishedAt",
      "_tags",
      "name",
      "rank",
      "mentor",
    ]);
    expect(String(hop.mentor!.type)).toBe("RelationIDFilter");
  });

  test("sort enums: system sorts, sortable fields, one hop; the relation sort has no hops", () => {
    const sort = (s.getType("ItemSort") as GraphQLEnumType).getValues().map((v) => v.name);
    expect(sort.slice(0, 8)).toEqual([
      "createdAt_ASC",
      "createdAt_DESC",
      "updatedAt_ASC",
      "updatedAt_DESC",
      "publishedAt_ASC",
      "publishedAt_DESC",
      "id_ASC",
      "id_DESC",
    ]);
    expect(sort).toContain("price_DESC");
    expect(sort).toContain("odd_name_ASC");
    expect(sort).toContain("author__name_ASC");
    expect(sort).toContain("author__createdAt_DESC");
    expect(sort).not.toContain("labels_ASC");
    expect(sort).not.toContain("authors__name_ASC");
    const rel = (s.getType("AuthorRelationSort") as GraphQLEnumType).getValues().map((v) => v.name);
    expect(rel).toEqual([
      "createdAt_ASC",
      "createdAt_DESC",
      "updatedAt_ASC",
      "updatedAt_DESC",
      "publishedAt_ASC",
      "publishedAt_DESC",
      "id_ASC",
      "id_DESC",
      "name_ASC",
      "name_DESC",
      "rank_ASC",
      "rank_DESC",
    ]);
  });

  test("me carries each model's GraphQL type name", async () => {
    const r = await f.gql(f.dev, "{ me { keyId environment models { namespace typeName can } } }");
    const rows = r.body.data.me.models as { namespace: string; typeName: string | null }[];
    expect(rows.find((m) => m.namespace === "item")!.typeName).toBe("Item");
    expect(rows.find((m) => m.namespace === "media")!.typeName).toBe("MediaModel");
    expect(rows.find((m) => m.namespace === "blog-post")!.typeName).toBeNull();
    expect(r.body.data.me.environment).toBe("development");
    const rest = await h.json("GET", "/api/me", { headers: { "x-api-key": f.dev } });
    expect(rows.map((m) => m.namespace)).toEqual(rest.body.data.models.map((m: { namespace: string }) => m.namespace));
    // Every value of GET /api/me, with typeName added to each model.
    const all = await f.gql(
      f.dev,
      `{ me { keyId name keyPrefix environment bundle surfaces scopes models { namespace id can typeName } version contract
      legacy { contract legacyRefused reason } expiresAt lastUsedAt rotatedFrom { id expiresAt } writes { enabled } tenant { id name } } }`,
    );
    const again = await h.json("GET", "/api/me", { headers: { "x-api-key": f.dev } });
    const me = all.body.data.me;
    expect({ ...me, models: me.models.map(({ typeName: _, ...m }: { typeName: string }) => m), lastUsedAt: null }).toEqual({
      ...again.body.data,
      lastUsedAt: null,
    });
  });
});

describe("schema cache", () => {
  test("built once per model-set version; a model change rebuilds it", async () => {
    const q = '{ __type(name: "Post") { fields { name } } }';
    const before = await f.gql(f.dev, q);
    expect(before.body.data.__type.fields.map((x: { name: string }) => x.name)).not.toContain("subtitle");
    const again = await f.gql(f.dev, q);
    expect(again.body).toEqual(before.body);
    const r = await h.json("PATCH", `/v2/models/${f.models.post}`, { token: f.token, body: { addFields: [{ namespace: "subtitle", type: "string" }] } });
    expect(r.status).toBe(200);
    const after = await f.gql(f.dev, q);
    expect(after.body.data.__type.fields.map((x: { name: string }) => x.name)).toContain("subtitle");
    await h.json("PATCH", `/v2/models/${f.models.post}`, {
      token: f.token,
      body: { removeIds: [r.body.fields.find((x: { namespace: string }) => x.namespace === "subtitle").id] },
    });
  });
});
