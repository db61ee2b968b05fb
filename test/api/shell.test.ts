// The /api shell every keyed read goes through (interface.md: Authentication > Read API, Errors:
// /api envelope, the response headers table, "What the service does" 5; decisions.md 1, 8, 9):
// key checks, subscription, origin, edge, scope, contract, version, unknown routes, writes,
// pre-routing refusals, host lists, and the legacy surfaces a scoped key is refused on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { setSubscription, createProject } from "../../src/domain/projects/service.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import { call, createModel, expectApiError, expectNoSecret, HOUR, KEYED_VARY, V1 } from "./helpers.ts";

const KEYS = "/v2/tenants/api-keys";
const INVALID_API_KEY = { error: "Invalid API key" };

let h: Harness;
let token: string;
let projectId: string;
let blog: { id: string; namespace: string };
/** instance:read, production. */
let reader: any;
/** model:read only. */
let modelOnly: any;
/** instance:read:<blog id> only. */
let perModel: any;
/** A legacy read key. */
let legacy: any;

const mint = async (body: Record<string, unknown>) => {
  const r = await h.json("POST", KEYS, { token, body });
  expect(r.status).toBe(201);
  return r.body;
};
const get = (path: string, headers: Record<string, string> = {}) => call(h, "GET", path, { headers });

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  blog = await createModel(h, token, "blog");
  reader = await mint({ name: "Reader", scopes: ["instance:read"] });
  modelOnly = await mint({ name: "Models", scopes: ["model:read"] });
  perModel = await mint({ name: "Blog only", scopes: [`instance:read:${blog.id}`] });
  legacy = await mint({ permission: "read" });
});
afterAll(() => h.close());

describe("missing and invalid keys", () => {
  test("no x-api-key: 401 missing_key naming the header", async () => {
    for (const headers of [{}, { "x-api-key": "" }] as Record<string, string>[]) {
      const r = await get("/api/me", headers);
      expectApiError(r, { status: 401, type: "authentication", code: "missing_key", param: "x-api-key", keyed: true });
    }
  });

  test("unknown, revoked, expired and display values get one and the same 401 invalid_key", async () => {
    const revoked = await mint({ scopes: ["instance:read"] });
    expect((await h.json("PATCH", `${KEYS}/${revoked.id}/active`, { token, body: { active: false } })).status).toBe(200);
    const expiring = await mint({ scopes: ["instance:read"], expiresAt: new Date(h.clock.now() + HOUR).toISOString() });
    expect((await get("/api/me", { "x-api-key": expiring.apiKey })).status).toBe(200);
    h.clock.advance(HOUR);
    // A display value as a client would send it: "…" travels as its UTF-8 bytes.
    const ellipsis = Buffer.from(`${reader.keyPrefix}…`, "utf8").toString("latin1");
    const values = [
      `svc_live_${"A".repeat(32)}`,
      `svc_test_${"b".repeat(32)}`,
      `pk_${"c".repeat(32)}`,
      "d".repeat(40),
      revoked.apiKey,
      expiring.apiKey,
      ellipsis,
      "svc_live_abc***",
      reader.keyPrefix,
    ];
    const errors: unknown[] = [];
    for (const secret of values) {
      const r = await get("/api/me", { "x-api-key": secret });
      expectApiError(r, { status: 401, type: "authentication", code: "invalid_key", param: "x-api-key", keyed: true });
      expectNoSecret(r, secret);
      errors.push(r.body.error);
    }
    for (const e of errors) expect(e).toEqual(errors[0]);
    // The real key still works.
    expect((await get("/api/me", { "x-api-key": reader.apiKey })).status).toBe(200);
  });
});

