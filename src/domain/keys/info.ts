// Key information (GET /api/me and the GraphQL `me` field).
import type { Services } from "../../services.ts";
import { allModels } from "../models/catalog.ts";
import type { AuthKey } from "./auth.ts";

export const ACTIONS = ["read", "create", "update", "publish", "delete"] as const;
export const LEGACY_SURFACES = ["/api/", "/v2/api", "/v3/api", "/v2/schema", "/v2/seo", "/v2/agent/*"];

/** What a key can do with one model's entries: unscoped grants plus grants limited to that model. */
export function modelActions(scopes: ReadonlySet<string>, modelId: string): string[] {
  return ACTIONS.filter((a) => scopes.has(`instance:${a}`) || scopes.has(`instance:${a}:${modelId}`));
}

/** The key-information object, every field always present, in the order of interface.md. */
export function keyInfo(s: Services, key: AuthKey, version: string, lastUsedAt: string | null) {
  const r = key.row;
  const scoped = r.family === "scoped";
  const models = allModels(s.projects.get(r.projectId))
    .list.map((m) => ({ namespace: m.namespace, id: m.id, can: modelActions(key.scopes, m.id) }))
    .filter((m) => m.can.length > 0);
  return {
    keyId: r.id,
    name: r.name,
    keyPrefix: r.keyPrefix,
    environment: r.environment,
    bundle: r.family,
    surfaces: scoped ? ["/api/"] : LEGACY_SURFACES,
    scopes: [...key.scopes],
    models,
    version,
    contract: 1,
    legacy: scoped ? { contract: null, legacyRefused: true, reason: "surface" } : { contract: 1, legacyRefused: false, reason: null },
    expiresAt: r.expiresAt,
    lastUsedAt,
    rotatedFrom: key.rotatedFrom,
    writes: { enabled: false },
    tenant: { id: r.projectId, name: key.projectName },
  };
}
