// The request log line: one JSON line per answered request with exactly the method, route
// pattern, status, duration, request id, key id and project id; never a key, token or password.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createLogger } from "../../src/infra/log.ts";

const FIELDS = ["time", "level", "msg", "requestId", "method", "route", "status", "ms", "keyId", "projectId"];

describe("the request log", () => {
  const lines: string[] = [];
  let h: Harness;
  let owner: Awaited<ReturnType<typeof withOwner>>;
  let key: { id: string; apiKey: string };
  const secrets: string[] = [];

  beforeAll(async () => {
    h = startApp({}, mkdtempSync(join(tmpdir(), "capa-test-")), { log: createLogger("info", (l) => lines.push(l)) });
    owner = await withOwner(h, "logs@example.com", "log-password-123");
    const minted = await h.json("POST", "/v2/tenants/api-keys", { token: owner.token, body: { scopes: ["instance:read"], environment: "production" } });
    expect(minted.status).toBe(201);
    key = minted.body;
    secrets.push("log-password-123", owner.token, owner.refreshToken, key.apiKey);
    // Let the set-up's own request lines land before the tests count lines.
    await Bun.sleep(5);
  });
  afterAll(() => h.close());

  /** The request lines logged since `from`, once onAfterResponse has run. */
  async function requestLines(from: number): Promise<Record<string, unknown>[]> {
    await Bun.sleep(5);
    return lines
      .slice(from)
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === "request");
  }

  test("a read with a key logs its route pattern, status, key id and project id", async () => {
    const from = lines.length;
    const r = await h.json("GET", "/api/me", { headers: { "x-api-key": key.apiKey } });
    expect(r.status).toBe(200);
    const [line, ...rest] = await requestLines(from);
    expect(rest).toEqual([]);
    expect(Object.keys(line!).sort()).toEqual([...FIELDS].sort());
    expect(line).toMatchObject({ level: "info", method: "GET", route: "/api/me", status: 200, keyId: key.id, projectId: owner.project.id });
    expect(line!.requestId).toBe(r.body.meta.requestId);
    expect(line!.ms).toBeGreaterThanOrEqual(0);
  });

  test("a person's management request logs the project it acted in", async () => {
    const from = lines.length;
    const r = await h.json("GET", "/v2/model-instances?limit=1", { token: owner.token });
    expect(r.status).toBe(200);
    const [line] = await requestLines(from);
    expect(line).toMatchObject({ method: "GET", route: "/v2/model-instances/", status: 200, keyId: null, projectId: owner.project.id });
  });

  const refused: { name: string; method: string; path: string; headers?: Record<string, string>; status: number; route: string | null }[] = [
    {
      name: "an unknown key",
      method: "GET",
      path: "/api/me",
      headers: { "x-api-key": "svc_live_Zz0000000000000000000000000000zZ" },
      status: 401,
      route: "/api/me",
    },
    { name: "a path no route matches", method: "GET", path: "/nowhere/at/all", status: 404, route: null },
    { name: "a write on the read API (refused before routing)", method: "DELETE", path: "/api/entries/post", status: 405, route: null },
    { name: "a bad bearer on /v2", method: "GET", path: "/v2/projects", headers: { authorization: "Bearer not.a.token" }, status: 401, route: "/v2/projects/" },
  ];
  test.each(refused)("a refusal logs its real status: $name", async ({ method, path, headers, status, route }) => {
    const from = lines.length;
    const r = await h.req(method, path, { headers });
    expect(r.status).toBe(status);
    const [line, ...rest] = await requestLines(from);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ method, status, route, keyId: null });
  });

  test("no key, token or password appears in any log line", async () => {
    // Sign in again (the password in a body) and refresh (a token in a body), then read the whole log.
    expect((await h.json("POST", "/v2/user/login", { body: { email: "logs@example.com", password: "log-password-123" } })).status).toBe(200);
    expect((await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: owner.refreshToken } })).status).toBeLessThan(500);
    await Bun.sleep(5);
    const all = lines.join("\n");
    expect(lines.length).toBeGreaterThan(5);
    for (const s of [...secrets, "svc_live_Zz0000000000000000000000000000zZ"]) expect(all).not.toContain(s);
  });
});
