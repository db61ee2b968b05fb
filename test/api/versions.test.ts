// GET /api/versions and version resolution (interface.md: Versioning, Read API on {base_url},
// the response headers table).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { VERSIONS } from "../../src/domain/versions.ts";
import { call, expectApiError, expectNoSecret, V1, type Answer } from "./helpers.ts";

const KEYS = "/v2/tenants/api-keys";
const VERSIONS_VARY = "Origin, Svc-Version, Accept-Encoding";

let h: Harness;
let token: string;
let scoped: any;
let legacy: any;

const mint = async (body: Record<string, unknown>) => {
  const r = await h.json("POST", KEYS, { token, body });
  expect(r.status).toBe(201);
  return r.body;
};

/** The version served, checked to be the same in meta.version, the Svc-Version header and data.version. */
function served(r: Answer): string {
  expect(r.status).toBe(200);
  expect(r.headers.get("svc-version")).toBe(r.body.meta.version);
  if (r.body.data?.version !== undefined) expect(r.body.data.version).toBe(r.body.meta.version);
  return r.body.meta.version;
}

beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  scoped = await mint({ scopes: ["instance:read"] });
  legacy = await mint({ permission: "read" });
});
afterAll(() => h.close());

describe("GET /api/versions", () => {
  test("needs no key: current and the version entries, cacheable for 300 s", async () => {
    const r = await call(h, "GET", "/api/versions");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data", "meta"]);
    expect(r.body.data.current).toBe(V1);
    expect(r.body.data.versions).toHaveLength(1);
    const [v] = r.body.data.versions;
    expect(Object.keys(v)).toEqual(["date", "status", "changes"]);
    expect(v.date).toBe(V1);
    expect(v.status).toBe("current");
    expect(v.changes.length).toBeGreaterThan(0);
    for (const c of v.changes) expect(typeof c.summary).toBe("string");
    expect(Object.keys(r.body.meta)).toEqual(["version", "requestId"]);
    expect(r.body.meta.version).toBe(V1);
    expect(r.body.meta.requestId).toMatch(/^req_/);
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.headers.get("vary")).toBe(VERSIONS_VARY);
    expect(r.headers.get("svc-version")).toBe(V1);
    expect(r.headers.get("svc-key-id")).toBeNull();
    expect(r.headers.get("svc-contract")).toBeNull();
    expect(r.headers.get("deprecation")).toBeNull();
    expect(r.headers.get("sunset")).toBeNull();
  });

  test("a key sent along is neither needed nor echoed", async () => {
    for (const secret of [scoped.apiKey, `svc_live_${"q".repeat(32)}`]) {
      const r = await call(h, "GET", "/api/versions", { headers: { "x-api-key": secret } });
      expect(r.status).toBe(200);
      expect(r.headers.get("svc-key-id")).toBeNull();
      expectNoSecret(r, secret);
    }
  });

  test("?from=2026-10-01 lists only strictly newer versions: none today", async () => {
    const r = await call(h, "GET", `/api/versions?from=${V1}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ current: V1, versions: [] });
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
  });

  test("a bad from is 400 invalid_version with param from", async () => {
    for (const from of ["bad", "2026-10-02", "2026-10-1", ""]) {
      const r = await call(h, "GET", `/api/versions?from=${from}`);
      expectApiError(r, { status: 400, type: "invalid_request", code: "invalid_version", param: "from", hint: V1, vary: VERSIONS_VARY });
    }
  });

  test("a bad Svc-Version is 400 invalid_version with param Svc-Version; a good one is served", async () => {
    const bad = await call(h, "GET", "/api/versions", { headers: { "svc-version": "2026-10-02" } });
    expectApiError(bad, { status: 400, type: "invalid_request", code: "invalid_version", param: "Svc-Version", hint: V1, vary: VERSIONS_VARY });
    const good = await call(h, "GET", "/api/versions", { headers: { "svc-version": V1 } });
    expect(served(good)).toBe(V1);
  });
});

describe("version resolution: header, then the key's pin, then 2026-10-01", () => {
  test("with today's single version every route serves 2026-10-01 in meta.version and Svc-Version", async () => {
    for (const secret of [scoped.apiKey, legacy.apiKey]) {
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": secret } }))).toBe(V1);
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": secret, "svc-version": V1 } }))).toBe(V1);
    }
    // A scoped key minted without apiVersion is pinned to the newest version at mint time.
    expect(scoped.version).toBe(V1);
  });

  describe("with a second registered version", () => {
    const NEXT = "2026-12-01";
    let pinned: any;
    beforeAll(async () => {
      // Registers a later date for these tests only; removed again below.
      VERSIONS.push({ date: NEXT, status: "supported", changes: [] });
      pinned = await mint({ scopes: ["instance:read"], apiVersion: NEXT });
    });
    afterAll(() => {
      const i = VERSIONS.findIndex((v) => v.date === NEXT);
      if (i >= 0) VERSIONS.splice(i, 1);
    });

    test("the key's pin applies when no header is sent", async () => {
      expect(pinned.version).toBe(NEXT);
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": pinned.apiKey } }))).toBe(NEXT);
    });

    test("the header wins over the pin", async () => {
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": pinned.apiKey, "svc-version": V1 } }))).toBe(V1);
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": scoped.apiKey, "svc-version": NEXT } }))).toBe(NEXT);
    });

    test("a key without a pin (legacy) resolves to 2026-10-01, not the newest", async () => {
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": legacy.apiKey } }))).toBe(V1);
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": legacy.apiKey, "svc-version": NEXT } }))).toBe(NEXT);
    });

    test("an error after the key is known states the resolved version", async () => {
      const r = await call(h, "GET", "/api/me", { headers: { "x-api-key": pinned.apiKey, "svc-contract": "2" } });
      expectApiError(r, { status: 404, type: "not_found", code: "contract_not_found", param: "Svc-Contract", version: NEXT, keyId: pinned.id, keyed: true });
    });

    test("PATCH apiVersion moves the pin; rotation keeps it", async () => {
      const p = await h.json("PATCH", `${KEYS}/${scoped.id}`, { token, body: { apiVersion: NEXT } });
      expect(p.status).toBe(200);
      expect(p.body.version).toBe(NEXT);
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": scoped.apiKey } }))).toBe(NEXT);
      const r = await h.json("POST", `${KEYS}/${pinned.id}/rotate`, { token, body: { graceHours: 1 } });
      expect(r.status).toBe(201);
      expect(r.body.version).toBe(NEXT);
      expect(served(await call(h, "GET", "/api/me", { headers: { "x-api-key": r.body.apiKey } }))).toBe(NEXT);
    });

    test("?from=2026-10-01 now lists the newer date", async () => {
      const r = await call(h, "GET", `/api/versions?from=${V1}`);
      expect(r.body.data.versions.map((v: any) => v.date)).toEqual([NEXT]);
    });
  });
});
