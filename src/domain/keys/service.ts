// API keys: mint, list, edit, rotate, revoke, origins, delete. The secret is returned once and
// stored as SHA-256 (keys are high-entropy, so no slow hash is needed on the read path).
import { and, eq, gte } from "drizzle-orm";
import { apiKeys, keyDomains, projects } from "../../storage/control/schema.ts";
import { AppError, badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import { PRESETS, legacyScopes } from "../access/scopes.ts";
import { isVersion, LATEST_VERSION, VERSIONS } from "../versions.ts";
import { checkHoldsAll, grantScopes, minterHolds, PERMISSIONS, type Minter } from "./grants.ts";
import { writeControl } from "../unit-of-work.ts";
import { grantSignature, readGrantsOf } from "../reads/reader.ts";
import type { Static } from "@sinclair/typebox";
import type { RotateBody } from "../access/body-models.ts";

export type KeyRow = typeof apiKeys.$inferSelect;
export { grantable, PERMISSIONS, type Minter } from "./grants.ts";
const HOUR = 3600_000;

function checkName(v: unknown): string {
  if (v === undefined || v === null) return "API key";
  if (typeof v !== "string" || v.trim().length === 0 || v.length > 120) badField("name", "name must be 1 to 120 characters");
  return v.trim();
}

function checkEnvironment(v: unknown): string {
  if (v === undefined || v === null) return "production";
  if (v !== "production" && v !== "development") badField("environment", "environment must be production or development");
  return v;
}

function checkExpiry(s: Services, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || Number.isNaN(Date.parse(v)) || !/^\d{4}-\d{2}-\d{2}T/.test(v)) badField("expiresAt", "expiresAt must be an ISO 8601 time");
  const t = Date.parse(v);
  if (t < s.clock.now() + HOUR) badField("expiresAt", "expiresAt must be at least one hour ahead");
  return iso(t);
}

function checkApiVersion(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !isVersion(v)) {
    badField("apiVersion", `apiVersion must be a supported version: ${VERSIONS.map((x) => x.date).join(", ")}`);
  }
  return v;
}

function secretFor(family: "scoped" | "legacy", environment: string): string {
  const live = environment === "production";
  if (family === "scoped") return (live ? "svc_live_" : "svc_test_") + randomToken(32);
  return (live ? "pk_" : "sk_") + randomToken(32);
}

/** The key's state without the secret. */
export function keyState(r: KeyRow) {
  return {
    id: r.id,
    name: r.name,
    keyPrefix: r.keyPrefix,
    bundle: r.family,
    environment: r.environment,
    scopes: JSON.parse(r.scopes) as string[],
    permission: r.permission,
    version: r.apiVersion ?? "2026-10-01",
    contract: 1,
    expiresAt: r.expiresAt,
    active: r.active,
    allowedOrigins: JSON.parse(r.allowedOrigins) as string[],
    lastUsedAt: r.lastUsedAt,
    rotatedFrom: r.rotatedFromId,
    createdAt: r.createdAt,
  };
}

/** A rotated key's predecessor with its expiry, as every answer shows it; null for other keys. */
function predecessorOf(s: Services, r: KeyRow): { id: string; expiresAt: string | null } | null {
  if (!r.rotatedFromId) return null;
  return (
    s.control.db.select({ id: apiKeys.id, expiresAt: apiKeys.expiresAt }).from(apiKeys).where(eq(apiKeys.id, r.rotatedFromId)).get() ?? {
      id: r.rotatedFromId,
      expiresAt: null,
    }
  );
}

/** The key's state as the edit routes answer it (rotatedFrom as `{ id, expiresAt }`, like rotation and /api/me). */
function answerState(s: Services, r: KeyRow) {
  return { ...keyState(r), rotatedFrom: predecessorOf(s, r) };
}

function insertKey(s: Services, row: Omit<KeyRow, "keyHash" | "keyPrefix">): { row: KeyRow; secret: string } {
  const secret = secretFor(row.family as "scoped" | "legacy", row.environment);
  const full: KeyRow = { ...row, keyHash: sha256Hex(secret), keyPrefix: secret.slice(0, 12) };
  s.control.db.insert(apiKeys).values(full).run();
  return { row: full, secret };
}

