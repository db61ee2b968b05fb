// What authentication needs of a key, read in one go: the row, its scopes as a set, its read
// grants and their signature, its origins, and its project's name and subscription. KeyAuth
// (auth.ts) caches the result by secret hash; this is the uncached read behind it.
import { eq } from "drizzle-orm";
import { apiKeys, projects } from "../../storage/control/schema.ts";
import { sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import { grantSignature, readGrantsOf } from "../reads/job.ts";
import { predecessorOf, type KeyRow } from "./records.ts";

/** A key with its project's name and subscription flag: what authentication needs, cached. */
export interface AuthKey {
  row: KeyRow;
  scopes: ReadonlySet<string>;
  origins: string[];
  projectName: string;
  subscriptionActive: boolean;
  /** The predecessor of a rotated key, with its expiry. */
  rotatedFrom: { id: string; expiresAt: string | null } | null;
  /** Its instance:read grants and their signature, computed once per load (src/domain/reads/job.ts). */
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
