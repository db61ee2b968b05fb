// The shared fixture of the read-API tests (test/api/*.test.ts): an `item` model with every
// field kind (plus a customer field named `tags` and one named `odd,name`), a related `author`
// model with a self relation, a fixed set of entries and three keys. Each test file calls
// seed() once on its own app.
import { expect } from "bun:test";
import { withOwner, type Harness } from "../harness.ts";

export const IMG1 = { id: "img_1", url: "https://cdn.example.com/1.png", alt: "One", type: "image", width: 10, height: 20 };
export const IMG2 = { id: "img_2", url: "https://cdn.example.com/2.png", alt: "Two", type: "image", width: 30, height: 40 };
export const VID = { id: "vid_1", url: "https://cdn.example.com/v.mp4", alt: null, type: "video", width: 1920, height: 1080 };
export const FILE = { id: "file_1", url: "https://cdn.example.com/f.pdf", alt: "Manual", type: "pdf", width: null, height: null };

/** The item model's fields, in model order. */
export const ITEM_FIELDS = [
  "title",
  "body",
  "rich",
  "snippet",
  "size",
  "tint",
  "price",
  "onSale",
  "launch",
  "labels",
  "scores",
  "flags",
  "days",
  "authors",
  "gallery",
  "extras",
  "author",
  "cover",
  "clip",
  "manual",
  "meta",
  "tags",
  "odd,name",
] as const;

export const SYSTEM_ORDER = ["id", "model", "status", "createdAt", "updatedAt", "publishedAt", "version", "tags", "folder"];

