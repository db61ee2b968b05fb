// API key management under /v2/tenants/api-keys (interface.md: API key, States and transitions:
// API key, Minting a scoped key, Scope grammar, Rotation, Management routes: API keys;
// decisions.md sections 8 and 9). One app and one sign-in for the whole file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import { updateKey } from "../../src/domain/keys/service.ts";
import { v2Body, AppError } from "../../src/errors.ts";
import { call, createModel, expectApiError, expectNoSecret, addMember, memberToken, HOUR, UUID, V1, type Answer } from "./helpers.ts";

const READ_GROUP = ["instance:read", "model:read", "media:read", "search:read", "category:read", "type:read", "workspace:read"];
const SCOPED_ANSWER = ["id", "name", "apiKey", "keyPrefix", "environment", "scopes", "version", "contract", "expiresAt"];
const LIST_ITEM = ["id", "name", "keyPrefix", "bundle", "environment", "scopes", "permission", "version", "createdAt"];
const STATUS_FIELDS = ["active", "allowedOrigins", "expiresAt", "lastUsedAt"];

let h: Harness;
let token: string;
let projectId: string;
let blog: { id: string; namespace: string };
let news: { id: string; namespace: string };
/** Every answer of the file after setup, and each secret with the index of the answer that showed it. */
const log: Answer[] = [];
const secrets: { secret: string; at: number }[] = [];

const KEYS = "/v2/tenants/api-keys";
const api = (method: string, path: string, opts: Parameters<Harness["req"]>[2] = {}) => call(h, method, path, opts, log);
const v2 = (method: string, path: string, body?: unknown) => api(method, path, { token, body });
const me = (secret: string, headers: Record<string, string> = {}) => api("GET", "/api/me", { headers: { "x-api-key": secret, ...headers } });

/** Mints over HTTP, expects 201 and remembers the secret. */
async function mint(body: Record<string, unknown>) {
  const r = await v2("POST", KEYS, body);
  expect(r.status).toBe(201);
  secrets.push({ secret: r.body.apiKey, at: log.length - 1 });
  return r.body;
}

/** Remembers the secret of a rotation answer. */
function remember(r: Answer) {
  if (r.status === 201 && typeof r.body?.apiKey === "string") secrets.push({ secret: r.body.apiKey, at: log.length - 1 });
}

const inAnHour = (extraMs = 0) => new Date(h.clock.now() + HOUR + extraMs).toISOString();

async function expectInvalidKey(secret: string) {
  const r = await me(secret);
  expectApiError(r, { status: 401, type: "authentication", code: "invalid_key", param: "x-api-key", keyed: true });
  expectNoSecret(r, secret);
}

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  blog = await createModel(h, token, "blog");
  news = await createModel(h, token, "news");
});
afterAll(() => h.close());

