// GET /v2/openapi.json (decisions.md 12): no key, a valid OpenAPI 3.1 document, every management
// route of the app's own route table in it, each body route's requestBody the very model its
// handler checks, and the bodies refused in the words that model carries.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { ROUTE_AUTH, ROUTE_DOC, type RouteDoc } from "../../src/http/v2/doc.ts";
import { isManagementRoute, openApiPath } from "../../src/http/openapi/management.ts";
import { SENTENCE_KEYWORDS } from "../../src/domain/access/body-check.ts";

interface Row {
  method: string;
  path: string;
  handler: unknown;
  hooks: { detail?: Record<string, unknown> };
}

/** The RouteDoc a route declares. */
const docOf = (r: Row) => r.hooks.detail?.[ROUTE_DOC] as RouteDoc | undefined;

let h: Harness;
let doc: any;
let rows: Row[];
beforeAll(async () => {
  h = startApp();
  const r = await h.json("GET", "/v2/openapi.json");
  expect(r.status).toBe(200);
  doc = r.body;
  rows = (h.capa.routes() as Row[]).filter(isManagementRoute);
});
afterAll(() => h.close());

/** Every schema object of the document (not property names), to look for keywords. */
function* schemas(node: unknown): Generator<Record<string, unknown>> {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const x of node) yield* schemas(x);
    return;
  }
  const o = node as Record<string, unknown>;
  yield o;
  for (const [k, v] of Object.entries(o)) {
    if (k === "properties" && v && typeof v === "object") for (const p of Object.values(v)) yield* schemas(p);
    else yield* schemas(v);
  }
}