/** The answer to a mint or rotation (the only answers that hold the secret). */
function minted(row: KeyRow, secret: string) {
  const base = {
    id: row.id,
    name: row.name,
    apiKey: secret,
    keyPrefix: row.keyPrefix,
    environment: row.environment,
  };
  if (row.family === "legacy") {
    return { ...base, permission: row.permission, version: row.apiVersion ?? "2026-10-01", contract: 1, expiresAt: row.expiresAt };
  }
  return { ...base, scopes: JSON.parse(row.scopes) as string[], version: row.apiVersion!, contract: 1, expiresAt: row.expiresAt };
}

/** Mints a scoped key (with `scopes` or a `preset`) or a legacy key (with `permission`). */
export function mintKey(s: Services, projectId: string, minter: Minter, body: Record<string, unknown>) {
  const known = new Set(["name", "environment", "scopes", "preset", "expiresAt", "apiVersion", "contractId", "permission"]);
  for (const k of Object.keys(body)) if (!known.has(k)) badField(k, `${k} is not a key field`);
  if (body.contractId !== undefined) badField("contractId", "contractId is not accepted until contracts exist; this project has contract 1 only");
  const name = checkName(body.name);
  const environment = checkEnvironment(body.environment);
  const expiresAt = checkExpiry(s, body.expiresAt);
  const now = iso(s.clock.now());
  const base = {
    id: s.ids.uuid(),
    projectId,
    name,
    environment,
    expiresAt,
    active: true,
    allowedOrigins: "[]",
    rotatedFromId: null,
    rotatedToId: null,
    createdBy: minter.kind === "user" ? minter.userId : minter.kind,
    createdAt: now,
    lastUsedAt: null,
  };
  let scopesRaw = body.scopes;
  if (body.preset !== undefined) {
    if (typeof body.preset !== "string" || !(body.preset in PRESETS)) badField("preset", `preset must be one of ${Object.keys(PRESETS).join(", ")}`);
    if (scopesRaw !== undefined) badField("preset", "send scopes or preset, not both");
    scopesRaw = PRESETS[body.preset];
  }
  if (scopesRaw !== undefined) {
    if (body.permission !== undefined) badField("permission", "permission is for legacy keys; a key with scopes is scoped");
    const scopes = grantScopes(s, projectId, minter, scopesRaw);
    const apiVersion = checkApiVersion(body.apiVersion) ?? LATEST_VERSION;
    const { row, secret } = insertKey(s, { ...base, family: "scoped", permission: null, scopes: JSON.stringify(scopes), apiVersion });
    return minted(row, secret);
  }
  if (body.permission === undefined) badField("scopes", "send scopes (1 to 100) for a scoped key, or permission for a legacy key");
  if (!PERMISSIONS.includes(body.permission as (typeof PERMISSIONS)[number])) badField("permission", "permission must be read, write, delete or agent");
  const permission = body.permission as string;
  for (const sc of legacyScopes(permission)) if (!minterHolds(minter, sc)) fail("scope_not_held", { param: "scope", extra: { scope: sc } });
  const apiVersion = checkApiVersion(body.apiVersion);
  const { row, secret } = insertKey(s, { ...base, family: "legacy", permission, scopes: JSON.stringify(legacyScopes(permission)), apiVersion });
  return minted(row, secret);
}

function keyOrFail(s: Services, projectId: string, id: string): KeyRow {
  const row = s.control.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id.toLowerCase()), eq(apiKeys.projectId, projectId)))
    .get();
  if (!row) fail("not_found", { message: "No such API key in this project." });
  return row;
}

/** Lists a project's keys; `includeStatus` adds active, allowedOrigins, expiresAt, lastUsedAt. */
export function listKeys(s: Services, projectId: string, includeStatus: boolean, lastUsed: (id: string) => string | null) {
  const rows = s.control.db.select().from(apiKeys).where(eq(apiKeys.projectId, projectId)).orderBy(apiKeys.createdAt).all();
  return rows.map((r) => {
    const st = keyState(r);
    const item: Record<string, unknown> = {
      id: st.id,
      name: st.name,
      keyPrefix: st.keyPrefix,
      bundle: st.bundle,
      environment: st.environment,
      scopes: st.scopes,
      permission: st.permission,
      version: st.version,
      createdAt: st.createdAt,
    };
    if (includeStatus)
      Object.assign(item, { active: st.active, allowedOrigins: st.allowedOrigins, expiresAt: st.expiresAt, lastUsedAt: lastUsed(r.id) ?? st.lastUsedAt });
    return item;
  });
}