describe("minting a scoped key", () => {
  test("production: every answer field, svc_live_ + 32 characters, keyPrefix the first 12", async () => {
    const k = await mint({ name: "Site", scopes: ["instance:read"] });
    expect(Object.keys(k)).toEqual(SCOPED_ANSWER);
    expect(k.id).toMatch(UUID);
    expect(k.name).toBe("Site");
    expect(k.apiKey).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(k.keyPrefix).toBe(k.apiKey.slice(0, 12));
    expect(k.environment).toBe("production");
    expect(k.scopes).toEqual(["instance:read"]);
    expect(k.version).toBe(V1);
    expect(k.contract).toBe(1);
    expect(k.expiresAt).toBeNull();
    expect((await me(k.apiKey)).status).toBe(200);
  });

  test("development: svc_test_ prefix", async () => {
    const k = await mint({ name: "Preview", environment: "development", scopes: ["instance:read"] });
    expect(Object.keys(k)).toEqual(SCOPED_ANSWER);
    expect(k.apiKey).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(k.keyPrefix).toBe(k.apiKey.slice(0, 12));
    expect(k.environment).toBe("development");
  });

  test("an unknown environment is refused", async () => {
    const r = await v2("POST", KEYS, { environment: "staging", scopes: ["instance:read"] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field: "environment" });
  });

  test("expiresAt at least one hour ahead is kept; less than an hour ahead or in the past is refused", async () => {
    const at = inAnHour();
    const k = await mint({ scopes: ["instance:read"], expiresAt: at });
    expect(k.expiresAt).toBe(at);
    for (const bad of [inAnHour(-60_000), new Date(h.clock.now() - HOUR).toISOString()]) {
      const r = await v2("POST", KEYS, { scopes: ["instance:read"], expiresAt: bad });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "expiresAt must be at least one hour ahead", code: "invalid_body", field: "expiresAt" });
    }
    const notIso = await v2("POST", KEYS, { scopes: ["instance:read"], expiresAt: "tomorrow" });
    expect(notIso.status).toBe(400);
    expect(notIso.body).toMatchObject({ code: "invalid_body", field: "expiresAt" });
  });

  test("name: up to 120 characters; 121 is refused", async () => {
    const k = await mint({ name: "n".repeat(120), scopes: ["instance:read"] });
    expect(k.name).toBe("n".repeat(120));
    const r = await v2("POST", KEYS, { name: "n".repeat(121), scopes: ["instance:read"] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "name must be 1 to 120 characters", code: "invalid_body", field: "name" });
  });

  test("scopes: 0 and 101 are refused; 100 are accepted", async () => {
    for (const scopes of [[], Array.from({ length: 101 }, () => "instance:read")]) {
      const r = await v2("POST", KEYS, { scopes });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "scopes must be a list of 1 to 100 scope strings", code: "invalid_body", field: "scopes" });
    }
    const k = await mint({ scopes: Array.from({ length: 100 }, () => "instance:read") });
    expect(k.scopes).toEqual(["instance:read"]);
  });

  test("contractId is refused until contracts exist", async () => {
    const r = await v2("POST", KEYS, { scopes: ["instance:read"], contractId: 1 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "contractId is not accepted until contracts exist; this project has contract 1 only",
      code: "invalid_body",
      field: "contractId",
    });
  });

  test("apiVersion: a registered date pins the key; an unregistered one is refused", async () => {
    const k = await mint({ scopes: ["instance:read"], apiVersion: V1 });
    expect(k.version).toBe(V1);
    const r = await v2("POST", KEYS, { scopes: ["instance:read"], apiVersion: "2026-10-02" });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `apiVersion must be a supported version: ${V1}`, code: "invalid_body", field: "apiVersion" });
  });

  test.each(["api_key:*", "*:*", "*:read", "settings:update", "instance:fly", "api_key:read", "member:read"])("refused scope %s", async (scope) => {
    const r = await v2("POST", KEYS, { scopes: ["instance:read", scope] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `No key can hold this scope: ${scope}`, code: "invalid_scope", field: "scopes[1]", scope });
  });

  test("a per-model scope must name the model id, never its namespace", async () => {
    const r = await v2("POST", KEYS, { scopes: ["instance:read:blog"] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "A per-model scope names the model id, never the namespace: instance:read:blog",
      code: "invalid_scope",
      field: "scopes[0]",
      scope: "instance:read:blog",
    });
    const k = await mint({ scopes: [`instance:read:${blog.id}`, `model:update:${news.id}`] });
    expect(k.scopes).toEqual([`instance:read:${blog.id}`, `model:update:${news.id}`]);
  });

  test("wildcards are stored expanded to every action of the resource, read included (decisions.md 8)", async () => {
    const k = await mint({ scopes: ["instance:*"] });
    expect(k.scopes).toEqual(["instance:read", "instance:create", "instance:update", "instance:publish", "instance:delete"]);
    const all = await mint({ scopes: ["model:*", "media:*", "category:*", "type:*", "workspace:*", "webhook:*"] });
    expect(all.scopes).toEqual([
      "model:read",
      "model:create",
      "model:update",
      "model:publish",
      "model:delete",
      "media:read",
      "media:create",
      "media:update",
      "media:delete",
      "category:read",
      "category:create",
      "category:update",
      "category:delete",
      "type:read",
      "type:create",
      "type:update",
      "type:delete",
      "workspace:read",
      "workspace:create",
      "workspace:update",
      "workspace:delete",
      "webhook:read",
      "webhook:create",
      "webhook:update",
      "webhook:delete",
    ]);
  });

  test("a key minted with instance:* reads entries at once; one holding the old expansion keeps what it holds", async () => {
    const k = await mint({ scopes: ["instance:*"], environment: "development" });
    const r = await h.json("GET", "/api/entries/blog", { headers: { "x-api-key": k.apiKey } });
    expect([r.status, r.body.data]).toEqual([200, []]);
    const old = await mint({ scopes: ["instance:create", "instance:update", "instance:publish", "instance:delete"], environment: "development" });
    expect(old.scopes).toEqual(["instance:create", "instance:update", "instance:publish", "instance:delete"]);
    const refused = await h.json("GET", "/api/entries/blog", { headers: { "x-api-key": old.apiKey } });
    expect([refused.status, refused.body.error.code]).toEqual([403, "scope_missing"]);
  });

  test("presets mint the scopes of interface.md's preset table", async () => {
    const writer = [...READ_GROUP, "instance:create", "instance:update", "instance:publish", "media:create", "media:update"];
    const expected: Record<string, string[]> = {
      read_only: READ_GROUP,
      content_writer: writer,
      full_integration: [
        ...writer,
        "instance:delete",
        "media:delete",
        "category:create",
        "category:update",
        "category:delete",
        "workspace:create",
        "workspace:update",
        "workspace:delete",
      ],
      schema_builder: [
        ...READ_GROUP,
        "model:create",
        "model:update",
        "model:publish",
        "type:create",
        "type:update",
        "type:delete",
        "category:create",
        "category:update",
        "category:delete",
      ],
    };
    for (const [preset, scopes] of Object.entries(expected)) {
      const k = await mint({ preset });
      expect(Object.keys(k)).toEqual(SCOPED_ANSWER);
      expect([...k.scopes].sort()).toEqual([...scopes].sort());
    }
    const unknown = await v2("POST", KEYS, { preset: "everything" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "invalid_body", field: "preset" });
    const both = await v2("POST", KEYS, { preset: "read_only", scopes: ["instance:read"] });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: "invalid_body", field: "preset" });
  });
});

