// GET /api/entries/{ns} and /{id}: the entry object, select, limit/count/parameters, one entry
// by id and what each key environment and scope sees (interface.md, Entry system fields, Read
// API; decisions.md sections 4 and 9).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { expectError, FILE, IMG1, ITEM_FIELDS, seed, SYSTEM_ORDER, VID, w, type Seed } from "./seed.ts";

let h: Harness;
let s: Seed;
beforeAll(async () => {
  h = startApp();
  s = await seed(h);
});
afterAll(() => h.close());

const titles = (r: { body: any }) => (r.body.data as { title: string }[]).map((x) => x.title);
const one = async (key: string, title: string, select: string) => {
  const r = await s.get(`/api/entries/item?${w({ title })}&select=${encodeURIComponent(select)}`, key);
  expect(r.status).toBe(200);
  expect(r.body.data).toHaveLength(1);
  return r;
};

describe("entry object", () => {
  test("system keys first in order, then customer fields in model order; a customer `tags` shadows the system tags", async () => {
    const r = await s.get(`/api/entries/item?${w({ title: "Alpha" })}`, s.prod);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data", "meta"]);
    expect(Object.keys(r.body.meta)).toEqual(["version", "requestId", "contract", "page"]);
    const x = r.body.data[0];
    expect(Object.keys(x)).toEqual([...SYSTEM_ORDER.map((k) => (k === "tags" ? "$tags" : k)), ...ITEM_FIELDS]);
    expect(x).toEqual({
      id: s.e.Alpha.id,
      model: "item",
      status: "published",
      createdAt: s.e.Alpha.createdAt,
      updatedAt: s.e.Alpha.createdAt,
      publishedAt: s.publishedAt,
      version: 1,
      $tags: ["featured", "news"],
      folder: null,
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
      authors: [s.a.ann.id],
      gallery: [IMG1],
      extras: [{ k: 1 }],
      author: s.a.ann.id,
      cover: IMG1,
      clip: VID,
      manual: FILE,
      meta: { x: 1 },
      tags: ["t1", "t2"],
      "odd,name": "odd-alpha",
    });
    expect(r.body.meta.page).toEqual({ limit: 25, next: null, prev: null });
  });

  test("a model without a customer `tags` shows the system tags as `tags`", async () => {
    const r = await s.get(`/api/entries/author/${s.a.ann.id}`, s.prod);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data)).toEqual([...SYSTEM_ORDER, "name", "rank", "mentor"]);
    expect(r.body.data.tags).toEqual(["staff"]);
    expect(r.body.data.model).toBe("author");
    expect(r.body.data.mentor).toBe(s.a.bob.id);
  });

  test("absent values read null; dates read as saved", async () => {
    const r = await s.get(`/api/entries/item/${s.e.Delta.id}`, s.prod);
    expect(r.status).toBe(200);
    for (const f of ITEM_FIELDS) if (f !== "title") expect(r.body.data[f]).toBeNull();
    const b = await s.get(`/api/entries/item/${s.e.Beta.id}`, s.prod);
    expect(b.body.data.launch).toBe("2025-12-31T23:00:00Z");
    expect(b.body.data.days).toEqual(["2026-01-01T01:00:00+02:00"]);
    expect(b.body.data.labels).toEqual([]);
    expect(b.body.data.body).toBe("");
  });
});