/** Edits a key's name, scopes, expiry or version pin. */
export function updateKey(s: Services, projectId: string, minter: Minter, id: string, body: Record<string, unknown>) {
  const row = keyOrFail(s, projectId, id);
  const known = new Set(["name", "scopes", "expiresAt", "apiVersion"]);
  for (const k of Object.keys(body)) if (!known.has(k)) badField(k, `${k} cannot be changed here`);
  checkHoldsAll(minter, row);
  const patch: Partial<KeyRow> = {};
  if (body.name !== undefined) patch.name = checkName(body.name);
  if (body.scopes !== undefined) {
    if (row.family === "legacy") badField("scopes", "Scopes need a scoped key; legacy keys are never converted. Mint a scoped key instead.");
    patch.scopes = JSON.stringify(grantScopes(s, projectId, minter, body.scopes));
  }
  if (body.expiresAt !== undefined) {
    patch.expiresAt = checkExpiry(s, body.expiresAt);
    // A rotated-out key lives on only for its grace period: its end can come sooner, never later
    // (clearing it would bring the old secret back for good).
    if (row.rotatedToId && row.expiresAt && (patch.expiresAt === null || patch.expiresAt > row.expiresAt)) {
      badField("expiresAt", `This key was rotated; its expiresAt can only move earlier than ${row.expiresAt}`);
    }
  }
  if (body.apiVersion !== undefined) {
    const v = checkApiVersion(body.apiVersion);
    if (v === null) badField("apiVersion", "apiVersion must be a supported version");
    patch.apiVersion = v;
  }
  if (Object.keys(patch).length) s.control.db.update(apiKeys).set(patch).where(eq(apiKeys.id, row.id)).run();
  s.changes.key(row.id);
  return answerState(s, keyOrFail(s, projectId, row.id));
}

/** Rotates a key once: a successor with the same settings; the predecessor expires after `graceHours`. */
export function rotateKey(s: Services, projectId: string, minter: Minter, id: string, body: Static<typeof RotateBody>) {
  const row = keyOrFail(s, projectId, id);
  checkHoldsAll(minter, row);
  const grace = body.graceHours ?? 24;
  const now = s.clock.now();
  const expiry = iso(now + grace * HOUR);
  const result = writeControl(s, () => {
    const cur = keyOrFail(s, projectId, id);
    if (cur.rotatedToId) throw new AppError("already_rotated");
    // The state table rotates active keys only; a revoked key is reactivated first.
    if (!cur.active) throw new AppError("conflict", { message: "This key is revoked; reactivate it before rotating it." });
    const successor = insertKey(s, {
      id: s.ids.uuid(),
      projectId,
      name: cur.name,
      family: cur.family,
      environment: cur.environment,
      permission: cur.permission,
      scopes: cur.scopes,
      apiVersion: cur.apiVersion,
      expiresAt: null,
      active: true,
      allowedOrigins: cur.allowedOrigins,
      rotatedFromId: cur.id,
      rotatedToId: null,
      createdBy: cur.createdBy,
      createdAt: iso(now),
      lastUsedAt: null,
    });
    // The predecessor's expiry never moves later than one it already had.
    const predExpiry = cur.expiresAt && cur.expiresAt < expiry ? cur.expiresAt : expiry;
    s.control.db.update(apiKeys).set({ rotatedToId: successor.row.id, expiresAt: predExpiry }).where(eq(apiKeys.id, cur.id)).run();
    return { ...successor, predExpiry };
  });
  s.changes.key(row.id);
  return {
    ...minted(result.row, result.secret),
    scopes: JSON.parse(result.row.scopes) as string[],
    permission: result.row.permission,
    rotatedFrom: { id: row.id, expiresAt: result.predExpiry },
  };
}