describe("minting a legacy key", () => {
  test.each(["read", "write", "delete", "agent"])("permission %s: pk_ in production, sk_ elsewhere", async (permission) => {
    const live = await mint({ permission });
    expect(live.apiKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
    expect(live).toMatchObject({ environment: "production", permission, keyPrefix: live.apiKey.slice(0, 12) });
    const test_ = await mint({ permission, environment: "development" });
    expect(test_.apiKey).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(test_).toMatchObject({ environment: "development", permission });
    expect(test_).not.toHaveProperty("scopes");
  });

  test("legacy permissions map to scopes (decisions.md section 8)", async () => {
    const r = await v2("GET", KEYS);
    const byPermission = new Map<string, string[]>(r.body.data.filter((k: any) => k.bundle === "legacy").map((k: any) => [k.permission, k.scopes]));
    const write = [...READ_GROUP, "instance:create", "instance:update", "instance:publish", "media:create", "media:update"];
    expect(byPermission.get("read")).toEqual(READ_GROUP);
    expect(byPermission.get("write")).toEqual(write);
    expect(byPermission.get("delete")).toEqual([...write, "instance:delete", "media:delete"]);
    expect(byPermission.get("agent")).toEqual(
      expect.arrayContaining([...write, "instance:delete", "media:delete", "workspace:create", "workspace:update", "workspace:delete"]),
    );
  });

  test("an unknown permission, permission beside scopes, and neither are refused", async () => {
    const bad = await v2("POST", KEYS, { permission: "admin" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "permission must be read, write, delete or agent", code: "invalid_body", field: "permission" });
    const both = await v2("POST", KEYS, { permission: "read", scopes: ["instance:read"] });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: "invalid_body", field: "permission" });
    const neither = await v2("POST", KEYS, { name: "x" });
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ code: "invalid_body", field: "scopes" });
  });
});

