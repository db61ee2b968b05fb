// Svc-Page / Svc-Path / Svc-Schema recording and GET /api/pages(/{page}); preview tokens
// (POST /v2/preview-tokens, GET /api/preview, ?preview= on entry reads) (interface.md, Read API;
// decisions.md section 4).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { expectError, seed, type Seed } from "./seed.ts";

let h: Harness;
let s: Seed;
beforeAll(async () => {
  h = startApp();
  s = await seed(h);
});
afterAll(() => h.close());

const now = () => new Date(h.clock.now()).toISOString();
const raw = (path: string, key: string, headers: Record<string, string> = {}) => h.req("GET", path, { headers: { "x-api-key": key, ...headers } });
const withoutRequestId = (text: string) => text.replace(/"requestId":"[^"]*"/, '"requestId":""');

describe("pages", () => {
  test("Svc-Page, Svc-Path and Svc-Schema change no byte of the answer", async () => {
    const path = `/api/entries/item?select=title&sort=title&limit=3`;
    const headers = { "svc-page": "home", "svc-path": "/", "svc-schema": "sha-1" };
    // Production: the same bytes and tag with and without (and they share one cache entry).
    const a = await raw(path, s.prod, headers);
    const b = await raw(path, s.prod);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    expect(await b.text()).toBe(await a.text());
    const c = await raw(path, s.prod, headers);
    // Every header but the per-request ones (request id, rate-limit counters) is the same too.
    const stable = (r: Response) => [...r.headers].filter(([k]) => k !== "x-request-id" && !k.startsWith("ratelimit-"));
    expect(stable(c)).toEqual(stable(b));
    // Development (never cached): the same body but for the request id.
    const d1 = await raw(path, s.dev, headers);
    const d2 = await raw(path, s.dev);
    expect(withoutRequestId(await d1.text())).toBe(withoutRequestId(await d2.text()));
    expect(d1.headers.get("cache-control")).toBe(d2.headers.get("cache-control"));
  });

  test("GET /api/pages lists the pages with paths, schemas, models, entries, queries and lastSeenAt", async () => {
    h.clock.advance(5000);
    const q1 = `/api/entries/item/${s.e.Beta.id}?select=title,author(name)`;
    const q2 = `/api/entries/item?select=title&sort=title&limit=2`;
    await raw(q1, s.prod, { "svc-page": "/blog/[slug]", "svc-path": "/blog/beta", "svc-schema": "abc123" });
    h.clock.advance(1000);
    await raw(q2, s.prod, { "svc-page": "/blog/[slug]", "svc-path": "/blog/alpha" });
    const seenAt = now();
    const r = await s.get(`/api/pages`, s.prod);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body.data.map((p: { page: string }) => p.page)).toEqual(["/blog/[slug]", "home"]);
    const blog = r.body.data[0];
    expect(Object.keys(blog)).toEqual(["page", "paths", "schemas", "models", "entries", "queries", "lastSeenAt"]);
    expect([...blog.paths].sort()).toEqual(["/blog/alpha", "/blog/beta"]);
    expect(blog.schemas).toEqual(["abc123"]);
    expect([...blog.models].sort()).toEqual(["author", "item"]);
    expect([...blog.entries].sort()).toEqual([s.e.Beta.id, s.a.bob.id, s.e.Alpha.id].sort());
    expect([...blog.queries].sort()).toEqual([q1, q2].sort());
    expect(blog.lastSeenAt).toBe(seenAt);
    const home = r.body.data[1];
    expect(home).toMatchObject({ page: "home", paths: ["/"], schemas: ["sha-1"], models: ["item"] });

    const one = await s.get(`/api/pages/${encodeURIComponent("/blog/[slug]")}`, s.prod);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(blog);
    const h2 = await s.get(`/api/pages/home`, s.dev);
    expect(h2.body.data).toEqual(home);
  });

  test("a later read merges into the page and moves lastSeenAt", async () => {
    h.clock.advance(60_000);
    await raw(`/api/entries/item?select=price&sort=title&limit=1`, s.dev, { "svc-page": "home", "svc-path": "/index" });
    const p = await s.get(`/api/pages/home`, s.prod);
    expect([...p.body.data.paths].sort()).toEqual(["/", "/index"]);
    expect(p.body.data.lastSeenAt).toBe(now());
    expect(p.body.data.queries).toContain(`/api/entries/item?select=price&sort=title&limit=1`);
  });

  test("unknown page: 404 route_not_found", async () => {
    expectError(await s.get(`/api/pages/nope`, s.prod), 404, "route_not_found");
  });

  test("unstorable values are dropped silently", async () => {
    const path = `/api/entries/item?select=title&limit=1`;
    const tab = await raw(path, s.prod, { "svc-page": "bad\tpage" });
    expect(tab.status).toBe(200);
    const long = await raw(path, s.prod, { "svc-page": "x".repeat(257) });
    expect(long.status).toBe(200);
    const latin = await raw(path, s.prod, { "svc-page": "caf\u00e9" });
    expect(latin.status).toBe(200);
    // A good page with an unstorable path and schema keeps the page only.
    await raw(path, s.prod, { "svc-page": "clean", "svc-path": "/a\tb", "svc-schema": "y".repeat(300) });
    // Svc-Path alone records nothing.
    await raw(path, s.prod, { "svc-path": "/orphan" });
    // A refused read records nothing.
    await raw(`/api/entries/item?limit=0`, s.prod, { "svc-page": "refused" });
    const r = await s.get(`/api/pages`, s.prod);
    const pages = r.body.data.map((p: { page: string }) => p.page);
    expect(pages).toEqual(["/blog/[slug]", "clean", "home"]);
    const clean = r.body.data[1];
    expect(clean.paths).toEqual([]);
    expect(clean.schemas).toEqual([]);
    expect(pages.some((p: string) => p.startsWith("x"))).toBe(false);
  });

  test("pages need instance:read", async () => {
    const k = await h.json("POST", "/v2/tenants/api-keys", { token: s.token, body: { scopes: ["model:read"] } });
    expectError(await s.get(`/api/pages`, k.body.apiKey), 403, "scope_missing");
    expectError(await h.json("GET", `/api/pages`), 401, "missing_key");
  });
});

