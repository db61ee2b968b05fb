// Caching of GET /api/entries: strong ETag and 304, Surrogate-Key, Cache-Control and Vary per
// key environment, the render cache invalidated on every publish, unpublish, delete and model
// change, and gzip/brotli above 8 KB (interface.md, Read API response headers; decisions.md
// section 4).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startApp, type Harness } from "../harness.ts";
import { expectError, seed, w, type Seed } from "./seed.ts";

let h: Harness;
let s: Seed;
let big: { id: string };
const VARY = "Origin, x-api-key, Svc-Version, Svc-Contract";

beforeAll(async () => {
  h = startApp();
  s = await seed(h);
  const text = Array.from({ length: 600 }, (_, i) => `Line ${i} of a long body with some words.`).join("\n");
  big = await s.create("item", { title: "Big", body: text });
  await s.publish(big.id);
});
afterAll(() => h.close());

const raw = (path: string, key: string, headers: Record<string, string> = {}) => h.req("GET", path, { headers: { "x-api-key": key, ...headers } });
const titles = async (key = s.prod) => (await s.get(`/api/entries/item?select=title&limit=200`, key)).body.data.map((x: { title: string }) => x.title);

describe("production answers", () => {
  test("200: strong ETag, Surrogate-Key, Cache-Control, Vary", async () => {
    const r = await raw(`/api/entries/item?sort=title&select=title&${w({ title: { in: ["Alpha", "Beta"] } })}`, s.prod);
    expect(r.status).toBe(200);
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const keyId = r.headers.get("svc-key-id");
    // The key's own tag ends the list (decisions.md 14; test/edge/tags.test.ts has the other edge headers).
    expect(r.headers.get("surrogate-key")).toBe(`project:${s.projectId} model:item entry:${s.e.Alpha.id} entry:${s.e.Beta.id} key:${keyId}`);
    expect(r.headers.get("cache-control")).toBe("public, max-age=60");
    expect(r.headers.get("vary")).toBe(VARY);
    expect(r.headers.get("svc-contract")).toBe("1");
    expect(r.headers.get("content-encoding")).toBeNull();
    // Expanded entries are in the Surrogate-Key too.
    const x = await raw(`/api/entries/item/${s.e.Beta.id}?select=author(name)`, s.prod);
    expect(x.headers.get("surrogate-key")).toBe(`project:${s.projectId} model:item model:author entry:${s.e.Beta.id} entry:${s.a.bob.id} key:${keyId}`);
    expect(x.headers.get("etag")).toMatch(/^"/);
  });

  test("If-None-Match gives 304 with no body; another tag gives 200", async () => {
    const path = `/api/entries/item?select=title`;
    const r = await raw(path, s.prod);
    const etag = r.headers.get("etag")!;
    const body = await r.text();
    for (const inm of [etag, `"nope", ${etag}`, `W/${etag}`, "*"]) {
      const n = await raw(path, s.prod, { "if-none-match": inm });
      expect({ inm, status: n.status }).toEqual({ inm, status: 304 });
      expect(await n.text()).toBe("");
      expect(n.headers.get("etag")).toBe(etag);
      expect(n.headers.get("surrogate-key")).toStartWith(`project:${s.projectId} model:item`);
      expect(n.headers.get("cache-control")).toBe("public, max-age=60");
    }
    const o = await raw(path, s.prod, { "if-none-match": '"other"' });
    expect(o.status).toBe(200);
    expect(await o.text()).toBe(body);
    // The same question answers the same bytes and tag.
    const again = await raw(path, s.prod);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(body);
  });

  test("404 entry_not_found for a well-formed id is cacheable; other errors are no-store", async () => {
    const nf = await s.get(`/api/entries/item/00000000-0000-7000-8000-000000000000`, s.prod);
    expectError(nf, 404, "entry_not_found");
    expect(nf.headers.get("cache-control")).toBe("public, max-age=60");
    expect(nf.headers.get("etag")).toBeNull();
    const draft = await s.get(`/api/entries/item/${s.e.Zeta.id}`, s.prod);
    expectError(draft, 404, "entry_not_found");
    expect(draft.headers.get("cache-control")).toBe("public, max-age=60");
    const bad = await s.get(`/api/entries/item/nope`, s.prod);
    expectError(bad, 400, "invalid_parameter");
    expect(bad.headers.get("cache-control")).toBe("no-store");
    const model = await s.get(`/api/entries/nope/00000000-0000-7000-8000-000000000000`, s.prod);
    expectError(model, 404, "model_not_found");
    expect(model.headers.get("cache-control")).toBe("no-store");
    const grammar = await s.get(`/api/entries/item?limit=0`, s.prod);
    expect(grammar.headers.get("cache-control")).toBe("no-store");
    const devNf = await s.get(`/api/entries/item/00000000-0000-7000-8000-000000000000`, s.dev);
    expectError(devNf, 404, "entry_not_found");
    expect(devNf.headers.get("cache-control")).toBe("no-store");
  });
});

describe("development answers", () => {
  test("no-store, no-cache; no ETag or Surrogate-Key; If-None-Match ignored", async () => {
    for (const path of [`/api/entries/item?select=title`, `/api/entries/item/${s.e.Alpha.id}`]) {
      const r = await raw(path, s.dev);
      expect(r.status).toBe(200);
      expect(r.headers.get("cache-control")).toBe("no-store, no-cache");
      expect(r.headers.get("etag")).toBeNull();
      expect(r.headers.get("surrogate-key")).toBeNull();
      expect(r.headers.get("vary")).toBe(VARY);
      const n = await raw(path, s.dev, { "if-none-match": "*" });
      expect(n.status).toBe(200);
    }
  });

  test("a development key sees a saved draft at once", async () => {
    await s.patch(s.e.Delta.id, { data: { body: "first" } });
    expect((await s.get(`/api/entries/item/${s.e.Delta.id}?select=body`, s.dev)).body.data.body).toBe("first");
    await s.patch(s.e.Delta.id, { data: { body: "second" } });
    expect((await s.get(`/api/entries/item/${s.e.Delta.id}?select=body`, s.dev)).body.data.body).toBe("second");
  });
});

describe("invalidation", () => {
  test("publish, unpublish and delete show on the next production read", async () => {
    const before = await titles();
    expect(before).not.toContain("Zeta");
    const one = `/api/entries/item/${s.e.Zeta.id}?select=title`;
    expectError(await s.get(one, s.prod), 404, "entry_not_found");
    const e1 = (await raw(`/api/entries/item?select=title&limit=200`, s.prod)).headers.get("etag");

    await s.publish(s.e.Zeta.id);
    expect((await titles()).sort()).toEqual([...before, "Zeta"].sort());
    expect((await s.get(one, s.prod)).body.data.title).toBe("Zeta");
    const e2 = (await raw(`/api/entries/item?select=title&limit=200`, s.prod)).headers.get("etag");
    expect(e2).not.toBe(e1);
    // A 304 against the old tag is no longer given.
    expect((await raw(`/api/entries/item?select=title&limit=200`, s.prod, { "if-none-match": e1! })).status).toBe(200);

    // Publishing a new version of a changed entry shows its new values.
    expect((await s.get(`/api/entries/item/${s.e.Eta.id}?select=title`, s.prod)).body.data.title).toBe("Eta");
    await s.publish(s.e.Eta.id);
    expect((await s.get(`/api/entries/item/${s.e.Eta.id}?select=title`, s.prod)).body.data.title).toBe("Eta v2");

    const un = await h.json("POST", `/v2/model-instances/${s.e.Zeta.id}/unpublish`, { token: s.token });
    expect(un.status).toBe(200);
    expect((await titles()).sort()).toEqual(before.map((t: string) => (t === "Eta" ? "Eta v2" : t)).sort());
    expectError(await s.get(one, s.prod), 404, "entry_not_found");

    const gone = await s.get(`/api/entries/item/${s.e.Epsilon.id}?select=title`, s.prod);
    expect(gone.status).toBe(200);
    const del = await h.json("DELETE", `/v2/model-instances/${s.e.Epsilon.id}`, { token: s.token });
    expect(del.status).toBeLessThan(300);
    expect(await titles()).not.toContain("Epsilon");
    expectError(await s.get(`/api/entries/item/${s.e.Epsilon.id}?select=title`, s.prod), 404, "entry_not_found");
  });

  test("an expanded entry's publish shows through the parent's cached answer", async () => {
    const path = `/api/entries/item/${s.e.Beta.id}?select=author(mentor(mentor(name)))`;
    const r1 = await s.get(path, s.prod);
    expect(r1.body.data.author.mentor.mentor).toBeNull();
    expect(r1.body.meta.missingReferences).toEqual([s.a.dee.id]);
    await s.publish(s.a.dee.id);
    const r2 = await s.get(path, s.prod);
    expect(r2.body.data.author.mentor.mentor).toEqual({ id: s.a.dee.id, name: "Dee" });
    expect(r2.body.meta.missingReferences).toBeUndefined();
  });

  test("a model change shows on the next read", async () => {
    const path = `/api/entries/item/${s.e.Alpha.id}`;
    const r1 = await s.get(path, s.prod);
    expect(Object.keys(r1.body.data)).not.toContain("subtitle");
    const p = await h.json("PATCH", `/v2/models/item`, { token: s.token, body: { addFields: [{ namespace: "subtitle", type: "string" }] } });
    expect(p.status).toBe(200);
    const r2 = await s.get(path, s.prod);
    expect(Object.keys(r2.body.data).slice(-2)).toEqual(["odd,name", "subtitle"]);
    expect(r2.body.data.subtitle).toBeNull();
    expect(r2.headers.get("etag")).not.toBe(r1.headers.get("etag"));
  });
});

describe("model deletion", () => {
  test("a deleted model answers model_not_found on the next read", async () => {
    const m = await h.json("POST", "/v2/models", {
      token: s.token,
      body: { name: "Temp", namespace: "temp", fields: [{ namespace: "name", type: "string" }] },
    });
    expect(m.status).toBe(201);
    const x = await s.create("temp", { name: "t" });
    await s.publish(x.id);
    const r = await s.get(`/api/entries/temp?select=name`, s.prod);
    expect(r.body.data).toEqual([{ id: x.id, name: "t" }]);
    const d = await h.json("DELETE", `/v2/models/temp`, { token: s.token, body: { namespace: "temp" } });
    expect(d.status).toBeLessThan(300);
    expectError(await s.get(`/api/entries/temp?select=name`, s.prod), 404, "model_not_found");
    expectError(await s.get(`/api/entries/temp/${x.id}`, s.prod), 404, "model_not_found");
  });
});

describe("compression above 8 KB", () => {
  const path = () => `/api/entries/item/${big.id}`;

  test("gzip and brotli for callers that accept them; identity otherwise; Vary names Accept-Encoding", async () => {
    const plain = await raw(path(), s.prod);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe(`${VARY}, Accept-Encoding`);
    const bytes = new Uint8Array(await plain.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(8 * 1024);
    const body = JSON.parse(new TextDecoder().decode(bytes));
    expect(body.data.title).toBe("Big");

    const gz = await raw(path(), s.prod, { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe(`${VARY}, Accept-Encoding`);
    const gzBytes = new Uint8Array(await gz.arrayBuffer());
    expect(gzBytes.byteLength).toBeLessThan(bytes.byteLength);
    expect(new Uint8Array(Bun.gunzipSync(gzBytes))).toEqual(bytes);
    expect(new Uint8Array(gunzipSync(gzBytes))).toEqual(bytes);
    expect(gz.headers.get("etag")).toMatch(/^"/);

    const br = await raw(path(), s.prod, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(new Uint8Array(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toEqual(bytes);

    const id = await raw(path(), s.prod, { "accept-encoding": "identity" });
    expect(id.headers.get("content-encoding")).toBeNull();
    expect(new Uint8Array(await id.arrayBuffer())).toEqual(bytes);

    // Each encoding is its own representation with its own strong tag, and each revalidates.
    const tags = [plain, gz, br].map((r) => r.headers.get("etag")!);
    expect(tags[1]).toBe(`${tags[0]!.slice(0, -1)}-gzip"`);
    expect(tags[2]).toBe(`${tags[0]!.slice(0, -1)}-br"`);
    const again = await raw(path(), s.prod, { "accept-encoding": "br", "if-none-match": tags[2]! });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-encoding")).toBeNull();
    const other = await raw(path(), s.prod, { "accept-encoding": "br", "if-none-match": tags[0]! });
    expect(other.status).toBe(200);
  });

  test("a list over 8 KB and a development key's answer compress too; small answers do not", async () => {
    const list = await raw(`/api/entries/item?limit=200`, s.dev, { "accept-encoding": "gzip" });
    expect(list.headers.get("content-encoding")).toBe("gzip");
    expect(list.headers.get("cache-control")).toBe("no-store, no-cache");
    const json = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await list.arrayBuffer()))));
    expect(json.data.some((x: { title: string }) => x.title === "Big")).toBe(true);
    const small = await raw(`/api/entries/item/${s.e.Alpha.id}`, s.prod, { "accept-encoding": "gzip, br" });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("vary")).toBe(VARY);
    expect(JSON.parse(await small.text()).data.title).toBe("Alpha");
  });
});
