// API keys after minting: list, edit, revoke and reactivate, origins, domains seen, delete.
// Minting and rotation, the only answers that hold a secret, are in mint.ts; every change here
// tells the change bus, so the key cache (auth.ts) drops the key at once, and a change that
// alters or ends the key's answers purges `key:<id>` at the edge in the same transaction.
import { and, eq, gte } from "drizzle-orm";
import { apiKeys, keyDomains } from "../../storage/control/schema.ts";
import type { Static } from "@sinclair/typebox";
import { badField } from "../../errors.ts";
import type { AllowedOriginsBody, UpdateKeyBody } from "./bodies.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { writeControl } from "../unit-of-work.ts";
import { checkApiVersion, checkExpiry, checkName, checkOrigin } from "./checks.ts";
import { checkHoldsAll, grantScopes, type Minter } from "./grants.ts";
import { answerState, keyOrFail, keyState, type KeyRow } from "./records.ts";
import { purgeKey } from "../edge/changes.ts";

const HOUR = 3600_000;

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
export function updateKey(s: Services, projectId: string, minter: Minter, id: string, body: Static<typeof UpdateKeyBody>) {
  const row = keyOrFail(s, projectId, id);
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
  writeControl(s, () => {
    if (Object.keys(patch).length) s.control.db.update(apiKeys).set(patch).where(eq(apiKeys.id, row.id)).run();
    // A name is never in an answer; scopes, expiry and version pin shape every one.
    if (patch.scopes !== undefined || patch.expiresAt !== undefined || patch.apiVersion !== undefined) purgeKey(s, row.id);
  });
  s.changes.key(row.id);
  return answerState(s, keyOrFail(s, projectId, row.id));
}

/** Revokes or reactivates a key. Anyone with api_key:update may revoke; reactivating is a grant. */
export function setActive(s: Services, projectId: string, minter: Minter, id: string, active: boolean) {
  const row = keyOrFail(s, projectId, id);
  if (active) checkHoldsAll(minter, row);
  writeControl(s, () => {
    s.control.db.update(apiKeys).set({ active }).where(eq(apiKeys.id, row.id)).run();
    // A revoked key is never served from any cache (interface.md).
    purgeKey(s, row.id);
  });
  s.changes.key(row.id);
  return answerState(s, keyOrFail(s, projectId, id));
}

/** Sets the origins a key accepts (up to 50; empty accepts any). */
export function setAllowedOrigins(s: Services, projectId: string, minter: Minter, id: string, body: Static<typeof AllowedOriginsBody>) {
  const row = keyOrFail(s, projectId, id);
  // An empty list lets every origin in, so any change may widen what the key's scopes reach.
  checkHoldsAll(minter, row);
  const list = body.allowedOrigins;
  const origins = [...new Set(list.map((o, i) => checkOrigin(o, `allowedOrigins[${i}]`)))];
  writeControl(s, () => {
    s.control.db
      .update(apiKeys)
      .set({ allowedOrigins: JSON.stringify(origins) })
      .where(eq(apiKeys.id, row.id))
      .run();
    // An origin taken off the list must get 403 origin_refused, not an answer the edge kept.
    purgeKey(s, row.id);
  });
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
    purgeKey(s, row.id);
  });
  s.changes.key(row.id);
}
