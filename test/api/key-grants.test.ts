// Hardening item 8: rotation and edits obey "grant only what you hold". A developer cannot
// rotate, edit, reactivate or re-origin a key holding a scope developers do not hold (403
// scope_not_held naming the scope, nothing changed, no secret minted), but may revoke it; and a
// rotated-out key's expiresAt can only move earlier (clearing it or moving it later is 400).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "./helpers.ts";

const KEYS = "/v2/tenants/api-keys";
const NOT_HELD = { error: "Cannot grant a scope you do not hold", code: "scope_not_held", scope: "media:create" };

let h: Harness;
let owner: string;
let dev: string;
let projectId: string;

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  owner = o.token;
  projectId = o.project.id;
  dev = await memberToken(h, owner, projectId, "dev@example.com", "developer");
});
afterAll(() => h.close());

const as = (token: string, method: string, path: string, body?: unknown) => h.json(method, path, { token, headers: { "x-svc-project": projectId }, body });
const keyCount = async () => (await as(owner, "GET", KEYS)).body.data.length as number;
const state = async (id: string) => (await as(owner, "GET", `${KEYS}?includeStatus=true`)).body.data.find((k: { id: string }) => k.id === id);

describe("a developer and a key holding media:create (which developers do not hold)", () => {
  let strong: { id: string; apiKey: string };
  beforeAll(async () => {
    const r = await as(owner, "POST", KEYS, { name: "Uploader", scopes: ["instance:read", "media:create"] });
    expect(r.status).toBe(201);
    strong = r.body;
  });

  test("rotate: 403 scope_not_held, no successor minted, the key not rotated", async () => {
    const before = await keyCount();
    const r = await as(dev, "POST", `${KEYS}/${strong.id}/rotate`, { graceHours: 1 });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(NOT_HELD);
    expect(await keyCount()).toBe(before);
    expect(await state(strong.id)).toMatchObject({ active: true, expiresAt: null });
  });

  test.each([
    ["name", { name: "Mine now" }],
    ["expiresAt", { expiresAt: "2026-12-01T00:00:00.000Z" }],
    ["apiVersion", { apiVersion: "2026-10-01" }],
    ["scopes narrowed", { scopes: ["instance:read"] }],
  ])("edit (%s): 403 scope_not_held and nothing changes", async (_what, body) => {
    const before = await state(strong.id);
    const r = await as(dev, "PATCH", `${KEYS}/${strong.id}`, body);
    expect(r.status).toBe(403);
    expect(r.body).toEqual(NOT_HELD);
    expect(await state(strong.id)).toEqual(before);
  });

  test("allowed origins: 403 scope_not_held and nothing changes", async () => {
    const r = await as(dev, "PATCH", `${KEYS}/${strong.id}/allowed-origins`, { allowedOrigins: ["https://dev.example.com"] });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(NOT_HELD);
    expect((await state(strong.id)).allowedOrigins).toEqual([]);
  });

  test("revoking is allowed (it takes power away); reactivating is not", async () => {
    const off = await as(dev, "PATCH", `${KEYS}/${strong.id}/active`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const on = await as(dev, "PATCH", `${KEYS}/${strong.id}/active`, { active: true });
    expect(on.status).toBe(403);
    expect(on.body).toEqual(NOT_HELD);
    expect((await state(strong.id)).active).toBe(false);
    const back = await as(owner, "PATCH", `${KEYS}/${strong.id}/active`, { active: true });
    expect(back.status).toBe(200);
  });

  test("the owner, who holds media:create, rotates and edits it; a developer's own key stays the developer's to rotate", async () => {
    expect((await as(owner, "PATCH", `${KEYS}/${strong.id}`, { name: "Uploader 2" })).status).toBe(200);
    const own = await as(dev, "POST", KEYS, { name: "Dev", scopes: ["instance:read", "model:create"] });
    expect(own.status).toBe(201);
    const rot = await as(dev, "POST", `${KEYS}/${own.body.id}/rotate`, { graceHours: 1 });
    expect(rot.status).toBe(201);
    expect(rot.body.scopes).toEqual(["instance:read", "model:create"]);
  });
});

describe("a rotated-out key's expiresAt only moves earlier", () => {
  let old: { id: string };
  let expiresAt: string;
  beforeAll(async () => {
    const k = await as(owner, "POST", KEYS, { name: "Site", scopes: ["instance:read"] });
    const rot = await as(owner, "POST", `${KEYS}/${k.body.id}/rotate`, { graceHours: 24 });
    expect(rot.status).toBe(201);
    old = k.body;
    expiresAt = rot.body.rotatedFrom.expiresAt;
    expect(expiresAt).toBe(new Date(h.clock.now() + 24 * 3600_000).toISOString());
  });

  const refused = () => ({
    error: `This key was rotated; its expiresAt can only move earlier than ${expiresAt}`,
    code: "invalid_body",
    field: "expiresAt",
  });

  test.each([
    ["cleared (null)", null],
    ["moved later", "2026-11-23T12:00:00.000Z"],
  ])("%s: 400 naming expiresAt, the expiry unchanged", async (_what, value) => {
    for (const token of [owner, dev]) {
      const r = await as(token, "PATCH", `${KEYS}/${old.id}`, { expiresAt: value });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(refused());
      expect((await state(old.id)).expiresAt).toBe(expiresAt);
    }
  });

  test("moved earlier: accepted, and the same expiry again is accepted too", async () => {
    const earlier = new Date(h.clock.now() + 2 * 3600_000).toISOString();
    const r = await as(dev, "PATCH", `${KEYS}/${old.id}`, { expiresAt: earlier });
    expect(r.status).toBe(200);
    expect(r.body.expiresAt).toBe(earlier);
    expect((await as(dev, "PATCH", `${KEYS}/${old.id}`, { expiresAt: earlier })).status).toBe(200);
    expect((await as(dev, "PATCH", `${KEYS}/${old.id}`, { expiresAt })).body).toEqual({
      error: `This key was rotated; its expiresAt can only move earlier than ${earlier}`,
      code: "invalid_body",
      field: "expiresAt",
    });
  });
});
