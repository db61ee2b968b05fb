// GET /api/me (interface.md: Key information, the response headers table, Read API
// Authentication 4; decisions.md 9 for meta order).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { call, createModel, expectApiError, expectNoSecret, HOUR, KEYED_VARY, V1 } from "./helpers.ts";

const KEYS = "/v2/tenants/api-keys";
const FIELDS = [
  "keyId",
  "name",
  "keyPrefix",
  "environment",
  "bundle",
  "surfaces",
  "scopes",
  "models",
  "version",
  "contract",
  "legacy",
  "expiresAt",
  "lastUsedAt",
  "rotatedFrom",
  "writes",
  "tenant",
];
const READ_GROUP = ["instance:read", "model:read", "media:read", "search:read", "category:read", "type:read", "workspace:read"];
const LEGACY_SURFACES = ["/api/", "/v2/api", "/v3/api", "/v2/schema", "/v2/seo", "/v2/agent/*"];
const MINUTE = 60_000;

let h: Harness;
let token: string;
let projectId: string;
let blog: { id: string; namespace: string };
let news: { id: string; namespace: string };

const mint = async (body: Record<string, unknown>) => {
  const r = await h.json("POST", KEYS, { token, body });
  expect(r.status).toBe(201);
  return r.body;
};
const me = (secret: string, headers: Record<string, string> = {}) => call(h, "GET", "/api/me", { headers: { "x-api-key": secret, ...headers } });
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  blog = await createModel(h, token, "blog");
  news = await createModel(h, token, "news");
});
afterAll(() => h.close());