describe("who may mint", () => {
  let developer: string;
  let editor: string;
  beforeAll(async () => {
    developer = await memberToken(h, token, projectId, "dev@example.com", "developer");
    editor = await memberToken(h, token, projectId, "editor@example.com", "editor");
  });

  test("a developer mints within what the role holds", async () => {
    const r = await api("POST", KEYS, { token: developer, headers: { "x-svc-project": projectId }, body: { scopes: ["model:create"] } });
    expect(r.status).toBe(201);
    remember(r);
    expect(r.body.scopes).toEqual(["model:create"]);
  });

  test("an editor holds no api_key scope: minting and listing are 403 Insufficient permissions", async () => {
    const r = await api("POST", KEYS, { token: editor, headers: { "x-svc-project": projectId }, body: { scopes: ["model:create"] } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "developer"], current: "editor" });
    const list = await api("GET", KEYS, { token: editor, headers: { "x-svc-project": projectId } });
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "developer"], current: "editor" });
  });

  test("Cannot grant a scope you do not hold, with the scope named (an editor granting model:create)", () => {
    // No role that may mint over HTTP lacks a key scope, so the refusal is checked on the domain call.
    const editorP = { kind: "user" as const, userId: "u", projectId, role: "editor" as const };
    let err: unknown;
    try {
      mintKey(h.capa.services, projectId, editorP, { scopes: ["instance:read", "model:create"] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(403);
    expect(v2Body(err as AppError)).toEqual({ error: "Cannot grant a scope you do not hold", code: "scope_not_held", scope: "model:create" });
    // A per-model grant within an unscoped one the editor holds is fine; the same on edit is refused.
    const ok = mintKey(h.capa.services, projectId, editorP, { scopes: [`instance:update:${blog.id}`] });
    secrets.push({ secret: ok.apiKey, at: -1 });
    expect(() => updateKey(h.capa.services, projectId, editorP, ok.id, { scopes: [`model:update:${blog.id}`] })).toThrow(
      "Cannot grant a scope you do not hold",
    );
  });
});

describe("listing and grantable", () => {
  test("the list without ?includeStatus has no status fields; with it, it has them", async () => {
    const k = await mint({ name: "Listed", scopes: ["instance:read"] });
    const plain = await v2("GET", KEYS);
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body)).toEqual(["data"]);
    const item = plain.body.data.find((x: any) => x.id === k.id);
    expect(Object.keys(item)).toEqual(LIST_ITEM);
    expect(item).toEqual({
      id: k.id,
      name: "Listed",
      keyPrefix: k.keyPrefix,
      bundle: "scoped",
      environment: "production",
      scopes: ["instance:read"],
      permission: null,
      version: V1,
      createdAt: expect.any(String),
    });
    for (const x of plain.body.data) for (const f of STATUS_FIELDS) expect(x).not.toHaveProperty(f);

    const withStatus = await v2("GET", `${KEYS}?includeStatus=true`);
    const st = withStatus.body.data.find((x: any) => x.id === k.id);
    expect(Object.keys(st)).toEqual([...LIST_ITEM, ...STATUS_FIELDS]);
    expect(st).toMatchObject({ active: true, allowedOrigins: [], expiresAt: null, lastUsedAt: null });

    expect((await me(k.apiKey)).status).toBe(200);
    const after = await v2("GET", `${KEYS}?includeStatus=true`);
    expect(after.body.data.find((x: any) => x.id === k.id).lastUsedAt).toBe(new Date(h.clock.now()).toISOString());
    const off = await v2("GET", `${KEYS}?includeStatus=false`);
    for (const f of STATUS_FIELDS) expect(off.body.data[0]).not.toHaveProperty(f);
  });

  test("grantable lists every key scope with held, the presets and the legacy permissions", async () => {
    const r = await v2("GET", `${KEYS}/grantable`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["scopes", "presets", "permissions"]);
    const scopes = r.body.scopes.map((x: any) => x.scope);
    expect(scopes).toEqual(expect.arrayContaining([...READ_GROUP, "instance:create", "model:delete", "webhook:read", "webhook:delete"]));
    expect(scopes.filter((x: string) => x.startsWith("api_key") || x.startsWith("member") || x.startsWith("settings"))).toEqual([]);
    expect(r.body.scopes.every((x: any) => x.held === true)).toBe(true);
    expect(r.body.presets.map((p: any) => p.name)).toEqual(["read_only", "content_writer", "full_integration", "schema_builder"]);
    expect(r.body.presets[0]).toEqual({ name: "read_only", scopes: READ_GROUP, grantable: true });
    expect(r.body.permissions).toEqual(["read", "write", "delete", "agent"].map((permission) => ({ permission, grantable: true })));
  });
});

