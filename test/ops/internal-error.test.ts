// A server fault answers 500 with no detail on either surface (interface.md: "a 500 never
// carries details"), and the fault is logged with the request id. The fault is real: the
// project file loses its entries table behind the server's back.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createLogger } from "../../src/infra/log.ts";

let h: Harness;
let token: string;
let key: string;
const lines: string[] = [];

beforeAll(async () => {
  h = startApp({ logLevel: "info" }, undefined, { log: createLogger("info", (l) => lines.push(l)) });
  const o = await withOwner(h);
  token = o.token;
  await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
  key = (await h.json("POST", "/v2/tenants/api-keys", { token, body: { scopes: ["instance:read"], environment: "development" } })).body.apiKey;
  const db = new Database(join(h.dir, "projects", `${o.project.id}.sqlite`));
  db.exec("DROP TABLE entries");
  db.close();
});
afterAll(() => h.close());

test("/api: 500 internal in the envelope, with no detail of the fault", async () => {
  const res = await h.req("GET", "/api/entries/post", { headers: { "x-api-key": key } });
  const text = await res.text();
  expect(res.status).toBe(500);
  const body = JSON.parse(text);
  expect(Object.keys(body)).toEqual(["error", "meta"]);
  expect(body.error).toEqual({
    type: "api_error",
    code: "internal",
    message: "Something went wrong on our side.",
    hint: "Retry; if it persists, quote meta.requestId to support.",
    docs: "http://capa.test/docs/errors/internal",
  });
  expect(body.meta.requestId).toMatch(/^req_/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(text).not.toMatch(/entries|sqlite|no such table|stack|at /i);
  // The log keeps what the answer leaves out, under the same request id.
  const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.level === "error");
  expect(logged.some((l) => /no such table: entries/.test(JSON.stringify(l)))).toBe(true);
});

test("/v2: 500 { error, code: internal } with no detail", async () => {
  const res = await h.req("GET", "/v2/model-instances?model=post", { token });
  const text = await res.text();
  expect(res.status).toBe(500);
  expect(JSON.parse(text)).toEqual({ error: "Something went wrong on our side.", code: "internal" });
  expect(text).not.toMatch(/sqlite|no such table|stack/i);
  const rid = res.headers.get("x-request-id");
  expect(rid).toMatch(/^req_/);
  const logged = lines.map((l) => JSON.parse(l)).find((l) => l.level === "error" && l.requestId === rid);
  expect(JSON.stringify(logged)).toContain("no such table: entries");
});
