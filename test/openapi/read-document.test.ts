// GET /api/openapi.json (decisions.md 12): the read API as one key sees it, valid OpenAPI 3.1,
// one entry schema per readable model typed from the field table, answered like a cached
// production read; real entry answers fit the schemas it prints; a revoked key is refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import { startApp, type Harness } from "../harness.ts";
import { seed, ITEM_FIELDS, type Seed } from "../api/seed.ts";
import { call, expectApiError, KEYED_VARY, V1 } from "../api/helpers.ts";

let h: Harness;
let sd: Seed;
const doc = async (key: string, headers: Record<string, string> = {}) => call(h, "GET", "/api/openapi.json", { headers: { "x-api-key": key, ...headers } });
const v2 = (method: string, path: string, body?: unknown) => h.json(method, path, { token: sd.token, body });

beforeAll(async () => {
  h = startApp();
  sd = await seed(h);
});
afterAll(() => h.close());

const FIXED = [
  "Error",
  "GraphqlRequest",
  "GraphqlResult",
  "KeyInfo",
  "Media",
  "Meta",
  "OpenApiDocument",
  "PreviewInfo",
  "SitePage",
  "VersionEntry",
  "VersionsMeta",
];
const FIXED_PATHS = [
  "/api/versions",
  "/api/me",
  "/api/entries/{ns}",
  "/api/entries/{ns}/{id}",
  "/api/graphql",
  "/api/pages",
  "/api/pages/{page}",
  "/api/preview",
  "/api/openapi.json",
];
const nullable = (schema: object, description: string) => ({ anyOf: [schema, { type: "null" }], description });