describe("editing (PATCH /:id)", () => {
  test("name: the answer is the key's state, without the secret", async () => {
    const k = await mint({ name: "Before", scopes: ["instance:read"] });
    const r = await v2("PATCH", `${KEYS}/${k.id}`, { name: "After" });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty("apiKey");
    expect(r.body).toMatchObject({ id: k.id, name: "After", keyPrefix: k.keyPrefix, scopes: ["instance:read"], version: V1, expiresAt: null, active: true });
    expectNoSecret(r, k.apiKey);
    expect((await me(k.apiKey)).body.data.name).toBe("After");
  });

  test("scopes: checked, expanded and in force at once", async () => {
    const k = await mint({ scopes: ["model:read"] });
    expect((await me(k.apiKey)).body.data.scopes).toEqual(["model:read"]);
    const r = await v2("PATCH", `${KEYS}/${k.id}`, { scopes: ["instance:read", "instance:*"] });
    expect(r.status).toBe(200);
    expect(r.body.scopes).toEqual(["instance:read", "instance:create", "instance:update", "instance:publish", "instance:delete"]);
    expect((await me(k.apiKey)).body.data.scopes).toEqual(r.body.scopes);
    const bad = await v2("PATCH", `${KEYS}/${k.id}`, { scopes: ["*:read"] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "No key can hold this scope: *:read", code: "invalid_scope", field: "scopes[0]", scope: "*:read" });
  });

  test("expiresAt: set, passes (401), cleared with null (works again); less than an hour ahead refused", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const at = inAnHour(HOUR);
    const r = await v2("PATCH", `${KEYS}/${k.id}`, { expiresAt: at });
    expect(r.status).toBe(200);
    expect(r.body.expiresAt).toBe(at);
    expect((await me(k.apiKey)).body.data.expiresAt).toBe(at);
    const soon = await v2("PATCH", `${KEYS}/${k.id}`, { expiresAt: inAnHour(-1000) });
    expect(soon.status).toBe(400);
    expect(soon.body).toEqual({ error: "expiresAt must be at least one hour ahead", code: "invalid_body", field: "expiresAt" });
    h.clock.advance(2 * HOUR);
    await expectInvalidKey(k.apiKey);
    const cleared = await v2("PATCH", `${KEYS}/${k.id}`, { expiresAt: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.expiresAt).toBeNull();
    expect((await me(k.apiKey)).status).toBe(200);
  });

  test("apiVersion: a registered date is accepted; an unregistered date or null is refused", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const ok = await v2("PATCH", `${KEYS}/${k.id}`, { apiVersion: V1 });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(V1);
    for (const apiVersion of ["2026-10-02", "2026-10-1", null]) {
      const r = await v2("PATCH", `${KEYS}/${k.id}`, { apiVersion });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field: "apiVersion" });
    }
  });

  test("scopes on a legacy key are refused: legacy keys are never converted", async () => {
    const k = await mint({ permission: "read" });
    const r = await v2("PATCH", `${KEYS}/${k.id}`, { scopes: ["instance:read"] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "Scopes need a scoped key; legacy keys are never converted. Mint a scoped key instead.",
      code: "invalid_body",
      field: "scopes",
    });
    const list = await v2("GET", KEYS);
    expect(list.body.data.find((x: any) => x.id === k.id)).toMatchObject({ bundle: "legacy", permission: "read", scopes: READ_GROUP });
  });

  test("fields that cannot change, and an unknown key", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const env = await v2("PATCH", `${KEYS}/${k.id}`, { environment: "development" });
    expect(env.status).toBe(400);
    expect(env.body).toEqual({ error: "environment cannot be changed here", code: "invalid_body", field: "environment" });
    const missing = await v2("PATCH", `${KEYS}/01a20000-0000-7000-8000-000000000000`, { name: "x" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "No such API key in this project.", code: "not_found" });
  });
});