describe("GET /api/me", () => {
  test("a scoped key: every field of the Key information table, in that order", async () => {
    const expiresAt = iso(h.clock.now() + 48 * HOUR);
    const k = await mint({ name: "Storefront", environment: "development", scopes: ["instance:read", "media:read"], expiresAt });
    const r = await me(k.apiKey);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data", "meta"]);
    expect(Object.keys(r.body.data)).toEqual(FIELDS);
    expect(r.body.data).toEqual({
      keyId: k.id,
      name: "Storefront",
      keyPrefix: k.apiKey.slice(0, 12),
      environment: "development",
      bundle: "scoped",
      surfaces: ["/api/"],
      scopes: ["instance:read", "media:read"],
      models: [
        { namespace: "blog", id: blog.id, can: ["read"] },
        { namespace: "news", id: news.id, can: ["read"] },
      ],
      version: V1,
      contract: 1,
      legacy: { contract: null, legacyRefused: true, reason: "surface" },
      expiresAt,
      lastUsedAt: null,
      rotatedFrom: null,
      writes: { enabled: false },
      tenant: { id: projectId, name: "Test Project" },
    });
    expect(Object.keys(r.body.meta)).toEqual(["version", "requestId", "contract"]);
    expect(r.body.meta).toEqual({ version: V1, requestId: expect.stringMatching(/^req_/), contract: 1 });
    expect(r.headers.get("svc-version")).toBe(V1);
    expect(r.headers.get("svc-contract")).toBe("1");
    expect(r.headers.get("svc-key-id")).toBe(k.id);
    expect(r.headers.get("vary")).toBe(KEYED_VARY);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expectNoSecret(r, k.apiKey);
  });

  test("a legacy key: legacy bundle, its surfaces, mapped scopes, legacy contract 1", async () => {
    const k = await mint({ name: "Old site", permission: "write" });
    const r = await me(k.apiKey);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data)).toEqual(FIELDS);
    const write = ["read", "create", "update", "publish"];
    expect(r.body.data).toEqual({
      keyId: k.id,
      name: "Old site",
      keyPrefix: k.apiKey.slice(0, 12),
      environment: "production",
      bundle: "legacy",
      surfaces: LEGACY_SURFACES,
      scopes: [...READ_GROUP, "instance:create", "instance:update", "instance:publish", "media:create", "media:update"],
      models: [
        { namespace: "blog", id: blog.id, can: write },
        { namespace: "news", id: news.id, can: write },
      ],
      version: V1,
      contract: 1,
      legacy: { contract: 1, legacyRefused: false, reason: null },
      expiresAt: null,
      lastUsedAt: null,
      rotatedFrom: null,
      writes: { enabled: false },
      tenant: { id: projectId, name: "Test Project" },
    });
    expect(r.headers.get("svc-key-id")).toBe(k.id);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  test("models: every model for instance:read; only the granted model for instance:read:<modelId>", async () => {
    const all = await mint({ scopes: ["instance:read", "instance:*"] });
    expect((await me(all.apiKey)).body.data.models).toEqual([
      { namespace: "blog", id: blog.id, can: ["read", "create", "update", "publish", "delete"] },
      { namespace: "news", id: news.id, can: ["read", "create", "update", "publish", "delete"] },
    ]);
    const one = await mint({ scopes: [`instance:read:${blog.id}`] });
    const r = await me(one.apiKey);
    expect(r.body.data.scopes).toEqual([`instance:read:${blog.id}`]);
    expect(r.body.data.models).toEqual([{ namespace: "blog", id: blog.id, can: ["read"] }]);
    const mixed = await mint({ scopes: [`instance:read:${blog.id}`, `instance:update:${news.id}`, `instance:publish:${news.id}`] });
    expect((await me(mixed.apiKey)).body.data.models).toEqual([
      { namespace: "blog", id: blog.id, can: ["read"] },
      { namespace: "news", id: news.id, can: ["update", "publish"] },
    ]);
    // GET /api/me answers any key, even one that reads no entries.
    const none = await mint({ scopes: ["model:read"] });
    const n = await me(none.apiKey);
    expect(n.status).toBe(200);
    expect(n.body.data.models).toEqual([]);
  });

  test("lastUsedAt: null on first use, then the previous use, changing at most once a minute", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const t0 = h.clock.now();
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBeNull();
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t0));
    h.clock.advance(30_000);
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t0));
    h.clock.advance(29_000);
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t0));
    h.clock.advance(2_000); // t0 + 61 s: this use is recorded, the answer still shows the one before
    const t1 = h.clock.now();
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t0));
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t1));
    h.clock.advance(5 * MINUTE);
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t1));
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t1 + 5 * MINUTE));
    // Written to the control file in batches; the key list shows the same value.
    h.capa.keys.flush();
    const list = await h.json("GET", `${KEYS}?includeStatus=true`, { token });
    expect(list.body.data.find((x: any) => x.id === k.id).lastUsedAt).toBe(iso(t1 + 5 * MINUTE));
  });

  test("lastUsedAt counts a use on any surface (a legacy key on /v2/schema)", async () => {
    const k = await mint({ permission: "read" });
    const t0 = h.clock.now();
    expect((await call(h, "GET", "/v2/schema", { headers: { "x-api-key": k.apiKey } })).status).toBe(200);
    h.clock.advance(2 * MINUTE);
    expect((await me(k.apiKey)).body.data.lastUsedAt).toBe(iso(t0));
  });

  test("rotatedFrom names the predecessor and its expiry", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const r = await h.json("POST", `${KEYS}/${k.id}/rotate`, { token, body: { graceHours: 5 } });
    expect(r.status).toBe(201);
    const succ = await me(r.body.apiKey);
    expect(succ.body.data.rotatedFrom).toEqual({ id: k.id, expiresAt: iso(h.clock.now() + 5 * HOUR) });
    const pred = await me(k.apiKey);
    expect(pred.body.data.rotatedFrom).toBeNull();
    expect(pred.body.data.expiresAt).toBe(iso(h.clock.now() + 5 * HOUR));
  });

  test("the tenant name follows a rename at once", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    expect((await me(k.apiKey)).body.data.tenant).toEqual({ id: projectId, name: "Test Project" });
    const p = await h.json("PATCH", `/v2/projects/${projectId}`, { token, body: { name: "Renamed" } });
    expect(p.status).toBe(200);
    expect((await me(k.apiKey)).body.data.tenant).toEqual({ id: projectId, name: "Renamed" });
    await h.json("PATCH", `/v2/projects/${projectId}`, { token, body: { name: "Test Project" } });
  });

  test("without a key: 401 missing_key, no-store", async () => {
    const r = await call(h, "GET", "/api/me");
    expectApiError(r, { status: 401, type: "authentication", code: "missing_key", param: "x-api-key", keyed: true });
  });
});
