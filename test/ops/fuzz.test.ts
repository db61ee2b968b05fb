// Bad input across every surface: thousands of random and malformed requests over every route
// the app registers (so new routes are fuzzed without editing this file), then raw bytes over a
// real socket. No answer may be a 5xx, the server must keep answering, and no data may change.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { addMember } from "../api/helpers.ts";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
let owner: Awaited<ReturnType<typeof withOwner>>;
let viewerToken: string;
let keys: string[];
let entryId: string;
let modelId: string;

/** A small deterministic generator (mulberry32), so a failing case can be replayed with FUZZ_SEED. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  h = startApp();
  owner = await withOwner(h);
  const m = await h.json("POST", "/v2/models", {
    token: owner.token,
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "n", type: "number" },
      ],
    },
  });
  modelId = m.body.id;
  const e = await h.json("POST", "/v2/model-instances", { token: owner.token, body: { model: "post", data: { title: "Hello", n: 1 } } });
  entryId = e.body.id;
  await h.json("POST", `/v2/model-instances/${entryId}/publish`, { token: owner.token });
  await addMember(h, owner.token, owner.project.id, "viewer@example.com", "viewer", "viewer-password-1");
  viewerToken = (await h.json("POST", "/v2/user/login", { body: { email: "viewer@example.com", password: "viewer-password-1" } })).body.accessToken;
  keys = [];
  for (const body of [{ scopes: ["instance:read"] }, { scopes: ["instance:read"], environment: "development" }, { permission: "read" }]) {
    keys.push((await h.json("POST", "/v2/tenants/api-keys", { token: owner.token, body })).body.apiKey);
  }
});
afterAll(() => h.close());

/** Everything that could change, read straight from the files. */
function snapshot(): string {
  const control = new Database(join(h.dir, "control.sqlite"), { readonly: true });
  const project = new Database(join(h.dir, "projects", `${owner.project.id}.sqlite`), { readonly: true });
  const out = JSON.stringify({
    projects: control.query("SELECT id, name, slug, subscription_active FROM projects ORDER BY id").all(),
    members: control.query("SELECT * FROM memberships ORDER BY project_id, user_id").all(),
    users: control.query("SELECT id, email, password_hash FROM users ORDER BY id").all(),
    keys: control.query("SELECT id, name, scopes, active, expires_at, allowed_origins, rotated_to_id FROM api_keys ORDER BY id").all(),
    models: project.query("SELECT id, namespace, name, fields, version, layout FROM models ORDER BY id").all(),
    entries: project.query("SELECT id, draft_data, draft_version, published_data, published_version FROM entries ORDER BY id").all(),
  });
  control.close();
  project.close();
  return out;
}

const WORDS = [
  "",
  "post",
  "x",
  "..",
  "%2e%2e",
  "nope",
  "a b",
  "😀",
  "\u0000",
  "%",
  "%zz",
  "%E0%A4%A",
  "%C0%AF",
  "-1",
  "0",
  "1e309",
  "null",
  "true",
  "'",
  '"',
  "$tags",
  "*",
  "constructor",
  "__proto__",
];
const PARAMS = [
  "select",
  "where",
  "sort",
  "limit",
  "after",
  "before",
  "count",
  "preview",
  "from",
  "token",
  "model",
  "status",
  "page",
  "entry",
  "includeStatus",
];