describe("rotation", () => {
  test("the successor keeps name, scopes, environment, origins and pin; the predecessor works until graceHours pass", async () => {
    const k = await mint({ name: "Rotated", environment: "development", scopes: ["instance:read", `instance:update:${blog.id}`] });
    const origins = await v2("PATCH", `${KEYS}/${k.id}/allowed-origins`, { allowedOrigins: ["https://shop.example.com"] });
    expect(origins.status).toBe(200);
    const t0 = h.clock.now();
    const r = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 2 });
    remember(r);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual([...SCOPED_ANSWER, "permission", "rotatedFrom"]);
    const s = r.body;
    expect(s.id).not.toBe(k.id);
    expect(s.apiKey).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(s.apiKey).not.toBe(k.apiKey);
    expect(s).toMatchObject({
      name: "Rotated",
      keyPrefix: s.apiKey.slice(0, 12),
      environment: "development",
      scopes: k.scopes,
      version: k.version,
      contract: 1,
      expiresAt: null,
      permission: null,
      rotatedFrom: { id: k.id, expiresAt: new Date(t0 + 2 * HOUR).toISOString() },
    });
    const list = (await v2("GET", `${KEYS}?includeStatus=true`)).body.data;
    const pred = list.find((x: any) => x.id === k.id);
    const succ = list.find((x: any) => x.id === s.id);
    expect(succ).toMatchObject({
      name: "Rotated",
      environment: "development",
      scopes: k.scopes,
      version: pred.version,
      allowedOrigins: ["https://shop.example.com"],
    });
    expect(pred.expiresAt).toBe(new Date(t0 + 2 * HOUR).toISOString());
    // The successor carries the origins: another origin is refused.
    const refused = await me(s.apiKey, { origin: "https://evil.example.com" });
    expectApiError(refused, { status: 403, type: "permission", code: "origin_refused", param: "Origin", keyId: s.id, keyed: true });
    const meS = await me(s.apiKey);
    expect(meS.body.data.rotatedFrom).toEqual({ id: k.id, expiresAt: new Date(t0 + 2 * HOUR).toISOString() });

    h.clock.advance(2 * HOUR - 1000);
    expect((await me(k.apiKey)).status).toBe(200);
    h.clock.advance(1000);
    await expectInvalidKey(k.apiKey);
    expect((await me(s.apiKey)).status).toBe(200);
    // A second rotation, even once the predecessor has expired, is 409.
    const again = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 2 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "This key was rotated already; rotate its successor instead.", code: "already_rotated" });
    // The successor was not rotated before, so it can be.
    const next = await v2("POST", `${KEYS}/${s.id}/rotate`, { graceHours: 0 });
    remember(next);
    expect(next.status).toBe(201);
    expect(next.body.rotatedFrom).toEqual({ id: s.id, expiresAt: new Date(h.clock.now()).toISOString() });
  });

  test("graceHours 0 retires the predecessor at once; absent means 24", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    expect((await me(k.apiKey)).status).toBe(200);
    const r = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 0 });
    remember(r);
    expect(r.status).toBe(201);
    expect(r.body.rotatedFrom).toEqual({ id: k.id, expiresAt: new Date(h.clock.now()).toISOString() });
    await expectInvalidKey(k.apiKey);
    expect((await me(r.body.apiKey)).status).toBe(200);

    const d = await mint({ scopes: ["instance:read"] });
    const rd = await v2("POST", `${KEYS}/${d.id}/rotate`, {});
    remember(rd);
    expect(rd.status).toBe(201);
    expect(rd.body.rotatedFrom.expiresAt).toBe(new Date(h.clock.now() + 24 * HOUR).toISOString());
  });

  test("graceHours outside 0 to 168 is refused and the key stays unrotated", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    for (const graceHours of [169, -1, 1.5, "2"]) {
      const r = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "graceHours must be a whole number from 0 to 168", code: "invalid_body", field: "graceHours" });
    }
    expect((await me(k.apiKey)).status).toBe(200);
    const ok = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 168 });
    remember(ok);
    expect(ok.status).toBe(201);
  });

  test("a legacy key rotates into a legacy key", async () => {
    const k = await mint({ permission: "write" });
    const r = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 1 });
    remember(r);
    expect(r.status).toBe(201);
    expect(r.body.apiKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
    expect(r.body).toMatchObject({ environment: "production", permission: "write", rotatedFrom: { id: k.id } });
  });
});

describe("revoking (PATCH /:id/active)", () => {
  test("false refuses the key at once; true brings it back", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    expect((await me(k.apiKey)).status).toBe(200);
    const off = await v2("PATCH", `${KEYS}/${k.id}/active`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: k.id, active: false });
    expect(off.body).not.toHaveProperty("apiKey");
    await expectInvalidKey(k.apiKey);
    const on = await v2("PATCH", `${KEYS}/${k.id}/active`, { active: true });
    expect(on.status).toBe(200);
    expect(on.body.active).toBe(true);
    expect((await me(k.apiKey)).status).toBe(200);
    const bad = await v2("PATCH", `${KEYS}/${k.id}/active`, { active: "no" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "active must be true or false", code: "invalid_body", field: "active" });
  });
});

