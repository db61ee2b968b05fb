// Issue 22, items 2 and 3: every check that runs before GraphQL (edge, host split, method,
// version, contract, key, origin, subscription, rate, concurrency) refuses a GraphQL request in
// the GraphQL shape (`errors`, no `data`, the refusal's status), by POST and by GET; a 405 carries
// `Allow: GET, POST, OPTIONS` (decisions.md 12).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setSubscription } from "../../src/domain/projects/service.ts";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { expectRefusal, type GqlAnswer } from "./fixture.ts";

const EDGE = { "x-svc-edge": "edge-s3cret" };
const QUERY = "{ post(first: 1) { nodes { id } } }";

let h: Harness;
let token: string;
let projectId: string;
const keys: Record<string, { apiKey: string; id: string }> = {};

beforeAll(async () => {
  h = startApp({ edgeSecret: "edge-s3cret", managementHosts: ["manage.capa.test"] });
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  const ok = async (body: unknown) => (await h.json("POST", "/v2/tenants/api-keys", { token, body })).body;
  await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
  for (const name of ["plain", "rate", "busy", "sub"]) keys[name] = await ok({ scopes: ["instance:read"], environment: "development", name });
  keys.bound = await ok({ scopes: ["instance:read"], environment: "development", name: "bound" });
  await h.json("PATCH", `/v2/tenants/api-keys/${keys.bound.id}/allowed-origins`, { token, body: { allowedOrigins: ["https://site.example"] } });
});
afterAll(() => h.close());

/** Sends `{ post }` to /api/graphql by POST (JSON body) or GET (query string). */
async function send(method: "POST" | "GET", headers: Record<string, string>): Promise<GqlAnswer> {
  if (method === "GET") return h.json("GET", `/api/graphql?query=${encodeURIComponent(QUERY)}`, { headers });
  return h.json("POST", "/api/graphql", { headers, body: { query: QUERY } });
}

interface Row {
  name: string;
  headers: () => Record<string, string>;
  status: number;
  code: string;
  type: string;
  param?: string;
  /** Runs around the request (a state the row needs), returning its undo. */
  around?: () => () => void;
  retryAfter?: string;
  /** requestedQueryCost and counted when the refusal comes after the document was measured. */
  cost?: number;
}

const rows: Row[] = [
  { name: "edge: no x-svc-edge", headers: () => ({ "x-api-key": keys.plain!.apiKey }), status: 403, code: "edge_only", type: "permission" },
  {
    name: "host split: the management host",
    headers: () => ({ ...EDGE, host: "manage.capa.test", "x-api-key": keys.plain!.apiKey }),
    status: 404,
    code: "route_not_found",
    type: "not_found",
  },
  {
    name: "version: not a supported date",
    headers: () => ({ ...EDGE, "x-api-key": keys.plain!.apiKey, "svc-version": "2020-01-01" }),
    status: 400,
    code: "invalid_version",
    type: "invalid_request",
    param: "Svc-Version",
  },
  {
    name: "contract: not 1",
    headers: () => ({ ...EDGE, "x-api-key": keys.plain!.apiKey, "svc-contract": "2" }),
    status: 404,
    code: "contract_not_found",
    type: "not_found",
    param: "Svc-Contract",
  },
  { name: "key: missing", headers: () => ({ ...EDGE }), status: 401, code: "missing_key", type: "authentication", param: "x-api-key" },
  {
    name: "key: unknown",
    headers: () => ({ ...EDGE, "x-api-key": "svc_test_nope0000000000000000000000000000" }),
    status: 401,
    code: "invalid_key",
    type: "authentication",
    param: "x-api-key",
  },
  {
    name: "origin: not in the key's list",
    headers: () => ({ ...EDGE, "x-api-key": keys.bound!.apiKey, origin: "https://evil.example" }),
    status: 403,
    code: "origin_refused",
    type: "permission",
    param: "Origin",
  },
  {
    name: "subscription: inactive",
    headers: () => ({ ...EDGE, "x-api-key": keys.sub!.apiKey }),
    status: 402,
    code: "subscription_required",
    type: "payment",
    around: () => {
      setSubscription(h.capa.services, projectId, false);
      return () => setSubscription(h.capa.services, projectId, true);
    },
  },
  {
    name: "rate: the key's bucket is empty",
    headers: () => ({ ...EDGE, "x-api-key": keys.rate!.apiKey }),
    status: 429,
    code: "rate_limit_exceeded",
    type: "rate_limited",
    retryAfter: "1",
    around: () => {
      const rate = h.capa.services.limits.rate;
      while (rate.take(keys.rate!.id, h.clock.now()).ok);
      return () => h.clock.advance(60_000);
    },
  },
  {
    name: "concurrency: the key's reads are all in flight",
    headers: () => ({ ...EDGE, "x-api-key": keys.busy!.apiKey }),
    status: 429,
    code: "rate_limit_exceeded",
    type: "rate_limited",
    retryAfter: "1",
    cost: 1,
    around: () => {
      const inFlight = h.capa.services.limits.inFlight;
      const held = Array.from({ length: 4 }, () => inFlight.acquire([[`k:${keys.busy!.id}`, 4, "for one key"]]));
      return () => {
        for (const release of held) release();
      };
    },
  },
];