describe("refusals after the key is known", () => {
  test("402 subscription_required while the project has no active subscription, at once", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    expect((await get("/api/me", { "x-api-key": k.apiKey })).status).toBe(200);
    setSubscription(h.capa.services, projectId, false);
    try {
      const r = await get("/api/me", { "x-api-key": k.apiKey });
      expectApiError(r, { status: 402, type: "payment", code: "subscription_required", keyId: k.id, keyed: true });
      expectNoSecret(r, k.apiKey);
      const l = await call(h, "GET", "/v2/schema", { headers: { "x-api-key": legacy.apiKey } });
      expect(l.status).toBe(401);
      expect(l.body).toEqual(INVALID_API_KEY);
    } finally {
      setSubscription(h.capa.services, projectId, true);
    }
    expect((await get("/api/me", { "x-api-key": k.apiKey })).status).toBe(200);
  });

  test("403 origin_refused for an Origin outside the key's list; no Origin passes", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    await h.json("PATCH", `${KEYS}/${k.id}/allowed-origins`, { token, body: { allowedOrigins: ["https://shop.example.com"] } });
    const r = await get("/api/me", { "x-api-key": k.apiKey, origin: "https://evil.example.com" });
    expectApiError(r, { status: 403, type: "permission", code: "origin_refused", param: "Origin", keyId: k.id, keyed: true });
    expectNoSecret(r, k.apiKey);
    expect((await get("/api/me", { "x-api-key": k.apiKey, origin: "https://shop.example.com" })).status).toBe(200);
    expect((await get("/api/me", { "x-api-key": k.apiKey })).status).toBe(200);
  });

  test("403 scope_missing on an entries read for a key with only model:read; the hint names instance:read", async () => {
    const r = await get("/api/entries/blog", { "x-api-key": modelOnly.apiKey });
    expectApiError(r, { status: 403, type: "permission", code: "scope_missing", hint: "instance:read", keyId: modelOnly.id, keyed: true });
    expectNoSecret(r, modelOnly.apiKey);
  });

  test("a per-model grant never satisfies an unscoped need (GET /api/pages needs instance:read)", async () => {
    const r = await get("/api/pages", { "x-api-key": perModel.apiKey });
    expectApiError(r, { status: 403, type: "permission", code: "scope_missing", hint: "instance:read", keyId: perModel.id, keyed: true });
    expect((await get("/api/pages", { "x-api-key": reader.apiKey })).status).toBe(200);
  });

  test("Svc-Contract other than 1 (or malformed) is 404 contract_not_found naming the header", async () => {
    for (const contract of ["2", "abc"]) {
      const r = await get("/api/me", { "x-api-key": reader.apiKey, "svc-contract": contract });
      expectApiError(r, {
        status: 404,
        type: "not_found",
        code: "contract_not_found",
        param: "Svc-Contract",
        hint: "contract 1",
        keyId: reader.id,
        keyed: true,
      });
      expect(r.body.error.message).toContain("does not exist");
    }
    const ok = await get("/api/me", { "x-api-key": reader.apiKey, "svc-contract": "1" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("svc-contract")).toBe("1");
  });

  test("Svc-Version not a supported date is 400 invalid_version, never rounded; the answer states the newest version", async () => {
    for (const v of ["2026-10-02", "2026-10-1", "2026-09-30", "latest"]) {
      for (const headers of [{ "x-api-key": reader.apiKey }, {}] as Record<string, string>[]) {
        const r = await get("/api/me", { ...headers, "svc-version": v });
        expectApiError(r, { status: 400, type: "invalid_request", code: "invalid_version", param: "Svc-Version", hint: V1, version: V1, keyed: true });
        expectNoSecret(r, reader.apiKey);
      }
    }
  });
});