describe("preview tokens", () => {
  const mint = (body: Record<string, unknown>) => h.json("POST", "/v2/preview-tokens", { token: s.token, body });

  test("minting: pvw_ token, default one hour, at most seven days", async () => {
    const r = await mint({ entryIds: [s.e.Zeta.id] });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["token", "expiresAt"]);
    expect(r.body.token).toMatch(/^pvw_[A-Za-z0-9_-]+$/);
    expect(r.body.expiresAt).toBe(new Date(h.clock.now() + 3600_000).toISOString());
    const week = await mint({ entryIds: [s.e.Zeta.id], expiresIn: 7 * 24 * 3600 });
    expect(week.status).toBe(201);
    expect(week.body.expiresAt).toBe(new Date(h.clock.now() + 7 * 24 * 3600_000).toISOString());
    for (const bad of [
      { entryIds: [s.e.Zeta.id], expiresIn: 7 * 24 * 3600 + 1 },
      { entryIds: [s.e.Zeta.id], expiresIn: "1h" },
      {},
      { entryIds: ["nope"] },
      { model: "nope" },
      { entryIds: [s.e.Zeta.id], other: 1 },
    ]) {
      expect((await mint(bad)).status).toBe(400);
    }
    expect((await h.json("POST", "/v2/preview-tokens", { body: { entryIds: [s.e.Zeta.id] } })).status).toBe(401);
  });

  test("GET /api/preview verifies a token", async () => {
    const t = (await mint({ entryIds: [s.e.Zeta.id, s.e.Eta.id] })).body;
    const r = await s.get(`/api/preview?token=${t.token}`, s.prod);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body.data).toEqual({ valid: true, entryIds: [s.e.Zeta.id, s.e.Eta.id], model: null, expiresAt: t.expiresAt });
    const m = (await mint({ model: "item" })).body;
    expect((await s.get(`/api/preview?token=${m.token}`, s.prod)).body.data).toEqual({ valid: true, entryIds: null, model: "item", expiresAt: m.expiresAt });
    for (const token of ["pvw_unknown", "nope", "x".repeat(500)]) {
      expect((await s.get(`/api/preview?token=${token}`, s.prod)).body.data).toEqual({ valid: false, entryIds: null, model: null, expiresAt: null });
    }
    expectError(await s.get(`/api/preview`, s.prod), 400, "invalid_parameter");
    expectError(await h.json("GET", `/api/preview?token=${t.token}`), 401, "missing_key");
  });

  test("a production read with ?preview= sees the covered drafts, uncached; expiry refuses it", async () => {
    const theta = await s.create("item", { title: "Theta" });
    const t = (await mint({ entryIds: [s.e.Zeta.id, s.e.Eta.id] })).body;
    const plain = await s.get(`/api/entries/item?select=title,price&sort=title`, s.prod);
    const titles = plain.body.data.map((x: { title: string }) => x.title);
    expect(titles).not.toContain("Zeta");
    expect(titles).toContain("Eta");

    const p = await s.get(`/api/entries/item?select=title,price,$status&sort=title&preview=${t.token}`, s.prod);
    expect(p.status).toBe(200);
    expect(p.headers.get("cache-control")).toBe("no-store");
    expect(p.headers.get("etag")).toBeNull();
    expect(p.headers.get("surrogate-key")).toBeNull();
    const seen = p.body.data.map((x: { title: string }) => x.title);
    expect(seen).toEqual(["Alpha", "Beta", "Delta", "Epsilon", "Eta v2", "Zeta", "gamma"]);
    expect(p.body.data.find((x: { title: string }) => x.title === "Zeta")).toMatchObject({ status: "draft", price: 30 });
    expect(p.body.data.find((x: { title: string }) => x.title === "Eta v2")).toMatchObject({ status: "changed", price: 1 });
    // Filters and one-entry reads see the covered draft too; an uncovered draft stays hidden.
    const f = await s.get(`/api/entries/item?select=title&where=${encodeURIComponent(JSON.stringify({ price: { lt: 2 } }))}&preview=${t.token}`, s.prod);
    expect(f.body.data.map((x: { title: string }) => x.title)).toEqual(["Eta v2"]);
    const z = await s.get(`/api/entries/item/${s.e.Zeta.id}?preview=${t.token}`, s.prod);
    expect(z.status).toBe(200);
    expect(z.body.data.updatedAt).toBe(s.e.Zeta.createdAt);
    expect(z.headers.get("cache-control")).toBe("no-store");
    expectError(await s.get(`/api/entries/item/${theta.id}?preview=${t.token}`, s.prod), 404, "entry_not_found");
    // The preview answer did not leak into the cache.
    const after = await s.get(`/api/entries/item?select=title,price&sort=title`, s.prod);
    expect(after.body.data.map((x: { title: string }) => x.title)).toEqual(titles);

    // A model token covers every draft of the model.
    const m = (await mint({ model: "item" })).body;
    const all = await s.get(`/api/entries/item?select=title&sort=title&preview=${m.token}`, s.prod);
    expect(all.body.data.map((x: { title: string }) => x.title)).toContain("Theta");

    // A covered draft has no publishedAt: it sorts last in both directions and cursors keep it.
    for (const sort of ["$publishedAt", "-$publishedAt", "$publishedAt,title"]) {
      const titles: string[] = [];
      let next: string | null = null;
      do {
        const pg = await s.get(`/api/entries/item?select=title&sort=${sort}&limit=2&preview=${t.token}${next ? `&after=${next}` : ""}`, s.prod);
        titles.push(...pg.body.data.map((x: { title: string }) => x.title));
        next = pg.body.meta.page.next;
      } while (next);
      expect({ sort, n: titles.length, distinct: new Set(titles).size, last: titles[6] }).toEqual({ sort, n: 7, distinct: 7, last: "Zeta" });
    }

    h.clock.advance(3600_000);
    const e = expectError(await s.get(`/api/entries/item?preview=${t.token}`, s.prod), 400, "invalid_parameter");
    expect(e.param).toBe("preview");
    expect((await s.get(`/api/preview?token=${t.token}`, s.prod)).body.data.valid).toBe(false);
    expectError(await s.get(`/api/entries/item?preview=pvw_garbage`, s.prod), 400, "invalid_parameter");
  });
});
