// A key as the control file holds it, and as answers show it: never the secret, which is kept
// only as its SHA-256 and shown once, by minting or rotation (mint.ts).
import { and, eq } from "drizzle-orm";
import { apiKeys } from "../../storage/control/schema.ts";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { DEFAULT_VERSION } from "../versions.ts";

export type KeyRow = typeof apiKeys.$inferSelect;

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
    version: r.apiVersion ?? DEFAULT_VERSION,
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
export function predecessorOf(s: Services, r: KeyRow): { id: string; expiresAt: string | null } | null {
  if (!r.rotatedFromId) return null;
  return (
    s.control.db.select({ id: apiKeys.id, expiresAt: apiKeys.expiresAt }).from(apiKeys).where(eq(apiKeys.id, r.rotatedFromId)).get() ?? {
      id: r.rotatedFromId,
      expiresAt: null,
    }
  );
}

/** The key's state as the edit routes answer it (rotatedFrom as `{ id, expiresAt }`, like rotation and /api/me). */
export function answerState(s: Services, r: KeyRow) {
  return { ...keyState(r), rotatedFrom: predecessorOf(s, r) };
}

/** A key of the project by id, or 404 not_found. */
export function keyOrFail(s: Services, projectId: string, id: string): KeyRow {
  const row = s.control.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id.toLowerCase()), eq(apiKeys.projectId, projectId)))
    .get();
  if (!row) fail("not_found", { message: "No such API key in this project." });
  return row;
}
