// The routes under /v2 are built on the first request under /v2 (src/app.ts): a server that is only
// read never builds them. The root hands those requests on as they are; what it decided before
// routing (the caller's address, the request id) reaches the answer and the log line.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
beforeEach(() => {
  h = startApp();
});
afterEach(() => h.close());

test("reads, health, the admin app's page and the legacy paths do not build the management routes", async () => {
  expect((await h.req("GET", "/api/versions")).status).toBe(200);
  expect((await h.req("GET", "/healthz")).status).toBe(200);
  expect((await h.json("GET", "/api/me")).body.error.code).toBe("missing_key");
  expect((await h.req("GET", "/v2/api/posts")).status).toBe(401);
  expect((await h.req("GET", "/admin")).headers.get("content-type")).toStartWith("text/");
  expect(h.capa.managementBuilt()).toBe(false);
});

test("the first requests under /v2, sent together, build the routes once and are answered by them", async () => {
  const answers = await Promise.all([h.json("GET", "/v2/server"), h.json("GET", "/v2/server")]);
  expect(answers.map((a) => [a.status, a.body])).toEqual([
    [200, { mail: false }],
    [200, { mail: false }],
  ]);
  expect(h.capa.managementBuilt()).toBe(true);
  const rows = h.capa.routes().map((r) => `${r.method} ${r.path}`);
  // Every route once: no feature's routes were added twice.
  expect(rows.length).toBe(new Set(rows).size);
  expect(rows).toContain("GET /v2/server");
  expect(rows).toContain("POST /v2/user/login");
  expect(rows).toContain("GET /api/versions");
});

test("an unknown path or method under /v2 is the management surface's route_not_found", async () => {
  for (const [method, path] of [
    ["GET", "/v2/no-such-thing"],
    ["PUT", "/v2/server"],
  ]) {
    const r = await h.json(method!, path!);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "No route matches this path.", code: "route_not_found" });
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  }
});

test("a management answer carries the CORS headers the root set before routing", async () => {
  h.close();
  h = startApp({ managementOrigins: ["https://app.example"] });
  const owner = await withOwner(h);
  const r = await h.json("GET", "/v2/models", { token: owner.token, headers: { origin: "https://app.example" } });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ data: [] });
  expect(r.headers.get("access-control-allow-origin")).toBe("https://app.example");
  expect(r.headers.get("access-control-expose-headers")).toBe("X-Request-Id, Retry-After");
  expect(r.headers.get("vary")).toBe("Origin");
});