describe("select", () => {
  test("plain names return id plus them, in model order", async () => {
    const r = await one(s.prod, "Alpha", "price,title");
    expect(r.body.data[0]).toEqual({ id: s.e.Alpha.id, title: "Alpha", price: 10 });
    expect(Object.keys(r.body.data[0])).toEqual(["id", "title", "price"]);
  });

  test("`$` names are system keys; `tags` is the customer field and `$tags` the system tags", async () => {
    const r = await one(s.prod, "Alpha", "tags,$tags,$createdAt,$model,$status,$version,$folder,$updatedAt,$publishedAt");
    expect(Object.keys(r.body.data[0])).toEqual(["id", "model", "status", "createdAt", "updatedAt", "publishedAt", "version", "$tags", "folder", "tags"]);
    expect(r.body.data[0].$tags).toEqual(["featured", "news"]);
    expect(r.body.data[0].tags).toEqual(["t1", "t2"]);
    const plain = await one(s.prod, "Alpha", "createdAt,version");
    expect(plain.body.data[0]).toEqual({ id: s.e.Alpha.id, createdAt: s.e.Alpha.createdAt, version: 1 });
    const a = await s.get(`/api/entries/author/${s.a.ann.id}?select=tags,_tags`, s.prod);
    expect(a.body.data).toEqual({ id: s.a.ann.id, tags: ["staff"] });
  });

  test("a quoted name with a comma; doubled quotes inside quotes", async () => {
    const r = await one(s.prod, "Alpha", '"odd,name",title');
    expect(r.body.data[0]).toEqual({ id: s.e.Alpha.id, title: "Alpha", "odd,name": "odd-alpha" });
    const bare = await s.get(`/api/entries/item?select=${encodeURIComponent("odd,name")}`, s.prod);
    expectError(bare, 400, "unknown_field");
    const q = await s.get(`/api/entries/item?select=${encodeURIComponent('"ti""tle"')}`, s.prod);
    expect(expectError(q, 400, "unknown_field").message).toContain('ti"tle');
  });

  test("`*` is everything; `*` with an expansion; `id` is always returned", async () => {
    const all = await one(s.prod, "Alpha", "*");
    expect(Object.keys(all.body.data[0])).toEqual([...SYSTEM_ORDER.map((k) => (k === "tags" ? "$tags" : k)), ...ITEM_FIELDS]);
    const exp = await one(s.prod, "Alpha", "*,author(name)");
    expect(exp.body.data[0].author).toEqual({ id: s.a.ann.id, name: "Ann" });
    expect(exp.body.data[0].title).toBe("Alpha");
    const id = await one(s.prod, "Alpha", "id");
    expect(id.body.data[0]).toEqual({ id: s.e.Alpha.id });
    const sys = await one(s.prod, "Alpha", "$createdAt");
    expect(Object.keys(sys.body.data[0])).toEqual(["id", "createdAt"]);
  });

  test("relation expansion of a single relation and a list, up to 3 levels", async () => {
    const r = await one(s.dev, "Beta", "authors(name,rank),author(mentor(mentor(name)))");
    expect(r.body.data[0]).toEqual({
      id: s.e.Beta.id,
      authors: [
        { id: s.a.ann.id, name: "Ann", rank: 1 },
        { id: s.a.bob.id, name: "Bob", rank: 2 },
      ],
      author: { id: s.a.bob.id, mentor: { id: s.a.cid.id, mentor: { id: s.a.dee.id, name: "Dee" } } },
    });
    expect(r.body.meta.missingReferences).toBeUndefined();
    // dee is a draft: left out for production, named in meta.missingReferences.
    const p = await one(s.prod, "Beta", "author(mentor(mentor(name)))");
    expect(p.body.data[0].author).toEqual({ id: s.a.bob.id, mentor: { id: s.a.cid.id, mentor: null } });
    expect(Object.keys(p.body.meta)).toEqual(["version", "requestId", "contract", "page", "missingReferences"]);
    expect(p.body.meta.missingReferences).toEqual([s.a.dee.id]);
    // Un-expanded relations stay ids.
    const ids = await one(s.prod, "Beta", "author,authors");
    expect(ids.body.data[0]).toEqual({ id: s.e.Beta.id, authors: [s.a.ann.id, s.a.bob.id], author: s.a.bob.id });
  });

  test("a fourth level, expanding a non-relation or a system key, and unknown names are refused", async () => {
    const deep = await s.get(`/api/entries/item?select=${encodeURIComponent("author(mentor(mentor(mentor(name))))")}`, s.prod);
    expect(expectError(deep, 400, "invalid_select").param).toBe("select");
    expect(deep.body.error.hint).toContain("select=");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent("title(x)")}`, s.prod), 400, "invalid_select");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent("cover(url)")}`, s.prod), 400, "invalid_select");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent("$id(x)")}`, s.prod), 400, "invalid_select");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent('"open')}`, s.prod), 400, "invalid_select");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent("author(name")}`, s.prod), 400, "invalid_select");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent("title,,price")}`, s.prod), 400, "invalid_select");
    const u = expectError(await s.get(`/api/entries/item?select=nope`, s.prod), 400, "unknown_field");
    expect(u.param).toBe("select");
    expectError(await s.get(`/api/entries/item?select=${encodeURIComponent("author(nope)")}`, s.prod), 400, "unknown_field");
    expectError(await s.get(`/api/entries/item?select=$nope`, s.prod), 400, "unknown_field");
  });

  test("select on one entry by id", async () => {
    const r = await s.get(`/api/entries/item/${s.e.Alpha.id}?select=title,author(name)`, s.prod);
    expect(r.body.data).toEqual({ id: s.e.Alpha.id, title: "Alpha", author: { id: s.a.ann.id, name: "Ann" } });
    expect(Object.keys(r.body.meta)).toEqual(["version", "requestId", "contract"]);
  });
});

