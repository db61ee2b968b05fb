// The two ways a secret comes to be: minting a key and rotating one. The secret is returned once
// and stored as SHA-256 (keys are high-entropy, so no slow hash is needed on the read path).
import { eq } from "drizzle-orm";
import type { Static } from "@sinclair/typebox";
import { apiKeys } from "../../storage/control/schema.ts";
import { AppError, badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import type { RotateBody } from "../access/body-models.ts";
import { checkValue } from "../access/body-check.ts";
import { MintKeyBody } from "./bodies.ts";
import { PRESETS, legacyScopes } from "../access/scopes.ts";
import { writeControl } from "../unit-of-work.ts";
import { LATEST_VERSION } from "../versions.ts";
import { checkApiVersion, checkEnvironment, checkExpiry, checkName } from "./checks.ts";
import { checkHoldsAll, grantScopes, minterHolds, type Minter } from "./grants.ts";
import { keyOrFail, type KeyRow } from "./records.ts";
import { purgeKey } from "../edge/changes.ts";
import { DEFAULT_VERSION } from "../versions.ts";

const HOUR = 3600_000;

function secretFor(family: "scoped" | "legacy", environment: string): string {
  const live = environment === "production";
  if (family === "scoped") return (live ? "svc_live_" : "svc_test_") + randomToken(32);
  return (live ? "pk_" : "sk_") + randomToken(32);
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
    return { ...base, permission: row.permission, version: row.apiVersion ?? DEFAULT_VERSION, contract: 1, expiresAt: row.expiresAt };
  }
  return { ...base, scopes: JSON.parse(row.scopes) as string[], version: row.apiVersion!, contract: 1, expiresAt: row.expiresAt };
}

/**
 * Mints a scoped key (with `scopes` or a `preset`) or a legacy key (with `permission`). The body
 * is checked against the route's model here too, since the CLI and the first start mint keys.
 */
export function mintKey(s: Services, projectId: string, minter: Minter, raw: Record<string, unknown>) {
  checkValue(MintKeyBody, raw, "");
  const body = raw as Static<typeof MintKeyBody>;
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
  const permission = body.permission;
  for (const sc of legacyScopes(permission)) if (!minterHolds(minter, sc)) fail("scope_not_held", { param: "scope", extra: { scope: sc } });
  const apiVersion = checkApiVersion(body.apiVersion);
  const { row, secret } = insertKey(s, { ...base, family: "legacy", permission, scopes: JSON.stringify(legacyScopes(permission)), apiVersion });
  return minted(row, secret);
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
    // The predecessor's answers at the edge were kept for its old lifetime: its new expiry ends them.
    purgeKey(s, cur.id);
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
