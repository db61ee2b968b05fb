// Issue 23, items 1 and 3: CORS on /api exactly as decisions.md 12 (the preflight, the headers
// on every answer to a request with Origin, errors, 304 and 429 included, never credentials),
// public media readable from any page, /v2 without CORS unless the origin is listed in
// CAPA_MANAGEMENT_ORIGINS, 405s with Allow, and the bad Origins that get no CORS headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { call, expectApiError, KEYED_VARY } from "./helpers.ts";

const SITE = "https://site.example";
const OTHER = "https://other.example";
const ADMIN = "https://admin.example";
const EXPOSE = "ETag, Svc-Version, Svc-Contract, Svc-Key-Id, X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
const ALLOW_HEADERS = "x-api-key, content-type, svc-version, svc-contract, svc-page, svc-path, svc-schema, if-none-match";

let h: Harness;
let token: string;
let prod: { apiKey: string; id: string };
let bound: { apiKey: string; id: string };
let entryId: string;

beforeAll(async () => {
  h = startApp({ managementOrigins: [ADMIN] });
  const o = await withOwner(h);
  token = o.token;
  await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
  entryId = (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Hello" } } })).body.id;
  await h.json("POST", `/v2/model-instances/${entryId}/publish`, { token });
  prod = (await h.json("POST", "/v2/tenants/api-keys", { token, body: { scopes: ["instance:read"] } })).body;
  bound = (await h.json("POST", "/v2/tenants/api-keys", { token, body: { scopes: ["instance:read"] } })).body;
  await h.json("PATCH", `/v2/tenants/api-keys/${bound.id}/allowed-origins`, { token, body: { allowedOrigins: [SITE] } });
});
afterAll(() => h.close());

/** The CORS headers of an answer, by name (absent ones left out). */
function cors(r: { headers: Headers }): Record<string, string> {
  const out: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    if (k.startsWith("access-control-")) out[k] = v;
  });
  return out;
}
const readable = (origin: string) => ({ "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSE });

describe("the preflight", () => {
  for (const path of ["/api/entries/post", "/api/entries/post/0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f", "/api/graphql", "/api/me", "/api/versions", "/api/nope"]) {
    test(`OPTIONS ${path} with Origin: 204, the methods and headers, max age, Vary: Origin, no key needed`, async () => {
      const r = await call(h, "OPTIONS", path, {
        headers: { origin: SITE, "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
      });
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      expect(cors(r)).toEqual({
        "access-control-allow-origin": SITE,
        "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
        "access-control-allow-headers": ALLOW_HEADERS,
        "access-control-max-age": "600",
      });
      expect(r.headers.get("vary")).toBe("Origin");
      expect(r.headers.get("allow")).toBe(path === "/api/graphql" ? "GET, POST, OPTIONS" : "GET, HEAD, OPTIONS");
    });
  }

  test("OPTIONS without Origin: 204 with Allow and no CORS headers", async () => {
    for (const [path, allow] of [
      ["/api/entries/post", "GET, HEAD, OPTIONS"],
      ["/api/graphql", "GET, POST, OPTIONS"],
    ]) {
      const r = await call(h, "OPTIONS", path!);
      expect([r.status, r.headers.get("allow"), cors(r)]).toEqual([204, allow, {}]);
    }
  });

  test("a preflight for a method or header we do not allow gets the same fixed lists; the browser refuses the rest", async () => {
    const r = await call(h, "OPTIONS", "/api/entries/post", {
      headers: { origin: SITE, "access-control-request-method": "DELETE", "access-control-request-headers": "x-api-key, x-custom" },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, OPTIONS");
    expect(r.headers.get("access-control-allow-headers")).toBe(ALLOW_HEADERS);
  });
});

describe("every /api answer to a request with Origin is readable by the page", () => {
  test("a list and an item (200), then a revalidation (304), each for its own origin", async () => {
    for (const origin of [SITE, OTHER, SITE]) {
      for (const path of ["/api/entries/post", `/api/entries/post/${entryId}`]) {
        const r = await call(h, "GET", path, { headers: { "x-api-key": prod.apiKey, origin } });
        expect(r.status).toBe(200);
        expect(cors(r)).toEqual(readable(origin));
        expect(r.headers.get("vary")).toBe(KEYED_VARY);
        const again = await call(h, "GET", path, { headers: { "x-api-key": prod.apiKey, origin, "if-none-match": r.headers.get("etag")! } });
        expect([again.status, cors(again)]).toEqual([304, readable(origin)]);
      }
    }
    // Without Origin (a server), no CORS headers at all.
    expect(cors(await call(h, "GET", "/api/entries/post", { headers: { "x-api-key": prod.apiKey } }))).toEqual({});
  });

  test("GraphQL POST and GET, /api/me and /api/versions", async () => {
    const post = await call(h, "POST", "/api/graphql", { headers: { "x-api-key": prod.apiKey, origin: SITE }, body: { query: "{ version }" } });
    const get = await call(h, "GET", "/api/graphql?query=%7B%20version%20%7D", { headers: { "x-api-key": prod.apiKey, origin: SITE } });
    const me = await call(h, "GET", "/api/me", { headers: { "x-api-key": prod.apiKey, origin: SITE } });
    const versions = await call(h, "GET", "/api/versions", { headers: { origin: SITE } });
    for (const r of [post, get, me, versions]) expect([r.status, cors(r)]).toEqual([200, readable(SITE)]);
    expect(versions.headers.get("vary")).toBe("Origin, Svc-Version, Accept-Encoding");
  });

  test("errors: the key's origin list refusal (403 origin_refused) is readable, as are 401, 404, 405 and 429", async () => {
    const refused = await call(h, "GET", "/api/entries/post", { headers: { "x-api-key": bound.apiKey, origin: OTHER } });
    expectApiError(refused, { status: 403, type: "permission", code: "origin_refused", param: "Origin", keyId: bound.id, keyed: true });
    expect(cors(refused)).toEqual(readable(OTHER));
    const allowed = await call(h, "GET", "/api/entries/post", { headers: { "x-api-key": bound.apiKey, origin: SITE } });
    expect([allowed.status, cors(allowed)]).toEqual([200, readable(SITE)]);

    const missing = await call(h, "GET", "/api/entries/post", { headers: { origin: SITE } });
    expectApiError(missing, { status: 401, type: "authentication", code: "missing_key", param: "x-api-key", keyed: true });
    expect(cors(missing)).toEqual(readable(SITE));
    const notFound = await call(h, "GET", "/api/nope", { headers: { origin: SITE } });
    expectApiError(notFound, { status: 404, type: "not_found", code: "route_not_found", vary: "Origin" });
    expect(cors(notFound)).toEqual(readable(SITE));
    const write = await call(h, "PUT", "/api/entries/post", { headers: { origin: SITE } });
    expectApiError(write, { status: 405, type: "method", code: "mutations_not_enabled", vary: "Origin" });
    expect(write.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(cors(write)).toEqual(readable(SITE));

    const inFlight = h.capa.services.limits.inFlight;
    const held = Array.from({ length: 4 }, () => inFlight.acquire([[`k:${prod.id}`, 4, "for one key"]]));
    try {
      const busy = await call(h, "GET", "/api/entries/post?limit=2", { headers: { "x-api-key": prod.apiKey, origin: SITE } });
      expect([busy.status, busy.body.error.code, busy.headers.get("retry-after"), cors(busy)]).toEqual([429, "rate_limit_exceeded", "1", readable(SITE)]);
    } finally {
      for (const release of held) release();
    }
  });

  test("no answer ever carries Access-Control-Allow-Credentials", async () => {
    const answers = await Promise.all([
      call(h, "OPTIONS", "/api/entries/post", { headers: { origin: SITE, "access-control-request-method": "GET" } }),
      call(h, "GET", "/api/entries/post", { headers: { origin: SITE, "x-api-key": prod.apiKey } }),
      call(h, "GET", "/api/entries/post", { headers: { origin: SITE } }),
      call(h, "OPTIONS", "/v2/projects", { headers: { origin: ADMIN, "access-control-request-method": "GET" } }),
      call(h, "GET", "/v2/projects", { headers: { origin: ADMIN }, token }),
    ]);
    for (const r of answers) expect(r.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("bad Origins get no CORS headers", () => {
  for (const origin of [
    "null",
    "not an origin",
    "https://site.example/",
    "https://site.example/page",
    "ftp://site.example",
    "https://user@site.example",
    "https://",
  ]) {
    test(`Origin: ${origin}`, async () => {
      const pre = await call(h, "OPTIONS", "/api/entries/post", { headers: { origin, "access-control-request-method": "GET" } });
      expect([pre.status, pre.headers.get("allow"), cors(pre)]).toEqual([204, "GET, HEAD, OPTIONS", {}]);
      const open = await call(h, "GET", "/api/entries/post", { headers: { origin, "x-api-key": prod.apiKey } });
      expect([open.status, cors(open)]).toEqual([200, {}]);
      // A key bound to origins refuses it like any origin not in its list.
      const r = await call(h, "GET", "/api/entries/post", { headers: { origin, "x-api-key": bound.apiKey } });
      expect([r.status, r.body.error.code, cors(r)]).toEqual([403, "origin_refused", {}]);
    });
  }
});

describe("a key's origin list takes no wildcard", () => {
  for (const list of [
    ["*", SITE],
    [SITE, "https://*.example.com"],
  ]) {
    test(`${JSON.stringify(list)} is refused and the list is unchanged`, async () => {
      const r = await h.json("PATCH", `/v2/tenants/api-keys/${bound.id}/allowed-origins`, { token, body: { allowedOrigins: list } });
      const at = list.findIndex((o) => o.includes("*"));
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        error:
          list[at] === "*"
            ? `allowedOrigins[${at}] must be an origin such as https://example.com`
            : `allowedOrigins[${at}] must be one origin such as https://example.com; wildcards are not supported, list each origin`,
        code: "invalid_body",
        field: `allowedOrigins[${at}]`,
      });
      const keys = await h.json("GET", "/v2/tenants/api-keys?includeStatus=true", { token });
      expect(keys.body.data.find((k: { id: string }) => k.id === bound.id).allowedOrigins).toEqual([SITE]);
    });
  }
});

describe("public media", () => {
  test("a file URL answers Access-Control-Allow-Origin: *, and so does its 404", async () => {
    const fd = new FormData();
    const { png64 } = await import("../media/fixtures.ts");
    fd.append("file", new Blob([(await png64()) as BlobPart]), "dot.png");
    const m = (await h.json("POST", "/v2/media", { token, raw: fd })).body;
    const path = new URL(m.url).pathname;
    const r = await h.req("GET", path, { headers: { origin: SITE } });
    expect([r.status, r.headers.get("access-control-allow-origin"), r.headers.get("access-control-allow-credentials")]).toEqual([200, "*", null]);
    const variant = await h.req("GET", `${path}?w=8`, { headers: { origin: SITE } });
    expect([variant.status, variant.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
    const missing = await h.req("GET", path.replace("dot.png", "other.png"));
    expect([missing.status, missing.headers.get("access-control-allow-origin")]).toEqual([404, "*"]);
  });
});

describe("/v2", () => {
  test("an unlisted origin gets no CORS headers, on a preflight or an answer", async () => {
    const pre = await call(h, "OPTIONS", "/v2/projects", { headers: { origin: SITE, "access-control-request-method": "GET" } });
    expect(pre.status).toBe(404);
    expect(cors(pre)).toEqual({});
    const r = await call(h, "GET", "/v2/projects", { headers: { origin: SITE }, token });
    expect([r.status, cors(r)]).toEqual([200, {}]);
  });

  test("a listed origin: its preflight is granted and every answer, errors included, is readable", async () => {
    const pre = await call(h, "OPTIONS", "/v2/model-instances", {
      headers: { origin: ADMIN, "access-control-request-method": "PATCH", "access-control-request-headers": "authorization, content-type" },
    });
    expect(pre.status).toBe(204);
    expect(cors(pre)).toEqual({
      "access-control-allow-origin": ADMIN,
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": "authorization, content-type, x-svc-project, if-match, idempotency-key, x-api-key",
      "access-control-max-age": "600",
    });
    const ok = await call(h, "GET", "/v2/projects", { headers: { origin: ADMIN }, token });
    const unauth = await call(h, "GET", "/v2/projects", { headers: { origin: ADMIN } });
    const bad = await call(h, "POST", "/v2/model-instances", { headers: { origin: ADMIN }, token, body: { model: "nope", data: {} } });
    for (const [r, status] of [
      [ok, 200],
      [unauth, 401],
      [bad, 404],
    ] as const) {
      expect([r.status, cors(r)]).toEqual([status, { "access-control-allow-origin": ADMIN, "access-control-expose-headers": "X-Request-Id, Retry-After" }]);
      expect(r.headers.get("vary")).toContain("Origin");
    }
    expect(unauth.body).toEqual({ error: "Authentication token required" });
  });
});

describe("CAPA_MANAGEMENT_ORIGINS", () => {
  test("a list of origins is read as is; anything else stops the start with one line", async () => {
    const { loadConfig, ConfigError } = await import("../../src/config.ts");
    expect(loadConfig({ CAPA_MANAGEMENT_ORIGINS: "https://admin.example, http://localhost:5173" }).managementOrigins).toEqual([
      "https://admin.example",
      "http://localhost:5173",
    ]);
    expect(loadConfig({}).managementOrigins).toEqual([]);
    for (const bad of ["https://admin.example/", "*", "admin.example", "https://admin.example/app"]) {
      expect(() => loadConfig({ CAPA_MANAGEMENT_ORIGINS: bad })).toThrow(
        new ConfigError(`CAPA_MANAGEMENT_ORIGINS must list origins such as https://admin.example.com, got "${bad}"`),
      );
    }
  });
});
