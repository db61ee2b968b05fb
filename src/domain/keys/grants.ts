// "Grant only what you hold" (decisions.md sections 2 and 8): which scopes a person (or the
// CLI) may put on a key, checked when a key is minted and again whenever one is rotated, edited,
// reactivated or given new origins, since each of those hands out or keeps up what it holds.
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { holds, type Principal } from "../access/principal.ts";
import { KEY_SCOPES, PRESETS, legacyScopes } from "../access/scopes.ts";
import { parseScopes } from "./scopes.ts";

/** The permissions of legacy keys. */
export const PERMISSIONS = ["read", "write", "delete", "agent"] as const;

/** Who mints: a person (checked against their role) or the CLI (the project's owner powers). */
export type Minter = Principal | { kind: "cli" };

/** Whether a minter holds a scope (a per-model scope is held through its unscoped form). */
export function minterHolds(m: Minter, scope: string): boolean {
  if (m.kind === "cli") return true;
  const [r, a, model] = scope.split(":");
  // A per-model grant is within an unscoped one the minter holds, or the same per-model grant.
  return holds(m, scope) || (model !== undefined && holds(m, `${r}:${a}`));
}

/** Checks the scopes a minter asks for and returns them expanded; refuses what the minter does not hold. */
export function grantScopes(s: Services, projectId: string, minter: Minter, raw: unknown): string[] {
  const scopes = parseScopes(s, projectId, raw);
  for (const sc of scopes) {
    if (!minterHolds(minter, sc)) fail("scope_not_held", { param: "scope", extra: { scope: sc } });
  }
  return scopes;
}

/**
 * Refuses to act on a key that holds a scope the caller does not: a rotation hands out a new
 * secret with the same scopes, and an edit, a reactivation or new origins keep those scopes in
 * use, so each is a grant of what the key holds (the scope named is the first one not held).
 */
export function checkHoldsAll(minter: Minter, row: { scopes: string }): void {
  for (const sc of JSON.parse(row.scopes) as string[]) {
    if (!minterHolds(minter, sc)) fail("scope_not_held", { param: "scope", extra: { scope: sc } });
  }
}

/** What a caller may grant: every key scope with whether the caller holds it, and the presets. */
export function grantable(minter: Minter) {
  return {
    scopes: KEY_SCOPES.map((scope) => ({ scope, held: minterHolds(minter, scope) })),
    presets: Object.entries(PRESETS).map(([name, scopes]) => ({ name, scopes, grantable: scopes.every((x) => minterHolds(minter, x)) })),
    permissions: PERMISSIONS.map((p) => ({ permission: p, grantable: legacyScopes(p).every((x) => minterHolds(minter, x)) })),
  };
}