describe("allowed origins and domains seen", () => {
  test("up to 50 origins; 51 refused; listed origin passes, another is refused, no Origin passes", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const many = Array.from({ length: 51 }, (_, i) => `https://site${i}.example.com`);
    const r51 = await v2("PATCH", `${KEYS}/${k.id}/allowed-origins`, { allowedOrigins: many });
    expect(r51.status).toBe(400);
    expect(r51.body).toEqual({ error: "allowedOrigins holds at most 50 origins", code: "invalid_body", field: "allowedOrigins" });
    const r50 = await v2("PATCH", `${KEYS}/${k.id}/allowed-origins`, { allowedOrigins: many.slice(0, 50) });
    expect(r50.status).toBe(200);
    expect(r50.body.allowedOrigins).toHaveLength(50);
    const path = await v2("PATCH", `${KEYS}/${k.id}/allowed-origins`, { allowedOrigins: ["https://shop.example.com/cart"] });
    expect(path.status).toBe(400);
    expect(path.body).toMatchObject({ code: "invalid_body", field: "allowedOrigins[0]" });

    const set = await v2("PATCH", `${KEYS}/${k.id}/allowed-origins`, { allowedOrigins: ["https://shop.example.com"] });
    expect(set.body.allowedOrigins).toEqual(["https://shop.example.com"]);
    expect((await me(k.apiKey, { origin: "https://shop.example.com" })).status).toBe(200);
    const other = await me(k.apiKey, { origin: "https://other.example.com" });
    expectApiError(other, { status: 403, type: "permission", code: "origin_refused", param: "Origin", keyId: k.id, keyed: true });
    expectNoSecret(other, k.apiKey);
    expect((await me(k.apiKey)).status).toBe(200);
    // An empty list accepts any origin again.
    await v2("PATCH", `${KEYS}/${k.id}/allowed-origins`, { allowedOrigins: [] });
    expect((await me(k.apiKey, { origin: "https://other.example.com" })).status).toBe(200);
  });

  test("domains seen lists the host of the Origin the key was used from", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    const none = await v2("GET", `${KEYS}/${k.id}/domains-seen`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [] });
    expect((await me(k.apiKey, { origin: "https://shop.example.com" })).status).toBe(200);
    const seen = await v2("GET", `${KEYS}/${k.id}/domains-seen`);
    expect(seen.body).toEqual({ data: [{ domain: "shop.example.com", lastSeenAt: new Date(h.clock.now()).toISOString() }] });
  });
});

describe("deleting", () => {
  test("a deleted key answers 401 and leaves the list", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    expect((await me(k.apiKey)).status).toBe(200);
    const r = await v2("DELETE", `${KEYS}/${k.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    await expectInvalidKey(k.apiKey);
    expect((await v2("GET", KEYS)).body.data.some((x: any) => x.id === k.id)).toBe(false);
    const again = await v2("DELETE", `${KEYS}/${k.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "No such API key in this project.", code: "not_found" });
  });
});

describe("API key states (interface.md, States and transitions: API key)", () => {
  let k: any;
  let successor: any;
  beforeAll(async () => {
    k = await mint({ scopes: ["instance:read"] });
  });

  test("active -> inactive (revoked) by PATCH /active false", async () => {
    const r = await v2("PATCH", `${KEYS}/${k.id}/active`, { active: false });
    expect(r.body.active).toBe(false);
    await expectInvalidKey(k.apiKey);
  });

  test("inactive -> active by PATCH /active true", async () => {
    const r = await v2("PATCH", `${KEYS}/${k.id}/active`, { active: true });
    expect(r.body.active).toBe(true);
    expect((await me(k.apiKey)).status).toBe(200);
  });

  test("active -> active with a successor by rotate; the predecessor gets an expiry graceHours from now", async () => {
    const r = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 3 });
    remember(r);
    expect(r.status).toBe(201);
    successor = r.body;
    expect(successor.rotatedFrom).toEqual({ id: k.id, expiresAt: new Date(h.clock.now() + 3 * HOUR).toISOString() });
    expect((await me(k.apiKey)).status).toBe(200);
    expect((await me(successor.apiKey)).status).toBe(200);
  });

  test("rotate again on the same key: 409, state unchanged", async () => {
    const r = await v2("POST", `${KEYS}/${k.id}/rotate`, { graceHours: 0 });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "This key was rotated already; rotate its successor instead.", code: "already_rotated" });
    expect((await me(k.apiKey)).body.data.expiresAt).toBe(successor.rotatedFrom.expiresAt);
  });

  test("expiry time passes: refused as invalid (401 invalid_key)", async () => {
    h.clock.advance(3 * HOUR);
    await expectInvalidKey(k.apiKey);
    expect((await me(successor.apiKey)).status).toBe(200);
  });
});