describe("every check before GraphQL answers in the GraphQL shape", () => {
  for (const row of rows) {
    for (const method of ["POST", "GET"] as const) {
      test(`${method} ${row.name}: ${row.status} ${row.code}`, async () => {
        const undo = row.around?.() ?? (() => {});
        let r: GqlAnswer;
        try {
          r = await send(method, row.headers());
        } finally {
          undo();
        }
        expectRefusal(r, row.status, row.code, row.type, row.param ? { param: row.param } : {});
        expect(r.headers.get("content-type")).toBe("application/json");
        expect(r.headers.get("svc-version")).toBe("2026-10-01");
        expect(r.headers.get("retry-after")).toBe(row.retryAfter ?? null);
        expect(r.body.errors[0].path).toBeUndefined();
        const cost = row.cost ?? 0;
        expect(r.body.extensions).toEqual({ cost: { requestedQueryCost: cost, actualQueryCost: 0, budget: { counted: cost, limit: 5000 } } });
      });
    }
  }

  test("with every check passed, the same request reads (the table's refusals are the checks')", async () => {
    for (const method of ["POST", "GET"] as const) {
      const r = await send(method, { ...EDGE, "x-api-key": keys.plain!.apiKey });
      expect([method, r.status, r.body.data]).toEqual([method, 200, { post: { nodes: [] } }]);
    }
  });
});

describe("write methods on /api/graphql (item 3)", () => {
  for (const method of ["PUT", "PATCH", "DELETE"]) {
    test(`${method}: 405 mutations_not_enabled as a GraphQL refusal, with Allow`, async () => {
      for (const headers of [{ ...EDGE }, { ...EDGE, "x-api-key": keys.plain!.apiKey }, {}]) {
        const r = await h.json(method, "/api/graphql", { headers, body: { query: "{ version }" } });
        expectRefusal(r, 405, "mutations_not_enabled", "method", {
          message: "Writes are not enabled on the read API.",
          hint: "Use the management API on /v2 to change content.",
        });
        expect(r.headers.get("allow")).toBe("GET, POST, OPTIONS");
      }
    });
  }

  test("a mutation by POST: the same status, shape and Allow", async () => {
    const r = await h.json("POST", "/api/graphql", { headers: { ...EDGE, "x-api-key": keys.plain!.apiKey }, body: { query: "mutation { version }" } });
    expectRefusal(r, 405, "mutations_not_enabled", "method", { message: "Mutations are not enabled; GraphQL on /api only reads." });
    expect(r.headers.get("allow")).toBe("GET, POST, OPTIONS");
  });

  test("a write under any other /api path keeps the /api envelope", async () => {
    const r = await h.json("PUT", "/api/entries/post", { headers: { ...EDGE } });
    expect(r.status).toBe(405);
    expect(Object.keys(r.body)).toEqual(["error", "meta"]);
    expect(r.body.error.code).toBe("mutations_not_enabled");
  });
});
