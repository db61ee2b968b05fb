// The shared fixture of the GraphQL tests: the read-API seed (an `item` model with every field
// kind, a related `author` model, entries in both states, three keys) plus models whose names
// hit every naming rule, and helpers to send GraphQL requests and check error shapes.
import { expect } from "bun:test";
import { BASE, type Harness } from "../harness.ts";
import { seed, type Seed } from "../api/seed.ts";

export const DOCS = `${BASE}/docs/errors/`;

export interface Fixture extends Seed {
  h: Harness;
  /** Model ids by namespace. */
  models: Record<string, string>;
  /** Development key limited to the item model. */
  itemOnlyDev: string;
  /** Production key without any instance:read. */
  noRead: string;
  /** The single settings entry (published). */
  settingsId: string;
  gql(key: string, query: string, variables?: Record<string, unknown>, extra?: Record<string, unknown>): Promise<GqlAnswer>;
}

export interface GqlAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** Models whose namespaces exercise the naming rules (decisions.md 9, interface.md Naming rules). */
const NAMING_MODELS: { name: string; namespace: string; singleEntry?: boolean; fields?: unknown[] }[] = [
  { name: "Yearly report", namespace: "2024-reports" },
  { name: "Blog post (hyphen)", namespace: "blog-post" },
  { name: "Blog post (underscore)", namespace: "blog_post" },
  { name: "News item (hyphen)", namespace: "news-item" },
  { name: "News item (camel)", namespace: "newsItem" },
  { name: "Media", namespace: "media" },
  { name: "Page info", namespace: "page-info" },
  { name: "Order sort", namespace: "order-sort" },
  { name: "Entries", namespace: "entries" },
  { name: "Post", namespace: "post" },
  { name: "Site settings", namespace: "settings", singleEntry: true },
  {
    name: "Kitchen sink",
    namespace: "kitchen",
    fields: [
      { namespace: "title", type: "string", label: "Title" },
      { namespace: "size", type: "enum", label: "Size", options: { values: ["s", "m", "l"] } },
      { namespace: "tint", type: "color", label: "Tint colour shown on cards" },
      { namespace: "id", type: "string" },
      { namespace: "createdAt", type: "date" },
      { namespace: "status", type: "string" },
      { namespace: "_tags", type: "string" },
      { namespace: "tags", type: "array", arrayType: "string" },
      { namespace: "2nd", type: "number" },
      { namespace: "a-b", type: "string" },
      { namespace: "a_b", type: "string" },
      { namespace: "$secret", type: "string" },
      { namespace: "__hidden", type: "string" },
      { namespace: "sizes", type: "array", arrayType: "enum", options: { values: ["x", "y"] } },
      { namespace: 'say "hi"', type: "string" },
      { namespace: "legacyPost", type: "relation", relation: "blog-post", label: "Post from the old blog" },
    ],
  },
];

export async function fixture(h: Harness): Promise<Fixture> {
  const s = await seed(h);
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await h.json(method, path, { token: s.token, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const models: Record<string, string> = { item: s.itemModelId, author: s.authorModelId };
  for (const m of NAMING_MODELS) {
    const b = await ok("POST", "/v2/models", {
      name: m.name,
      namespace: m.namespace,
      singleEntry: m.singleEntry,
      fields: m.fields ?? [{ namespace: "title", type: "string" }],
    });
    models[m.namespace] = b.id;
  }
  const settings = await ok("POST", "/v2/model-instances", { model: "settings", data: { title: "My site" } });
  await ok("POST", `/v2/model-instances/${settings.id}/publish`);
  const itemOnlyDev = (await ok("POST", "/v2/tenants/api-keys", { scopes: [`instance:read:${s.itemModelId}`], environment: "development" })).apiKey;
  const noRead = (await ok("POST", "/v2/tenants/api-keys", { scopes: ["model:read"], environment: "production" })).apiKey;
  return {
    ...s,
    h,
    models,
    itemOnlyDev,
    noRead,
    settingsId: settings.id,
    async gql(key, query, variables, extra = {}) {
      const r = await h.json("POST", "/api/graphql", { headers: { "x-api-key": key }, body: { query, ...(variables ? { variables } : {}), ...extra } });
      return r;
    },
  };
}

/** The expected GraphQL error object of a code (message and locations checked by the caller). */
export function expectGqlError(e: any, code: string, type: string, opts: { param?: string; path?: (string | number)[]; hint?: string } = {}): void {
  expect(e.extensions.code).toBe(code);
  expect(Object.keys(e.extensions)).toEqual(["code", "type", ...(opts.param !== undefined ? ["param"] : []), "hint", "docs"]);
  expect(e.extensions.type).toBe(type);
  if (opts.param !== undefined) expect(e.extensions.param).toBe(opts.param);
  expect(typeof e.extensions.hint).toBe("string");
  if (opts.hint !== undefined) expect(e.extensions.hint).toContain(opts.hint);
  expect(e.extensions.docs).toBe(DOCS + code);
  expect(typeof e.message).toBe("string");
  if (opts.path) expect(e.path).toEqual(opts.path);
}

/** A whole-request refusal: status, `errors` and `extensions` only (no `data`), one error of `code`. */
export function expectRefusal(
  r: GqlAnswer,
  status: number,
  code: string,
  type: string,
  opts: { param?: string; hint?: string; message?: string | RegExp } = {},
): any {
  if (r.status !== status || r.body?.errors?.[0]?.extensions?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${r.status} ${JSON.stringify(r.body)}`);
  }
  expect(Object.keys(r.body)).toEqual(["errors", "extensions"]);
  expect(r.body.errors).toHaveLength(1);
  const e = r.body.errors[0];
  expectGqlError(e, code, type, opts);
  if (opts.message !== undefined) {
    if (typeof opts.message === "string") expect(e.message).toBe(opts.message);
    else expect(e.message).toMatch(opts.message);
  }
  expect(r.body.extensions.cost.budget.limit).toBe(5000);
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  return e;
}