describe("GET /v2/openapi.json", () => {
  test("needs no key and passes the OpenAPI 3.1 validator", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("Capa management API");
    const verdict = await new Validator().validate(doc);
    expect([verdict.valid, verdict.errors]).toEqual([true, undefined]);
  });

  test("holds exactly the management routes of the app's route table, each documented", () => {
    const fromApp = rows.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`).sort();
    const fromDoc = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m} ${p}`))
      .sort();
    expect(fromDoc).toEqual(fromApp);
    expect(fromApp.length).toBeGreaterThan(150);
    const undocumented = rows.filter((r) => !r.hooks.detail?.[ROUTE_DOC]).map((r) => `${r.method} ${r.path}`);
    expect(undocumented).toEqual([]);
    // The legacy surfaces under /v2 (shapes not shown in interface.md) are not management routes.
    expect(Object.keys(doc.paths).filter((p) => /^\/v2\/(api|schema|seo)/.test(p))).toEqual([]);
  });

  test("a route reads a JSON body exactly when it declares the model, and no route reads one by hand", () => {
    const reads = rows.filter((r) => /typedBody\(/.test(String(r.handler))).map((r) => `${r.method} ${r.path}`);
    const declares = rows.filter((r) => docOf(r)?.body).map((r) => `${r.method} ${r.path}`);
    expect(declares).toEqual(reads);
    expect(reads.length).toBeGreaterThan(70);
    expect(rows.filter((r) => /jsonBody\(/.test(String(r.handler))).map((r) => r.path)).toEqual([]);
    // Each handler names the very model its route declares.
    for (const r of rows) {
      const body = docOf(r)?.body as { $id?: string } | undefined;
      if (!body) continue;
      const named = /typedBody\(request, (\w+)\)/.exec(String(r.handler))?.[1];
      const op = doc.paths[openApiPath(r.path)][r.method.toLowerCase()];
      expect([r.path, op.requestBody.content["application/json"].schema]).toEqual([r.path, { $ref: `#/components/schemas/${body.$id}` }]);
      expect([r.path, named !== undefined && body.$id!.endsWith(named)]).toEqual([r.path, true]);
    }
  });

  test("who may call each route is stated: the scope of people's routes, the agent key on /v2/agent", () => {
    const publish = doc.paths["/v2/model-instances/{id}/publish"].post;
    expect([publish.security, publish["x-capa-scope"], publish.description]).toEqual([
      [{ bearer: [] }],
      "instance:publish",
      "A person holding `instance:publish`.",
    ]);
    const agent = doc.paths["/v2/agent/model-instances/{id}/publish"].post;
    expect([agent.security, agent.description]).toEqual([[{ agentKey: [] }], "A legacy key holding `instance:publish`."]);
    const keys = doc.paths["/v2/tenants/api-keys"].post;
    expect(keys.description).toBe("A person (never a key) holding `api_key:create`.");
    expect(doc.paths["/v2/user/login"].post.security).toEqual([]);
    expect(doc.paths["/v2/projects"].get.description).toBe("Any signed-in person.");
    const withAuth = rows.filter((r) => r.hooks.detail?.[ROUTE_AUTH]).length;
    // Sign-in, refresh, sign-out, accepting an invitation, the two password reset routes, the
    // document itself and GET /v2/server (what the sign-in screen needs to know).
    expect(withAuth).toBe(rows.length - 8);
  });

  test("bodies and answers print their models; the refusal sentences stay with the server", () => {
    const mint = doc.components.schemas.MintKeyBody;
    expect(Object.keys(mint.properties)).toEqual(["contractId", "name", "environment", "expiresAt", "preset", "scopes", "apiVersion", "permission"]);
    expect(mint.additionalProperties).toBe(false);
    expect(mint.properties.scopes).toEqual({ type: "array", minItems: 1, maxItems: 100, items: { type: "string" } });
    const op = doc.paths["/v2/tenants/api-keys"].post;
    expect(op.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/MintedKey" });
    expect(op.responses.default).toEqual({ $ref: "#/components/responses/Error" });
    expect(doc.paths["/v2/tenants/api-keys/{id}"].delete.responses["204"]).toEqual({ description: "No content." });
    // A recursive model is one component that refers to itself.
    expect(JSON.stringify(doc.components.schemas.WorkspaceNode)).toContain('"$ref":"#/components/schemas/WorkspaceNode"');
    const leaked = [...schemas(doc.components.schemas)].filter((s) => SENTENCE_KEYWORDS.some((k) => k in s && k !== "error"));
    expect(leaked).toEqual([]);
    expect([...schemas(doc.components.schemas)].filter((s) => typeof s.error === "string")).toEqual([]);
    expect(doc.components.schemas.Error.required).toEqual(["error"]);
  });

  test("a strong ETag; If-None-Match answers 304", async () => {
    const first = await h.req("GET", "/v2/openapi.json");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect([first.headers.get("cache-control"), first.headers.get("content-type")]).toEqual(["no-cache", "application/json"]);
    const again = await h.req("GET", "/v2/openapi.json", { headers: { "if-none-match": etag } });
    expect([again.status, await again.text()]).toEqual([304, ""]);
  });
});

describe("a body route checks who calls before it reads the body", () => {
  test("every body route answers an unauthenticated bad body 401, never 400", async () => {
    const id = crypto.randomUUID();
    const open = new Set([
      "/v2/user/login",
      "/v2/user/refresh-token",
      "/v2/user/logout",
      "/v2/invitations/accept",
      "/v2/user/password-reset",
      "/v2/user/password-reset/confirm",
    ]);
    const seen: string[] = [];
    for (const r of rows) {
      if (!docOf(r)?.body || open.has(r.path)) continue;
      const path = r.path.replace(/:[A-Za-z]+/g, id);
      const res = await h.json(r.method, path, { body: { "no such key": [1, 2, 3] } });
      seen.push(`${r.method} ${r.path} ${res.status}`);
    }
    expect(seen.filter((x) => !x.endsWith(" 401"))).toEqual([]);
    expect(seen.length).toBeGreaterThan(60);
  });
});

describe("refusals in the model's words", () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await withOwner(h));
  });
  const cases: [string, string, unknown, Record<string, unknown>][] = [
    [
      "an unknown key of a mint",
      "/v2/tenants/api-keys",
      { scopes: ["instance:read"], colour: "red" },
      { error: "colour is not a key field", code: "invalid_body", field: "colour" },
    ],
    [
      "a list's count, with the length it holds",
      "/v2/scheduled-actions",
      { action: "publish", targets: [], wallTime: "2030-01-01T10:00", timezone: "UTC" },
      { error: "targets must list 1 to 500 items of { type, id }; it lists 0", code: "invalid_body", field: "targets" },
    ],
    [
      "an item of a list, by its path",
      "/v2/scheduled-actions",
      { action: "publish", targets: [{ type: "entry", id: "x" }], wallTime: "2030-01-01T10:00", timezone: "UTC" },
      { error: "targets[0].type must be instance (an entry) or model", code: "invalid_body", field: "targets[0].type" },
    ],
    [
      "a workspace node holding two kinds",
      "/v2/workspaces",
      { name: "W", tree: [{ folder: "A", children: [{ model: "post", entry: crypto.randomUUID() }] }] },
      {
        error: "tree[0].children[0] must have exactly one of folder, model, entry, media_folder (it has model and entry)",
        code: "invalid_body",
        field: "tree[0].children[0]",
      },
    ],
    [
      "a value of the wrong type in a union",
      "/v2/webhooks",
      { url: "x".repeat(2049) },
      { error: "url must be at most 2048 characters", code: "invalid_body", field: "url" },
    ],
  ];
  for (const [name, path, body, want] of cases) {
    test(`${name}: 400 naming the field`, async () => {
      const r = await h.json("POST", path, { token, body });
      expect([r.status, r.body]).toEqual([400, want]);
    });
  }

  test("a layout is refused as invalid_layout with the path measured from the layout", async () => {
    await h.json("POST", "/v2/models", { token, body: { name: "Page", namespace: "page", fields: [{ namespace: "title", type: "string" }] } });
    const r = await h.json("PUT", "/v2/models/page/layout", { token, body: { layout: { v: 1, main: [{ t: "card", id: "c", title: "  ", items: [] }] } } });
    expect([r.status, r.body]).toEqual([400, { error: "main[0].title must be 1 to 80 characters", code: "invalid_layout", path: "main[0].title" }]);
    const missing = await h.json("PUT", "/v2/models/page/layout", { token, body: {} });
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: "The body must hold the layout key: { layout: {...} }, or { layout: null } to reset.", code: "invalid_layout", path: "layout" },
    ]);
  });

  test("sign-in refuses a body of the wrong shape as it refuses a wrong password", async () => {
    const r = await h.json("POST", "/v2/user/login", { body: { email: ["a"], password: 5 } });
    expect([r.status, r.body]).toEqual([401, { error: "Invalid credentials" }]);
  });
});