/** Revokes or reactivates a key. Anyone with api_key:update may revoke; reactivating is a grant. */
export function setActive(s: Services, projectId: string, minter: Minter, id: string, active: boolean) {
  const row = keyOrFail(s, projectId, id);
  if (active) checkHoldsAll(minter, row);
  s.control.db.update(apiKeys).set({ active }).where(eq(apiKeys.id, row.id)).run();
  s.changes.key(row.id);
  return answerState(s, keyOrFail(s, projectId, id));
}

/** Normalises an origin: scheme, host and port only. */
function checkOrigin(v: unknown, path: string): string {
  if (typeof v !== "string") badField(path, `${path} must be an origin such as https://example.com`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    badField(path, `${path} must be an origin such as https://example.com`);
  }
  if (!["http:", "https:"].includes(u.protocol) || u.pathname !== "/" || u.search || u.hash || u.username) {
    badField(path, `${path} must be an origin such as https://example.com, with no path`);
  }
  return u.origin;
}

/** Sets the origins a key accepts (up to 50; empty accepts any). */
export function setAllowedOrigins(s: Services, projectId: string, minter: Minter, id: string, body: Record<string, unknown>) {
  const row = keyOrFail(s, projectId, id);
  // An empty list lets every origin in, so any change may widen what the key's scopes reach.
  checkHoldsAll(minter, row);
  const list = body.allowedOrigins;
  if (!Array.isArray(list)) badField("allowedOrigins", "allowedOrigins must be a list of origins");
  if (list.length > 50) badField("allowedOrigins", "allowedOrigins holds at most 50 origins");
  const origins = [...new Set(list.map((o, i) => checkOrigin(o, `allowedOrigins[${i}]`)))];
  s.control.db
    .update(apiKeys)
    .set({ allowedOrigins: JSON.stringify(origins) })
    .where(eq(apiKeys.id, row.id))
    .run();
  s.changes.key(row.id);
  return answerState(s, keyOrFail(s, projectId, id));
}

/** Domains the key was used from in the last 30 days. */
export function domainsSeen(s: Services, projectId: string, id: string) {
  const row = keyOrFail(s, projectId, id);
  const since = iso(s.clock.now() - 30 * 24 * HOUR);
  return s.control.db
    .select({ domain: keyDomains.domain, lastSeenAt: keyDomains.lastSeenAt })
    .from(keyDomains)
    .where(and(eq(keyDomains.keyId, row.id), gte(keyDomains.lastSeenAt, since)))
    .orderBy(keyDomains.domain)
    .all();
}

export function deleteKey(s: Services, projectId: string, id: string): void {
  const row = keyOrFail(s, projectId, id);
  writeControl(s, () => {
    s.control.db.delete(keyDomains).where(eq(keyDomains.keyId, row.id)).run();
    s.control.db.delete(apiKeys).where(eq(apiKeys.id, row.id)).run();
  });
  s.changes.key(row.id);
}

/** A key with its project's name and subscription flag: what authentication needs, cached. */
export interface AuthKey {
  row: KeyRow;
  scopes: ReadonlySet<string>;
  origins: string[];
  projectName: string;
  subscriptionActive: boolean;
  /** The predecessor of a rotated key, with its expiry. */
  rotatedFrom: { id: string; expiresAt: string | null } | null;
  /** Its instance:read grants and their signature, computed once per load (src/domain/reads/reader.ts). */
  readGrants: string[];
  grantSig: string;
}

/** Looks a secret up by its hash (no cache; see KeyCache). */
export function lookupKey(s: Services, secret: string): AuthKey | null {
  const row = s.control.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sha256Hex(secret)))
    .get();
  if (!row) return null;
  const p = s.control.db.select({ name: projects.name, sub: projects.subscriptionActive }).from(projects).where(eq(projects.id, row.projectId)).get();
  if (!p) return null;
  const pred = predecessorOf(s, row);
  const scopes: string[] = JSON.parse(row.scopes);
  const readGrants = readGrantsOf(scopes);
  return {
    row,
    scopes: new Set(scopes),
    readGrants,
    grantSig: grantSignature(readGrants),
    origins: JSON.parse(row.allowedOrigins),
    projectName: p.name,
    subscriptionActive: p.sub,
    rotatedFrom: pred,
  };
}
