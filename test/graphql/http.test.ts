// POST and GET /api/graphql over HTTP (interface.md, "Read API" table and headers; decisions.md
// section 5): the answer headers, POST never cached, a production GET cacheable with ETag and 304
// until content or a model changes, and automatic persisted queries stored per project.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { expectRefusal, fixture, type Fixture } from "./fixture.ts";

let h: Harness;
let f: Fixture;
// The keyed Vary and Accept, which picks the Content-Type (decisions.md 12).
const GRAPHQL_VARY = "Origin, x-api-key, Svc-Version, Svc-Contract, Accept";
const sha = (q: string) => createHash("sha256").update(q).digest("hex");

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
});
afterAll(() => h.close());

const get = (key: string, params: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const qs = Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`)
    .join("&");
  return h.json("GET", `/api/graphql?${qs}`, { headers: { "x-api-key": key, ...headers } });
};

describe("headers", () => {
  test("POST: the keyed headers, X-Request-Id, never cached", async () => {
    const r = await f.gql(f.prod, "{ version }", undefined, { extensions: { svc: true } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data", "extensions"]);
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("x-request-id")).toBe(r.body.extensions.svc.requestId);
    expect(r.headers.get("svc-version")).toBe("2026-10-01");
    expect(r.headers.get("svc-contract")).toBe("1");
    expect(r.headers.get("svc-key-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers.get("vary")).toBe(GRAPHQL_VARY);
    expect(r.headers.get("etag")).toBeNull();
  });

  test("a refusal carries the same headers", async () => {
    const r = await h.json("POST", "/api/graphql", { body: { query: "{ version }" } });
    expectRefusal(r, 401, "missing_key", "authentication", { param: "x-api-key" });
    expect(r.headers.get("svc-version")).toBe("2026-10-01");
    expect(r.headers.get("svc-contract")).toBe("1");
    expect(r.headers.get("vary")).toBe(GRAPHQL_VARY);
  });

  test("a JSON body that is not application/json is refused", async () => {
    const r = await h.json("POST", "/api/graphql", {
      headers: { "x-api-key": f.dev, "content-type": "text/plain" },
      raw: JSON.stringify({ query: "{ version }" }),
    });
    expectRefusal(r, 400, "invalid_parameter", "invalid_request", { param: "Content-Type" });
  });

  test("other methods on /api/graphql are 405 mutations_not_enabled as a GraphQL refusal, with Allow", async () => {
    const r = await h.json("PUT", "/api/graphql", { headers: { "x-api-key": f.dev }, body: { query: "{ version }" } });
    expectRefusal(r, 405, "mutations_not_enabled", "method");
    expect(r.headers.get("allow")).toBe("GET, POST, OPTIONS");
  });
});

describe("GET", () => {
  const query = '{ item(first: 2, filter: { title: { in: ["Alpha", "Beta"] } }, sort: [title_ASC]) { nodes { title } } }';

  test("the same result as POST; variables and operationName as query parameters", async () => {
    const g = await get(f.dev, {
      query: "query Q($n: Int) { item(first: $n, sort: [title_ASC]) { nodes { title } } }",
      variables: { n: 2 },
      operationName: "Q",
    });
    const p = await f.gql(f.dev, "query Q($n: Int) { item(first: $n, sort: [title_ASC]) { nodes { title } } }", { n: 2 });
    expect(g.status).toBe(200);
    expect(g.body).toEqual(p.body);
    // A development key's GET is not cached.
    expect(g.headers.get("cache-control")).toBe("no-store, no-cache");
    expect(g.headers.get("etag")).toBeNull();
  });

  test("a production key's GET is cacheable: max-age 60, ETag, 304", async () => {
    const a = await get(f.prod, { query });
    expect(a.status).toBe(200);
    expect(a.body.data.item.nodes).toEqual([{ title: "Alpha" }, { title: "Beta" }]);
    expect(a.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = a.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(a.headers.get("surrogate-key")).toContain(`entry:${f.e.Alpha!.id}`);
    expect(a.headers.get("x-request-id")).toMatch(/^req_/);
    const b = await get(f.prod, { query }, { "if-none-match": etag });
    expect(b.status).toBe(304);
    expect(b.body).toBeNull();
    expect(b.headers.get("etag")).toBe(etag);
    const c = await get(f.prod, { query }, { "if-none-match": `W/${etag}` });
    expect(c.status).toBe(304);
  });

  test("publishing and model changes make the cached answer stale at once", async () => {
    const q = `{ itemById(id: "${f.e.Delta!.id}") { title price } }`;
    const a = await get(f.prod, { query: q });
    expect(a.body.data.itemById).toEqual({ title: "Delta", price: null });
    await f.patch(f.e.Delta!.id, { data: { price: 11 } });
    expect((await get(f.prod, { query: q })).body).toEqual(a.body);
    await f.publish(f.e.Delta!.id);
    const b = await get(f.prod, { query: q });
    expect(b.body.data.itemById).toEqual({ title: "Delta", price: 11 });
    expect(b.headers.get("etag")).not.toBe(a.headers.get("etag"));
    const t = '{ __type(name: "Post") { fields { name } } }';
    const before = await get(f.prod, { query: t });
    const r = await h.json("PATCH", `/v2/models/${f.models.post}`, { token: f.token, body: { addFields: [{ namespace: "lede", type: "string" }] } });
    const after = await get(f.prod, { query: t });
    expect(after.body.data.__type.fields.length).toBe(before.body.data.__type.fields.length + 1);
    await h.json("PATCH", `/v2/models/${f.models.post}`, {
      token: f.token,
      body: { removeIds: [r.body.fields.find((x: { namespace: string }) => x.namespace === "lede").id] },
    });
  });

  test("an answer with errors or svc is not cached", async () => {
    const e = await get(f.prod, { query: '{ itemById(id: "x") { id } }' });
    expect(e.status).toBe(200);
    expect(e.body.errors).toHaveLength(1);
    expect(e.headers.get("cache-control")).toBe("no-store");
    const s = await get(f.prod, { query, extensions: { svc: true } });
    expect(s.headers.get("cache-control")).toBe("no-store");
    expect(s.body.extensions.svc.requestId).toBe(s.headers.get("x-request-id"));
  });

  test("an answer holding me is not cached (it differs per key)", async () => {
    const r = await get(f.prod, { query: "{ version me { keyId } }" });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("etag")).toBeNull();
  });

  test("a GET mutation is refused like a POST one", async () => {
    expectRefusal(await get(f.dev, { query: "mutation { x }" }), 405, "mutations_not_enabled", "method");
  });
});

describe("concurrency", () => {
  test("a document over the in-flight limits is refused whole with 429 and Retry-After", async () => {
    const keyId = (await f.gql(f.dev, "{ me { keyId } }")).body.data.me.keyId;
    const inFlight = h.capa.services.limits.inFlight;
    const held = Array.from({ length: 4 }, () => inFlight.acquire([[`k:${keyId}`, 4, "for one key"]]));
    try {
      const r = await f.gql(f.dev, "{ item { nodes { id } } }");
      expectRefusal(r, 429, "rate_limit_exceeded", "rate_limited");
      expect(r.headers.get("retry-after")).toBe("1");
      // A document with no entry read takes no slot.
      expect((await f.gql(f.dev, "{ version }")).status).toBe(200);
    } finally {
      for (const release of held) release();
    }
    expect((await f.gql(f.dev, "{ item { nodes { id } } }")).status).toBe(200);
  });
});

describe("automatic persisted queries", () => {
  const query = "{ item(first: 1, sort: [title_ASC]) { nodes { title } } }";
  const ext = (q = query) => ({ persistedQuery: { version: 1, sha256Hash: sha(q) } });

  test("unknown hash, then registered with its text, then the hash alone works (POST and GET)", async () => {
    const miss = await f.gql(f.dev, "", undefined, { query: undefined, extensions: ext() });
    expectRefusal(miss, 400, "persisted_query_not_found", "invalid_request", { message: "PersistedQueryNotFound" });
    const reg = await f.gql(f.dev, query, undefined, { extensions: ext() });
    expect(reg.status).toBe(200);
    expect(reg.body.data.item.nodes).toEqual([{ title: "Alpha" }]);
    const hit = await h.json("POST", "/api/graphql", { headers: { "x-api-key": f.dev }, body: { extensions: ext() } });
    expect(hit.body).toEqual(reg.body);
    const viaGet = await get(f.prod, { extensions: ext() });
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers.get("cache-control")).toBe("public, max-age=60");
    expect(viaGet.headers.get("etag")).toBeTruthy();
  });

  test("a query whose hash does not match is refused", async () => {
    const r = await f.gql(f.dev, query, undefined, { extensions: ext("{ version }") });
    expectRefusal(r, 400, "invalid_parameter", "invalid_request", { param: "extensions.persistedQuery.sha256Hash" });
    const bad = await f.gql(f.dev, query, undefined, { extensions: { persistedQuery: { version: 2, sha256Hash: "x" } } });
    expectRefusal(bad, 400, "invalid_parameter", "invalid_request", { param: "extensions.persistedQuery" });
  });

  test("an invalid document is not registered", async () => {
    const q = "{ nope }";
    expectRefusal(await f.gql(f.dev, q, undefined, { extensions: ext(q) }), 400, "graphql_validation_failed", "invalid_request");
    expectRefusal(await f.gql(f.dev, "", undefined, { query: undefined, extensions: ext(q) }), 400, "persisted_query_not_found", "invalid_request");
  });

  test("stored per project: another project's key does not find it", async () => {
    const q = "{ version }";
    expect((await f.gql(f.dev, q, undefined, { extensions: ext(q) })).status).toBe(200);
    const other = await withOwner(h, "other@example.com");
    const k = await h.json("POST", "/v2/tenants/api-keys", { token: other.token, body: { scopes: ["instance:read"] } });
    const r = await h.json("POST", "/api/graphql", { headers: { "x-api-key": k.body.apiKey }, body: { extensions: ext(q) } });
    expectRefusal(r, 400, "persisted_query_not_found", "invalid_request");
    const row = h.capa.services.projects.get(f.projectId).sqlite.query("SELECT query FROM graphql_persisted_queries WHERE hash = ?").get(sha(q)) as {
      query: string;
    };
    expect(row.query).toBe(q);
  });
});