describe("a key that reads every model", () => {
  test("200, valid OpenAPI 3.1, the key's version and contract, the keyed headers of a cached production read", async () => {
    const r = await doc(sd.prod);
    expect(r.status).toBe(200);
    const verdict = await new Validator().validate(r.body);
    expect([verdict.valid, verdict.errors]).toEqual([true, undefined]);
    expect(r.body.openapi).toBe("3.1.0");
    expect(r.body.info).toEqual({
      title: "Capa read API",
      version: V1,
      description: `The read API as this key sees it: version ${V1}, contract 1, 2 readable model(s).`,
      "x-svc-version": V1,
      "x-svc-contract": 1,
    });
    const me = await call(h, "GET", "/api/me", { headers: { "x-api-key": sd.prod } });
    expect({
      type: r.headers.get("content-type"),
      version: r.headers.get("svc-version"),
      contract: r.headers.get("svc-contract"),
      key: r.headers.get("svc-key-id"),
      vary: r.headers.get("vary"),
      cache: r.headers.get("cache-control"),
      surrogate: r.headers.get("surrogate-key"),
    }).toEqual({
      type: "application/json",
      version: V1,
      contract: "1",
      key: me.body.data.keyId,
      vary: `${KEYED_VARY}, Accept-Encoding`,
      cache: "public, max-age=60",
      // Tagged like GraphQL answers (docs/scaling.md): the schema tag, which every model change purges, and the key's.
      surrogate: `project:${sd.projectId} schema:${sd.projectId} model:author model:item key:${me.body.data.keyId}`,
    });
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
  });

  test("every /api route and each model's list and item paths; one schema per model", async () => {
    const { body } = await doc(sd.prod);
    expect(Object.keys(body.paths)).toEqual([...FIXED_PATHS, "/api/entries/author", "/api/entries/author/{id}", "/api/entries/item", "/api/entries/item/{id}"]);
    expect(Object.keys(body.components.schemas).sort()).toEqual([...FIXED, "Author", "Item"].sort());
    const list = body.paths["/api/entries/item"].get;
    expect(list.responses["200"].content["application/json"].schema).toEqual({
      type: "object",
      required: ["data", "meta"],
      properties: { data: { type: "array", items: { $ref: "#/components/schemas/Item" } }, meta: { $ref: "#/components/schemas/Meta" } },
    });
    expect(list.parameters.map((p: { $ref: string }) => p.$ref.split("/").pop())).toEqual([
      "SvcVersion",
      "SvcContract",
      "SvcPage",
      "SvcPath",
      "SvcSchema",
      "select",
      "where",
      "sort",
      "limit",
      "count",
      "after",
      "before",
      "preview",
    ]);
    expect(body.components.parameters.SvcVersion.schema).toEqual({ type: "string", default: V1 });
    expect(body.paths["/api/versions"].get.security).toEqual([]);
    expect(body.paths["/api/me"].get.security).toEqual([{ apiKey: [] }]);
    expect(body.components.securitySchemes).toEqual({ apiKey: { type: "apiKey", in: "header", name: "x-api-key" } });
  });

  test("fields typed from the field table: system keys first, a customer `tags` shadows the system one", async () => {
    const item = (await doc(sd.prod)).body.components.schemas.Item;
    expect(item.required).toEqual(["id"]);
    expect(Object.keys(item.properties)).toEqual([
      "id",
      "model",
      "status",
      "createdAt",
      "updatedAt",
      "publishedAt",
      "version",
      "$tags",
      "folder",
      ...ITEM_FIELDS,
    ]);
    const p = item.properties;
    expect(p.title).toEqual(nullable({ type: "string" }, "Capa field title, type string."));
    expect(p.size).toEqual(nullable({ type: "string", enum: ["s", "m", "l"] }, "Capa field size, type enum."));
    expect(p.price).toEqual(nullable({ type: "number" }, "Capa field price, type number."));
    expect(p.onSale).toEqual(nullable({ type: "boolean" }, "Capa field onSale, type true_false."));
    expect(p.scores).toEqual(nullable({ type: "array", items: { type: "number" } }, "Capa field scores, type array of number."));
    const id = { type: "string", description: "The related entry's id." };
    expect(p.author).toEqual(nullable({ anyOf: [id, { $ref: "#/components/schemas/Author" }] }, "Capa field author, type relation."));
    expect(p.authors).toEqual(
      nullable({ type: "array", items: { anyOf: [id, { $ref: "#/components/schemas/Author" }] } }, "Capa field authors, type array of relation."),
    );
    expect(p.cover).toEqual(nullable({ $ref: "#/components/schemas/Media" }, "Capa field cover, type image."));
    expect(p.gallery).toEqual(nullable({ type: "array", items: { $ref: "#/components/schemas/Media" } }, "Capa field gallery, type array of image."));
    expect(p.meta).toEqual({ description: "Capa field meta, type mixed. Any JSON value." });
    expect(p.tags).toEqual(nullable({ type: "array", items: { type: "string" } }, "Capa field tags, type array of string."));
    expect(p.$tags).toEqual({ type: "array", items: { type: "string" } });
  });

  test("real answers fit the printed schemas: a list with drafts, relations expanded, an item", async () => {
    const { body } = await doc(sd.dev);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(body, "doc");
    const fits = (path: string, answer: unknown) => {
      const at = `doc#/paths/${path.replaceAll("/", "~1")}/get/responses/200/content/application~1json/schema`;
      const validate = ajv.getSchema(at)!;
      return [validate(answer), validate.errors ?? null];
    };
    const list = await call(h, "GET", "/api/entries/item?limit=200", { headers: { "x-api-key": sd.dev } });
    expect(list.body.data.length).toBeGreaterThan(3);
    expect(fits("/api/entries/item", list.body)).toEqual([true, null]);
    const expanded = await call(h, "GET", "/api/entries/item?select=title,author(name,mentor(name)),authors(*),cover&count=true", {
      headers: { "x-api-key": sd.dev },
    });
    expect(expanded.body.data.some((e: { author: unknown }) => e.author !== null && typeof e.author === "object")).toBe(true);
    expect(fits("/api/entries/item", expanded.body)).toEqual([true, null]);
    const one = await call(h, "GET", `/api/entries/item/${sd.e.Alpha!.id}`, { headers: { "x-api-key": sd.dev } });
    expect(fits("/api/entries/item/{id}", one.body)).toEqual([true, null]);
    const authors = await call(h, "GET", "/api/entries/author", { headers: { "x-api-key": sd.dev } });
    expect(fits("/api/entries/author", authors.body)).toEqual([true, null]);
    const me = await call(h, "GET", "/api/me", { headers: { "x-api-key": sd.dev } });
    expect(fits("/api/me", me.body)).toEqual([true, null]);
    // The schema is not a rubber stamp: a title of the wrong kind does not fit.
    expect(fits("/api/entries/item/{id}", { ...one.body, data: { ...one.body.data, title: 5 } })[0]).toBe(false);
  });
});