export interface Seed {
  token: string;
  projectId: string;
  itemModelId: string;
  authorModelId: string;
  /** Production key with instance:read. */
  prod: string;
  /** Development key with instance:read. */
  dev: string;
  /** Production key with instance:read:<item model id> only. */
  itemOnly: string;
  /** Entries by title (as created; Eta's draft title is later "Eta v2"). */
  e: Record<string, { id: string; createdAt: string }>;
  /** Authors by name. */
  a: Record<string, { id: string }>;
  /** Times: publish of the first batch, and the save of Eta's second version. */
  publishedAt: string;
  etaEditedAt: string;
  /** Helpers bound to the app. */
  create(model: string, data: Record<string, unknown>, tags?: string[]): Promise<{ id: string; createdAt: string }>;
  patch(id: string, body: Record<string, unknown>): Promise<void>;
  publish(id: string): Promise<void>;
  get(path: string, key: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
}

export async function seed(h: Harness): Promise<Seed> {
  const { token, project } = await withOwner(h);
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await h.json(method, path, { token, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const authorModel = await ok("POST", "/v2/models", {
    name: "Author",
    namespace: "author",
    fields: [
      { namespace: "name", type: "string" },
      { namespace: "rank", type: "number" },
      { namespace: "mentor", type: "relation", relation: "author" },
    ],
  });
  const itemModel = await ok("POST", "/v2/models", {
    name: "Item",
    namespace: "item",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "body", type: "markdown" },
      { namespace: "rich", type: "html" },
      { namespace: "snippet", type: "code" },
      { namespace: "size", type: "enum", options: { values: ["s", "m", "l"] } },
      { namespace: "tint", type: "color" },
      { namespace: "price", type: "number" },
      { namespace: "onSale", type: "true_false" },
      { namespace: "launch", type: "date" },
      { namespace: "labels", type: "array", arrayType: "string" },
      { namespace: "scores", type: "array", arrayType: "number" },
      { namespace: "flags", type: "array", arrayType: "true_false" },
      { namespace: "days", type: "array", arrayType: "date" },
      { namespace: "authors", type: "array", arrayType: "relation", relation: "author" },
      { namespace: "gallery", type: "array", arrayType: "image" },
      { namespace: "extras", type: "array", arrayType: "mixed" },
      { namespace: "author", type: "relation", relation: "author" },
      { namespace: "cover", type: "image" },
      { namespace: "clip", type: "video" },
      { namespace: "manual", type: "file" },
      { namespace: "meta", type: "mixed" },
      { namespace: "tags", type: "array", arrayType: "string" },
      { namespace: "odd,name", type: "string" },
    ],
  });
  expect(itemModel.fields.map((f: { namespace: string }) => f.namespace)).toEqual([...ITEM_FIELDS]);

  const create: Seed["create"] = async (model, data, tags) => {
    h.clock.advance(1000);
    const b = await ok("POST", "/v2/model-instances", { model, data, ...(tags ? { tags } : {}) });
    return { id: b.id, createdAt: b.createdAt };
  };
  const patch: Seed["patch"] = async (id, body) => {
    await ok("PATCH", `/v2/model-instances/${id}`, body);
  };
  const publish: Seed["publish"] = async (id) => {
    await ok("POST", `/v2/model-instances/${id}/publish`);
  };

  // Authors: dee stays a draft; cid -> dee, bob -> cid, ann -> bob.
  const dee = await create("author", { name: "Dee", rank: 4 });
  const cid = await create("author", { name: "Cid", rank: 3, mentor: dee.id });
  const bob = await create("author", { name: "Bob", rank: 2, mentor: cid.id });
  const ann = await create("author", { name: "Ann", rank: 1, mentor: bob.id }, ["staff"]);
  for (const x of [cid, bob, ann]) await publish(x.id);

  const e: Seed["e"] = {};
  e.Alpha = await create(
    "item",
    {
      title: "Alpha",
      body: "# Alpha",
      rich: "<p>Alpha</p>",
      snippet: "const a = 1;",
      size: "s",
      tint: "#ff0000",
      price: 10,
      onSale: true,
      launch: "2026-01-01",
      labels: ["red", "blue"],
      scores: [1, 2],
      flags: [true],
      days: ["2026-01-01"],
      authors: [ann.id],
      gallery: [IMG1],
      extras: [{ k: 1 }],
      author: ann.id,
      cover: IMG1,
      clip: VID,
      manual: FILE,
      meta: { x: 1 },
      tags: ["t1", "t2"],
      "odd,name": "odd-alpha",
    },
    ["featured", "news"],
  );
  e.Beta = await create(
    "item",
    {
      title: "Beta",
      body: "",
      rich: "<p>Beta</p>",
      snippet: "",
      size: "m",
      tint: "#00ff00",
      price: 20,
      onSale: false,
      launch: "2025-12-31T23:00:00Z",
      labels: [],
      scores: [2, 3],
      flags: [false],
      days: ["2026-01-01T01:00:00+02:00"],
      authors: [ann.id, bob.id],
      gallery: [],
      extras: [],
      author: bob.id,
      cover: IMG2,
      clip: null,
      manual: null,
      meta: null,
      tags: [],
      "odd,name": "odd-beta",
    },
    ["news"],
  );
  e.Eta = await create("item", { title: "Eta", price: 40 });
  e.gamma = await create("item", {
    title: "gamma",
    body: "gamma body",
    size: "l",
    tint: "#0000ff",
    price: 5.5,
    onSale: true,
    launch: "2026-06-15T12:30:00.500Z",
    labels: ["blue"],
    scores: [3],
    flags: [true, false],
    days: ["2026-06-15", "2026-01-01"],
    authors: [],
    meta: { nested: [1] },
    tags: ["t2"],
  });
  e.Delta = await create("item", { title: "Delta" });
  e.Epsilon = await create("item", {
    title: "Epsilon",
    body: "Alpha in body",
    price: null,
    launch: "2026-01-01T00:00:00+00:00",
    labels: ["Red"],
    author: ann.id,
    meta: "text",
  });
  e.Zeta = await create("item", { title: "Zeta", price: 30, onSale: false, launch: "2027-03-01" });
  h.clock.advance(60_000);
  const publishedAt = new Date(h.clock.now()).toISOString();
  for (const t of ["Alpha", "Beta", "Eta", "gamma", "Delta", "Epsilon"]) await publish(e[t]!.id);
  h.clock.advance(60_000);
  const etaEditedAt = new Date(h.clock.now()).toISOString();
  await patch(e.Eta.id, { data: { title: "Eta v2", price: 1 } });

  const mint = async (body: Record<string, unknown>) => (await ok("POST", "/v2/tenants/api-keys", body)).apiKey as string;
  const prod = await mint({ scopes: ["instance:read"], environment: "production" });
  const dev = await mint({ scopes: ["instance:read"], environment: "development" });
  const itemOnly = await mint({ scopes: [`instance:read:${itemModel.id}`], environment: "production" });

  return {
    token,
    projectId: project.id,
    itemModelId: itemModel.id,
    authorModelId: authorModel.id,
    prod,
    dev,
    itemOnly,
    e,
    a: { ann, bob, cid, dee },
    publishedAt,
    etaEditedAt,
    create,
    patch,
    publish,
    get: (path, key, headers = {}) => h.json("GET", path, { headers: { "x-api-key": key, ...headers } }),
  };
}

/** `?where=` for a JSON value. */
export const w = (v: unknown) => `where=${encodeURIComponent(JSON.stringify(v))}`;

/** Asserts the /api error envelope and returns the error object. */
export function expectError(r: { status: number; body: any }, status: number, code: string) {
  if (r.status !== status || r.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${r.status} ${JSON.stringify(r.body)}`);
  }
  expect(Object.keys(r.body)).toEqual(["error", "meta"]);
  expect(typeof r.body.error.type).toBe("string");
  expect(typeof r.body.error.message).toBe("string");
  expect(r.body.error.docs).toEndWith(`/docs/errors/${code}`);
  expect(Object.keys(r.body.meta)).toEqual(["version", "contract", "requestId"]);
  return r.body.error;
}

/** Compares two values the way the list order does: null last handled by the caller. */
function cmp(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The list order of decisions.md: keys in order, `-` descending, nulls last in both directions,
 * ties broken by id in the direction of the last key. `value(entry, key)` reads a sort value.
 */
export function specOrder<T extends { id: string }>(rows: T[], keys: { desc: boolean; value: (r: T) => unknown }[]): T[] {
  const lastDesc = keys[keys.length - 1]!.desc;
  return [...rows].sort((p, q) => {
    for (const k of keys) {
      const a = k.value(p);
      const b = k.value(q);
      const an = a === null || a === undefined;
      const bn = b === null || b === undefined;
      if (an && bn) continue;
      if (an) return 1;
      if (bn) return -1;
      const c = cmp(a, b);
      if (c !== 0) return k.desc ? -c : c;
    }
    const c = cmp(p.id, q.id);
    return lastDesc ? -c : c;
  });
}

/** A date value as an instant string that sorts as text. */
export const instant = (v: unknown) => (typeof v === "string" ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v).toISOString() : null);