describe("routes and methods", () => {
  test("a GET that matches no route is 404 route_not_found, with or without a key", async () => {
    for (const path of ["/api/nope", "/api", "/api/entries"]) {
      for (const headers of [{}, { "x-api-key": reader.apiKey }] as Record<string, string>[]) {
        const r = await get(path, headers);
        expectApiError(r, { status: 404, type: "not_found", code: "route_not_found" });
        expectNoSecret(r, reader.apiKey);
      }
    }
  });

  test("POST, PUT, PATCH and DELETE under /api are 405 mutations_not_enabled, with or without a key", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const path of ["/api/me", "/api/entries/x", "/api/nope", "/api/versions"]) {
        for (const headers of [{}, { "x-api-key": reader.apiKey }] as Record<string, string>[]) {
          const r = await call(h, method, path, { headers, body: { a: 1 } });
          expectApiError(r, { status: 405, type: "method", code: "mutations_not_enabled" });
          expectNoSecret(r, reader.apiKey);
        }
      }
    }
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect((await call(h, method, "/api/graphql", { headers: { "x-api-key": reader.apiKey } })).status).toBe(405);
    }
  });

  test("POST /api/graphql is not refused as a write", async () => {
    const r = await call(h, "POST", "/api/graphql", { headers: { "x-api-key": reader.apiKey }, body: { query: "{ me { keyId } }" } });
    expect(r.status).not.toBe(405);
    expect(r.body?.error?.code).not.toBe("mutations_not_enabled");
  });

  test("a URL with a bad percent escape is a bare 400 before routing", async () => {
    for (const headers of [{}, { "x-api-key": reader.apiKey }] as Record<string, string>[]) {
      const r = await call(h, "GET", "/api/me%E0%A4%A", { headers });
      expect(r.status).toBe(400);
      expect(r.text).toBe("");
    }
  });

  test("URL and headers past 16 KB are a bare 431; just under passes", async () => {
    const big = await call(h, "GET", "/api/me", { headers: { "x-api-key": reader.apiKey, "x-pad": "a".repeat(16 * 1024) } });
    expect(big.status).toBe(431);
    expect(big.text).toBe("");
    const longUrl = await call(h, "GET", `/api/versions?pad=${"a".repeat(16 * 1024)}`);
    expect(longUrl.status).toBe(431);
    expect(longUrl.text).toBe("");
    const under = await call(h, "GET", "/api/me", { headers: { "x-api-key": reader.apiKey, "x-pad": "a".repeat(15 * 1024) } });
    expect(under.status).toBe(200);
  });
});

describe("legacy surfaces", () => {
  test("a scoped key on /v2/schema, /v2/seo, /files and a /v2 management route gets exactly 401 Invalid API key", async () => {
    for (const path of ["/v2/schema", "/v2/seo", "/files", "/v2/models", KEYS]) {
      for (const secret of [reader.apiKey, `svc_live_${"z".repeat(32)}`]) {
        const r = await call(h, "GET", path, { headers: { "x-api-key": secret } });
        expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 401, body: INVALID_API_KEY });
        expectNoSecret(r, secret);
      }
    }
  });

  test("a legacy key gets /v2/schema as { data: [models] }", async () => {
    const r = await call(h, "GET", "/v2/schema", { headers: { "x-api-key": legacy.apiKey } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data"]);
    const models = await h.json("GET", "/v2/models", { token });
    expect(r.body).toEqual(models.body);
    expect(r.body.data.map((m: any) => m.namespace)).toEqual(["blog"]);
    expectNoSecret(r, legacy.apiKey);
  });

  test("a legacy key is also accepted on /api/", async () => {
    const r = await get("/api/me", { "x-api-key": legacy.apiKey });
    expect(r.status).toBe(200);
    expect(r.headers.get("svc-key-id")).toBe(legacy.id);
  });
});

