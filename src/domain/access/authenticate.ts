// Who is calling a management route or a legacy surface: a person's bearer token (with the
// x-svc-project header choosing the project), or a legacy key. HTTP plugins call these; they
// never read the control file themselves.
import { eq } from "drizzle-orm";
import { users } from "../../storage/control/schema.ts";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { AuthKey } from "../keys/auth.ts";
import { membershipOf, UUID } from "../projects/service.ts";
import type { Principal } from "./principal.ts";

/** The account behind a bearer token that passed every check (authenticatePerson and sign-out use it). */
export interface BearerSession {
  id: string;
  lastProjectId: string | null;
  sessionId: string;
}

/**
 * Checks an access token: its signature and expiry, the account's session version (moved when
 * every session of the person ends: a new password, sign out everywhere) and its session, which
 * must not have been signed out. The session check is a lookup in memory (domain/users/revocation.ts),
 * so this reads nothing beyond the account's row. Null when any check fails.
 */
export async function verifyBearer(s: Services, token: string): Promise<BearerSession | null> {
  const claims = await s.tokens.verify(token);
  if (!claims || typeof claims.sub !== "string" || typeof claims.exp !== "number" || claims.exp * 1000 <= s.clock.now()) return null;
  // Tokens from before sessions had ids carry no `sid`: they could not be signed out, so they end.
  if (typeof claims.sid !== "string" || s.revoked.has(claims.sid)) return null;
  const user = s.control.db
    .select({ id: users.id, lastProjectId: users.lastProjectId, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, claims.sub))
    .get();
  if (!user || (typeof claims.sv === "number" ? claims.sv : 0) !== user.sessionVersion) return null;
  return { id: user.id, lastProjectId: user.lastProjectId, sessionId: claims.sid };
}

/** The bearer token of an Authorization header, null without a header; `401 auth_required` for another scheme. */
export function bearerOf(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (!auth) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  if (!m) fail("auth_required");
  return m[1]!;
}

/** Resolves the person behind a /v2 request and the project it runs in (interface.md, Management routes). */
export async function authenticatePerson(s: Services, headers: Headers): Promise<Principal> {
  const token = bearerOf(headers);
  if (token === null) {
    // A key on a person's route is refused like an unknown key: keys act on the agent mount only.
    if (headers.has("x-api-key")) fail("invalid_api_key");
    fail("auth_required");
  }
  const user = await verifyBearer(s, token);
  if (!user) fail("invalid_token");
  const header = headers.get("x-svc-project");
  if (header !== null) {
    if (!UUID.test(header.trim())) fail("invalid_project_header");
    const mem = membershipOf(s, header.trim().toLowerCase(), user.id);
    if (!mem) fail("not_a_member");
    return { kind: "user", userId: user.id, projectId: header.trim().toLowerCase(), role: mem.role };
  }
  if (user.lastProjectId) {
    const mem = membershipOf(s, user.lastProjectId, user.id);
    if (mem) return { kind: "user", userId: user.id, projectId: user.lastProjectId, role: mem.role };
  }
  return { kind: "user", userId: user.id, projectId: null, role: null };
}

/**
 * The legacy key in x-api-key, for the legacy surfaces and the agent mount. A scoped, unknown,
 * revoked or expired key, or one whose project has no subscription, gets the same
 * `401 { error: "Invalid API key" }`.
 */
export function legacyKeyOf(s: Services, headers: Headers): AuthKey {
  const secret = headers.get("x-api-key");
  if (!secret) fail("invalid_api_key");
  const check = s.keys.check(secret.trim());
  if (!check.ok || check.key.row.family !== "legacy" || !check.key.subscriptionActive) fail("invalid_api_key");
  // The per-key rate applies on every keyed surface, not only /api.
  const rate = s.limits.rate.take(check.key.row.id, s.clock.now());
  if (!rate.ok) {
    s.metrics.refusals.inc({ limit: "rate" });
    fail("rate_limit_exceeded", {
      message: `This key sent more than ${s.config.rateLimitPerSecond} requests a second (burst ${rate.limit}).`,
      hint: "Retry after the number of seconds in the Retry-After header.",
      headers: { "retry-after": String(rate.retryAfter) },
    });
  }
  s.keys.touch(check.key, headers.get("origin"));
  return check.key;
}

/** The principal of a legacy key on the agent mount. */
export function agentPrincipal(key: AuthKey): Principal {
  return { kind: "key", keyId: key.row.id, projectId: key.row.projectId, scopes: key.scopes, permission: key.row.permission };
}

/** The actor string recorded on versions and events. */
export function actorOf(p: Principal): string {
  return p.kind === "user" ? `user:${p.userId}` : `api_key:${p.keyId}`;
}