describe("parameters", () => {
  test("limit must be 1 to 200", async () => {
    for (const v of ["0", "201", "abc", "-1", "1.5", ""]) {
      const e = expectError(await s.get(`/api/entries/item?limit=${v}`, s.prod), 400, "invalid_limit");
      expect(e.param).toBe("limit");
    }
    const r = await s.get(`/api/entries/item?limit=2`, s.prod);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.meta.page.limit).toBe(2);
    expect((await s.get(`/api/entries/item?limit=200`, s.prod)).status).toBe(200);
  });

  test("count=true adds meta.count, the total matching", async () => {
    const r = await s.get(`/api/entries/item?count=true&limit=1`, s.prod);
    expect(r.body.meta.count).toBe(6);
    expect(Object.keys(r.body.meta)).toEqual(["version", "requestId", "contract", "page", "count"]);
    const d = await s.get(`/api/entries/item?count=true&limit=1&${w({ price: { gte: 10 } })}`, s.dev);
    expect(d.body.meta.count).toBe(3);
    const f = await s.get(`/api/entries/item?count=false`, s.prod);
    expect(f.body.meta.count).toBeUndefined();
    expectError(await s.get(`/api/entries/item?count=yes`, s.prod), 400, "invalid_parameter");
  });

  test("after with before is invalid_parameter", async () => {
    const first = await s.get(`/api/entries/item?limit=1`, s.prod);
    const e = expectError(await s.get(`/api/entries/item?after=${first.body.meta.page.next}&before=end`, s.prod), 400, "invalid_parameter");
    expect(e.hint).toBeTruthy();
  });

  test("a malformed id is invalid_parameter with the UUID hint; unknown ids and models are 404", async () => {
    const e = expectError(await s.get(`/api/entries/item/not-a-uuid`, s.prod), 400, "invalid_parameter");
    expect(e.param).toBe("id");
    expect(e.hint).toContain("UUID");
    expectError(await s.get(`/api/entries/item/00000000-0000-7000-8000-000000000000`, s.prod), 404, "entry_not_found");
    expectError(await s.get(`/api/entries/nope`, s.prod), 404, "model_not_found");
    expectError(await s.get(`/api/entries/nope/${s.e.Alpha.id}`, s.prod), 404, "model_not_found");
    // An entry of another model is not found through this model.
    expectError(await s.get(`/api/entries/item/${s.a.ann.id}`, s.prod), 404, "entry_not_found");
    // Upper-case UUIDs are the same id.
    const up = await s.get(`/api/entries/item/${s.e.Alpha.id.toUpperCase()}?select=title`, s.prod);
    expect(up.body.data).toEqual({ id: s.e.Alpha.id, title: "Alpha" });
  });
});