describe("the secret", () => {
  test("is stored hashed: no column of control.sqlite holds it, key_hash is its SHA-256", () => {
    h.capa.keys.flush();
    expect(secrets.length).toBeGreaterThan(30);
    const db = new Database(join(h.dir, "control.sqlite"), { readonly: true });
    try {
      const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      const cells: string[] = [];
      for (const { name } of tables) {
        for (const row of db.query(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
          for (const v of Object.values(row)) if (v !== null) cells.push(String(v));
        }
      }
      for (const { secret } of secrets) {
        expect(cells.some((c) => c.includes(secret))).toBe(false);
        const hash = new Bun.CryptoHasher("sha256").update(secret).digest("hex");
        const row = db.query("SELECT key_prefix FROM api_keys WHERE key_hash = ?").get(hash) as { key_prefix: string } | null;
        // Deleted keys are gone; every other key is found by its hash.
        if (row) expect(row.key_prefix).toBe(secret.slice(0, 12));
      }
    } finally {
      db.close();
    }
  });

  test("never appears in a later answer (lists, edits, refusals, /api/me), body or header", () => {
    expect(log.length).toBeGreaterThan(100);
    for (const { secret, at } of secrets) {
      log.forEach((a, i) => {
        if (i !== at) expectNoSecret(a, secret);
      });
    }
  });

  test("domains seen keeps 30 days", async () => {
    const k = await mint({ scopes: ["instance:read"] });
    await me(k.apiKey, { origin: "https://old.example.com" });
    h.clock.advance(31 * 24 * HOUR);
    const login = await h.json("POST", "/v2/user/login", { body: { email: "owner@example.com", password: "owner-password-1" } });
    token = login.body.accessToken;
    const r = await v2("GET", `${KEYS}/${k.id}/domains-seen`);
    expect(r.body).toEqual({ data: [] });
  });
});

describe("granting over HTTP", () => {
  test("a developer cannot grant media:create, which developers do not hold", async () => {
    const h = startApp();
    try {
      const o = await withOwner(h);
      const add = await addMember(h, o.token, o.project.id, "dev@example.com", "developer", "developer-pass-1");
      expect(add.status).toBe(201);
      const login = await h.json("POST", "/v2/user/login", { body: { email: "dev@example.com", password: "developer-pass-1" } });
      const r = await h.json("POST", "/v2/tenants/api-keys", {
        token: login.body.accessToken,
        headers: { "x-svc-project": o.project.id },
        body: { scopes: ["instance:read", "media:create"] },
      });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: "Cannot grant a scope you do not hold", code: "scope_not_held", scope: "media:create" });
      const ok = await h.json("POST", "/v2/tenants/api-keys", {
        token: login.body.accessToken,
        headers: { "x-svc-project": o.project.id },
        body: { scopes: ["instance:read", "model:create"] },
      });
      expect(ok.status).toBe(201);
      expect(ok.body.scopes).toEqual(["instance:read", "model:create"]);
    } finally {
      h.close();
    }
  });
});

describe("rotation edges", () => {
  test("a revoked key is not rotated (409, nothing minted); reactivated, it rotates", async () => {
    const h = startApp();
    try {
      const o = await withOwner(h);
      const k = (await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { scopes: ["instance:read"], name: "site" } })).body;
      expect((await h.json("PATCH", `/v2/tenants/api-keys/${k.id}/active`, { token: o.token, body: { active: false } })).status).toBe(200);
      const refused = await h.json("POST", `/v2/tenants/api-keys/${k.id}/rotate`, { token: o.token, body: { graceHours: 1 } });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: "This key is revoked; reactivate it before rotating it.", code: "conflict" });
      expect((await h.json("GET", "/v2/tenants/api-keys", { token: o.token })).body.data).toHaveLength(1);
      await h.json("PATCH", `/v2/tenants/api-keys/${k.id}/active`, { token: o.token, body: { active: true } });
      expect((await h.json("POST", `/v2/tenants/api-keys/${k.id}/rotate`, { token: o.token, body: { graceHours: 1 } })).status).toBe(201);
    } finally {
      h.close();
    }
  });

  test("edit answers name the predecessor as { id, expiresAt }, as rotation and /api/me do", async () => {
    const h = startApp();
    try {
      const o = await withOwner(h);
      const k = (await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { scopes: ["instance:read"], name: "site" } })).body;
      const next = (await h.json("POST", `/v2/tenants/api-keys/${k.id}/rotate`, { token: o.token, body: { graceHours: 2 } })).body;
      const expiresAt = new Date(h.clock.now() + 2 * 3600_000).toISOString();
      expect(next.rotatedFrom).toEqual({ id: k.id, expiresAt });
      const renamed = await h.json("PATCH", `/v2/tenants/api-keys/${next.id}`, { token: o.token, body: { name: "site 2" } });
      expect(renamed.body.rotatedFrom).toEqual({ id: k.id, expiresAt });
      const origins = await h.json("PATCH", `/v2/tenants/api-keys/${next.id}/allowed-origins`, { token: o.token, body: { allowedOrigins: [] } });
      expect(origins.body.rotatedFrom).toEqual({ id: k.id, expiresAt });
      const first = await h.json("PATCH", `/v2/tenants/api-keys/${k.id}`, { token: o.token, body: { name: "old" } });
      expect(first.body.rotatedFrom).toBeNull();
    } finally {
      h.close();
    }
  });
});