describe("edge secret", () => {
  let e: Harness;
  let secret: string;
  beforeAll(() => {
    e = startApp({ edgeSecret: "s3cret" });
    const u = createUser(e.capa.services, { email: "edge@example.com", password: null });
    const p = createProject(e.capa.services, { name: "Edge", slug: "edge-project", ownerId: u.id });
    secret = mintKey(e.capa.services, p.id, { kind: "cli" }, { scopes: ["instance:read"] }).apiKey;
  });
  afterAll(() => e.close());

  test("an /api request without x-svc-edge, or with a wrong one, is 403 edge_only; with it, it is served", async () => {
    for (const path of ["/api/me", "/api/versions", "/api/nope"]) {
      for (const edge of [null, "wrong"]) {
        const headers: Record<string, string> = { "x-api-key": secret };
        if (edge) headers["x-svc-edge"] = edge;
        const r = await call(e, "GET", path, { headers });
        expectApiError(r, { status: 403, type: "permission", code: "edge_only" });
        expectNoSecret(r, secret);
      }
    }
    expect((await call(e, "GET", "/api/me", { headers: { "x-api-key": secret, "x-svc-edge": "s3cret" } })).status).toBe(200);
    expect((await call(e, "GET", "/api/versions", { headers: { "x-svc-edge": "s3cret" } })).status).toBe(200);
    expect((await call(e, "GET", "/api/nope", { headers: { "x-svc-edge": "s3cret" } })).status).toBe(404);
  });

  test("management routes need no edge header", async () => {
    const r = await call(e, "GET", "/v2/models");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Authentication token required" });
  });
});

describe("host lists", () => {
  let hh: Harness;
  let secret: string;
  beforeAll(() => {
    hh = startApp({ readHosts: ["cdn.test"], managementHosts: ["admin.test"] });
    const u = createUser(hh.capa.services, { email: "hosts@example.com", password: null });
    const p = createProject(hh.capa.services, { name: "Hosts", slug: "hosts-project", ownerId: u.id });
    secret = mintKey(hh.capa.services, p.id, { kind: "cli" }, { scopes: ["instance:read"] }).apiKey;
  });
  afterAll(() => hh.close());

  test("/v2 on the read host is 404", async () => {
    const r = await call(hh, "GET", "/v2/models", { headers: { host: "cdn.test" } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "No route matches this path.", code: "route_not_found" });
    const admin = await call(hh, "GET", "/v2/models", { headers: { host: "admin.test" } });
    expect(admin.status).toBe(401);
    expect(admin.body).toEqual({ error: "Authentication token required" });
  });

  test("GET /api on the management host is 404 route_not_found; a write there is 405", async () => {
    const r = await call(hh, "GET", "/api/me", { headers: { host: "admin.test", "x-api-key": secret } });
    expectApiError(r, { status: 404, type: "not_found", code: "route_not_found" });
    expectNoSecret(r, secret);
    const v = await call(hh, "GET", "/api/versions", { headers: { host: "admin.test" } });
    expectApiError(v, { status: 404, type: "not_found", code: "route_not_found" });
    const w = await call(hh, "POST", "/api/me", { headers: { host: "admin.test", "x-api-key": secret } });
    expectApiError(w, { status: 405, type: "method", code: "mutations_not_enabled" });
  });

  test("the read host serves /api", async () => {
    const r = await call(hh, "GET", "/api/me", { headers: { host: "cdn.test", "x-api-key": secret } });
    expect(r.status).toBe(200);
    expect(r.headers.get("vary")).toBe(KEYED_VARY);
  });
});

describe("legacy entry lists", () => {
  test("/v2/api/{ns} and /v3/api/{ns} list entries as { data } for legacy keys and refuse scoped keys", async () => {
    const h = startApp();
    try {
      const o = await withOwner(h);
      await h.json("POST", "/v2/models", { token: o.token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
      const e = await h.json("POST", "/v2/model-instances", { token: o.token, body: { model: "post", data: { title: "Hello" } } });
      await h.json("POST", "/v2/model-instances", { token: o.token, body: { model: "post", data: { title: "Draft only" } } });
      await h.json("POST", `/v2/model-instances/${e.body.id}/publish`, { token: o.token });
      const legacy = (await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { permission: "read" } })).body.apiKey;
      const scoped = (await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { scopes: ["instance:read"] } })).body.apiKey;
      for (const path of ["/v2/api/post?select=title", "/v3/api/post?select=title"]) {
        const r = await h.json("GET", path, { headers: { "x-api-key": legacy } });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ data: [{ id: e.body.id, title: "Hello" }] });
        const refused = await h.json("GET", path, { headers: { "x-api-key": scoped } });
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({ error: "Invalid API key" });
      }
    } finally {
      h.close();
    }
  });
});