test("2,000 random and malformed requests over every route: no 5xx and nothing changes", async () => {
  const seed = Number(process.env.FUZZ_SEED ?? 20261121);
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const routes = h.capa.routes().map((x) => ({ method: x.method, path: x.path }));
  expect(routes.length).toBeGreaterThan(40);
  const before = snapshot();
  const randomString = () => {
    const n = Math.floor(r() * 40);
    let s = "";
    for (let i = 0; i < n; i++) s += r() < 0.8 ? String.fromCharCode(32 + Math.floor(r() * 95)) : pick(WORDS);
    return s;
  };
  const fill = (path: string) =>
    path
      .replace(/:(\w+)/g, () => encodeURIComponent(pick([entryId, modelId, owner.project.id, "post", randomString(), crypto.randomUUID()])))
      .replace(/\*$/, () => randomString().replace(/[?#]/g, ""));
  const query = () => {
    const parts: string[] = [];
    const n = Math.floor(r() * 4);
    for (let i = 0; i < n; i++) {
      const v = pick([
        randomString(),
        JSON.stringify({ title: { [pick(["eq", "gt", "has", "contains", "zz"])]: pick([1, "x", null, [], {}]) } }),
        "not-json{",
        "title,n",
        "-n,title",
        "201",
        "0",
        "end",
        "a".repeat(3000),
        JSON.stringify({ and: [{ not: {} }] }),
      ]);
      parts.push(`${pick(PARAMS)}=${r() < 0.7 ? encodeURIComponent(v) : v.replace(/[#\s]/g, "")}`);
    }
    return parts.length ? `?${parts.join("&")}` : "";
  };
  const body = (): BodyInit | undefined => {
    switch (Math.floor(r() * 9)) {
      case 0:
        return undefined;
      case 1:
        return "{not json";
      case 2:
        return JSON.stringify(pick([[], [1, 2], "str", 42, null]));
      case 3:
        return new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]); // invalid UTF-8 inside JSON
      case 4:
        return JSON.stringify({
          [pick(["name", "namespace", "fields", "data", "scopes", "slug", "email", "active", "layout", "query"])]: pick([
            randomString(),
            1,
            true,
            [],
            {},
            null,
            [randomString()],
          ]),
        });
      case 5:
        return "x".repeat(1024 * 1024 + 10); // over 1 MB
      case 6:
        return JSON.stringify({ query: pick(["{", "{ me { keyId } }", `query { ${"{".repeat(200)}`, randomString()]) });
      case 7:
        return JSON.stringify({ a: "😀".repeat(1000), b: { c: { d: [[[[[]]]]] } } });
      default:
        return randomString();
    }
  };
  const statuses = new Map<number, number>();
  let sent = 0;
  for (let i = 0; i < 2000; i++) {
    const route = pick(routes);
    const method = r() < 0.85 ? route.method : pick(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
    const path = fill(route.path) + query();
    const headers: Record<string, string> = {};
    const who = Math.floor(r() * 5);
    // Writes go out with no identity, a viewer or a read key, so nothing may change; the owner's
    // token goes only on safe methods (a DELETE needs no body to act, so malformed bodies are no guard).
    if (who === 1) headers.authorization = `Bearer ${viewerToken}`;
    if (who === 2) headers["x-api-key"] = pick(keys);
    if (who === 3) headers["x-api-key"] = pick(["svc_live_abc\u00e2\u0080\u00a6", `pk_${randomString().replace(/[^\x21-\x7e]/g, "")}`, "x"]);
    if (r() < 0.3) headers["svc-version"] = pick(["2026-10-01", "2026-10-02", "", "garbage"]);
    if (r() < 0.2) headers["svc-contract"] = pick(["1", "2", "x"]);
    if (r() < 0.2) headers["x-svc-project"] = pick([owner.project.id, "nope", crypto.randomUUID()]);
    if (r() < 0.2) headers["content-type"] = pick(["application/json", "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"]);
    const safe = method === "GET" || method === "HEAD" || method === "OPTIONS";
    const b = method === "GET" || method === "HEAD" ? undefined : body();
    if (who === 4 && safe) headers.authorization = `Bearer ${owner.token}`;
    let res: Response;
    try {
      res = await h.capa.app.handle(new Request(`http://capa.test${path}`, { method, headers, body: b }));
    } catch (e) {
      // The Request constructor itself refused the URL or a header: nothing reached the server.
      if (e instanceof TypeError) {
        if (process.env.FUZZ_DEBUG) console.log("skipped", method, path.slice(0, 80), String(e));
        continue;
      }
      throw e;
    }
    await res.arrayBuffer();
    sent++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) throw new Error(`${method} ${path.slice(0, 300)} answered ${res.status} (seed ${seed}, request ${i})`);
  }
  expect(sent).toBeGreaterThan(1900);
  expect(snapshot()).toBe(before);
  // The server still serves real reads afterwards.
  const ok = await h.json("GET", `/api/entries/post/${entryId}?select=title`, { headers: { "x-api-key": keys[0]! } });
  expect(ok.status).toBe(200);
  expect(ok.body.data).toEqual({ id: entryId, title: "Hello" });
  // A spread of answers, not one refusal repeated.
  for (const st of [200, 400, 401, 403, 404, 405, 413]) expect(statuses.get(st) ?? 0).toBeGreaterThan(0);
}, 120_000);

test("raw bytes over a real socket: bad escapes, invalid UTF-8, oversized heads and bodies", async () => {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: h.capa.app.fetch, maxRequestBodySize: 1024 * 1024 + 1024 });
  const before = snapshot();
  const send = (raw: Uint8Array | string) =>
    new Promise<string>((resolve) => {
      let got = "";
      Bun.connect({
        hostname: "127.0.0.1",
        port: server.port!,
        socket: {
          open(s) {
            s.write(raw);
          },
          data(s, d) {
            got += new TextDecoder().decode(d);
            if (/\r\n\r\n/.test(got)) s.end();
          },
          close() {
            resolve(got);
          },
          error() {
            resolve(got);
          },
        },
      });
    });
  const req = (line: string, extra = "") => `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`;
  const cases: (string | Uint8Array)[] = [
    req("GET /api/me%E0%A4%A"),
    req("GET /api/entries/%"),
    req("GET /api/entries/post?where=%7B%22a%22%3A%7"),
    req("GET /v2/models/%zz"),
    new Uint8Array([
      ...new TextEncoder().encode("GET /api/entries/"),
      0xff,
      0xfe,
      ...new TextEncoder().encode(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    ]),
    req("GET /api/me", `x-api-key: ${"a".repeat(20_000)}\r\n`),
    req("GET /api/me", `x-api-key: ${keys[0]}\r\nx-pad: ${"b".repeat(17_000)}\r\n`),
    `${req("POST /v2/models", `Content-Type: application/json\r\nContent-Length: 2000000\r\n`)}{`,
    req("GARBAGE /api/me"),
    "\x00\x01\x02 not http at all\r\n\r\n",
    req("GET /api/entries/post", `x-api-key: ${keys[0]}\r\nsvc-page: \x01\x02\r\n`),
  ];
  const seen: string[] = [];
  for (const c of cases) {
    const answer = await send(c);
    const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? "closed";
    seen.push(status);
    if (status.startsWith("5")) throw new Error(`case ${seen.length - 1} answered ${status}: ${answer.slice(0, 300)}`);
  }
  // The refusals the contract names: a bare 400 for a bad escape and a bare 431 past 16 KB.
  expect(seen[0]).toBe("400");
  expect(seen[5]).toBe("431");
  const alive = await fetch(`http://127.0.0.1:${server.port}/api/versions`);
  expect(alive.status).toBe(200);
  server.stop(true);
  expect(snapshot()).toBe(before);
});