describe("visibility", () => {
  test("a production key reads published copies only", async () => {
    const r = await s.get(`/api/entries/item?select=title,price`, s.prod);
    expect(titles(r)).toEqual(["Epsilon", "Delta", "gamma", "Eta", "Beta", "Alpha"]);
    expectError(await s.get(`/api/entries/item/${s.e.Zeta.id}`, s.prod), 404, "entry_not_found");
  });

  test("a changed entry: published values and the published version's save time for production; the draft for development", async () => {
    const p = await s.get(`/api/entries/item/${s.e.Eta.id}?select=*`, s.prod);
    expect(p.body.data).toMatchObject({ status: "changed", title: "Eta", price: 40, version: 1, updatedAt: s.e.Eta.createdAt, publishedAt: s.publishedAt });
    const d = await s.get(`/api/entries/item/${s.e.Eta.id}?select=*`, s.dev);
    expect(d.body.data).toMatchObject({ status: "changed", title: "Eta v2", price: 1, version: 2, updatedAt: s.etaEditedAt, publishedAt: s.publishedAt });
    // The development key also reads drafts that were never published.
    const z = await s.get(`/api/entries/item/${s.e.Zeta.id}`, s.dev);
    expect(z.body.data).toMatchObject({ status: "draft", title: "Zeta", publishedAt: null, updatedAt: s.e.Zeta.createdAt });
  });

  test("publishing is not a save: a published-only entry shows one updatedAt to both environments", async () => {
    const p = await s.get(`/api/entries/item/${s.e.Alpha.id}?select=$updatedAt`, s.prod);
    const d = await s.get(`/api/entries/item/${s.e.Alpha.id}?select=$updatedAt`, s.dev);
    expect(p.body.data.updatedAt).toBe(s.e.Alpha.createdAt);
    expect(d.body.data.updatedAt).toBe(s.e.Alpha.createdAt);
  });

  test("filters and sorts use the copy the key sees (values and updatedAt)", async () => {
    expect(titles(await s.get(`/api/entries/item?${w({ title: "Eta" })}`, s.prod))).toEqual(["Eta"]);
    expect(titles(await s.get(`/api/entries/item?${w({ title: "Eta v2" })}`, s.prod))).toEqual([]);
    expect(titles(await s.get(`/api/entries/item?${w({ title: "Eta" })}`, s.dev))).toEqual([]);
    expect(titles(await s.get(`/api/entries/item?${w({ title: "Eta v2" })}`, s.dev))).toEqual(["Eta v2"]);
    expect(titles(await s.get(`/api/entries/item?sort=price&${w({ price: { exists: true } })}`, s.prod))).toEqual(["gamma", "Alpha", "Beta", "Eta"]);
    expect(titles(await s.get(`/api/entries/item?sort=price&${w({ price: { exists: true } })}`, s.dev))).toEqual(["Eta v2", "gamma", "Alpha", "Beta", "Zeta"]);
    expect(titles(await s.get(`/api/entries/item?sort=-$updatedAt`, s.prod))).toEqual(["Epsilon", "Delta", "gamma", "Eta", "Beta", "Alpha"]);
    expect(titles(await s.get(`/api/entries/item?sort=-$updatedAt`, s.dev))).toEqual(["Eta v2", "Zeta", "Epsilon", "Delta", "gamma", "Beta", "Alpha"]);
    expect(titles(await s.get(`/api/entries/item?${w({ $updatedAt: { gt: s.e.Zeta.createdAt } })}`, s.prod))).toEqual([]);
    expect(titles(await s.get(`/api/entries/item?${w({ $updatedAt: { gt: s.e.Zeta.createdAt } })}`, s.dev))).toEqual(["Eta v2"]);
    expect(titles(await s.get(`/api/entries/item?${w({ $updatedAt: s.e.Eta.createdAt })}`, s.prod))).toEqual(["Eta"]);
  });

  test("a key limited to one model: scope_missing on another; relations into it are left out and named", async () => {
    const e = expectError(await s.get(`/api/entries/author`, s.itemOnly), 403, "scope_missing");
    expect(e.hint).toContain(s.authorModelId);
    expectError(await s.get(`/api/entries/author/${s.a.ann.id}`, s.itemOnly), 403, "scope_missing");
    const r = await s.get(`/api/entries/item?${w({ title: "Beta" })}&select=title,author(name),authors(name)`, s.itemOnly);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ id: s.e.Beta.id, title: "Beta", authors: [], author: null }]);
    expect([...r.body.meta.missingReferences].sort()).toEqual([s.a.ann.id, s.a.bob.id].sort());
    // Ids of the unreadable model still filter by id, but cannot be hopped into.
    expect(titles(await s.get(`/api/entries/item?${w({ author: s.a.ann.id })}`, s.itemOnly))).toEqual(["Epsilon", "Alpha"]);
    expectError(await s.get(`/api/entries/item?${w({ "author.name": "Ann" })}`, s.itemOnly), 400, "unknown_field");
    expectError(await s.get(`/api/entries/item?sort=author.name`, s.itemOnly), 400, "unknown_field");
  });

  test("a key without instance:read is scope_missing", async () => {
    const k = await h.json("POST", "/v2/tenants/api-keys", { token: s.token, body: { scopes: ["model:read"], environment: "production" } });
    expect(k.status).toBe(201);
    expectError(await s.get(`/api/entries/item`, k.body.apiKey), 403, "scope_missing");
  });
});