describe("keys that read less", () => {
  test("a key limited to one model: its schema only, and relations into the other model typed as ids", async () => {
    const { status, body } = await doc(sd.itemOnly);
    expect(status).toBe(200);
    expect(Object.keys(body.components.schemas).sort()).toEqual([...FIXED, "Item"].sort());
    expect(Object.keys(body.paths)).toEqual([...FIXED_PATHS, "/api/entries/item", "/api/entries/item/{id}"]);
    const p = body.components.schemas.Item.properties;
    expect(p.author).toEqual(nullable({ type: "string", description: "The related entry's id." }, "Capa field author, type relation."));
    expect(body.info.description).toBe(`The read API as this key sees it: version ${V1}, contract 1, 1 readable model(s).`);
  });

  test("a key that reads no model gets the paths and no model schemas", async () => {
    const minted = await v2("POST", "/v2/tenants/api-keys", { scopes: ["model:read"] });
    const { status, body, headers } = await doc(minted.body.apiKey);
    expect(status).toBe(200);
    expect(Object.keys(body.paths)).toEqual(FIXED_PATHS);
    expect(Object.keys(body.components.schemas).sort()).toEqual(FIXED);
    expect(headers.get("surrogate-key")).toBe(`project:${sd.projectId} schema:${sd.projectId} key:${minted.body.id}`);
    const verdict = await new Validator().validate(body);
    expect(verdict.valid).toBe(true);
  });
});

describe("refusals", () => {
  test("a revoked key: 401 invalid_key in the /api envelope, no document", async () => {
    const minted = await v2("POST", "/v2/tenants/api-keys", { scopes: ["instance:read"] });
    expect((await doc(minted.body.apiKey)).status).toBe(200);
    expect((await v2("PATCH", `/v2/tenants/api-keys/${minted.body.id}/active`, { active: false })).status).toBe(200);
    const r = await doc(minted.body.apiKey);
    expectApiError(r, { status: 401, type: "authentication", code: "invalid_key", param: "x-api-key", keyed: true });
    expect(r.body.error.message).toBe("The API key is not valid.");
    expect(r.headers.get("etag")).toBeNull();
  });

  test("no key: 401 missing_key", async () => {
    const r = await call(h, "GET", "/api/openapi.json");
    expectApiError(r, { status: 401, type: "authentication", code: "missing_key", param: "x-api-key", keyed: true });
  });

  test("a write method: 405 mutations_not_enabled, as everywhere under /api", async () => {
    const r = await call(h, "POST", "/api/openapi.json", { headers: { "x-api-key": sd.prod } });
    expect([r.status, r.body.error.code]).toEqual([405, "mutations_not_enabled"]);
  });
});

describe("caching", () => {
  test("keys with the same grants and version share one document; If-None-Match answers 304", async () => {
    const a = await doc(sd.prod);
    const b = await doc(sd.dev);
    expect(b.text).toBe(a.text);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    const again = await doc(sd.prod, { "if-none-match": a.headers.get("etag")! });
    expect([again.status, again.text, again.headers.get("svc-key-id")]).toEqual([304, "", a.headers.get("svc-key-id")]);
    const other = await doc(sd.itemOnly);
    expect(other.headers.get("etag")).not.toBe(a.headers.get("etag"));
  });

  test("a model change makes a new document at once", async () => {
    const before = await doc(sd.prod);
    const edit = await v2("PATCH", "/v2/models/author", { addFields: [{ namespace: "website", type: "string" }] });
    expect(edit.status).toBe(200);
    const after = await doc(sd.prod);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(Object.keys(after.body.components.schemas.Author.properties).slice(-2)).toEqual(["mentor", "website"]);
    expect((await doc(sd.prod, { "if-none-match": before.headers.get("etag")! })).status).toBe(200);
  });
});
