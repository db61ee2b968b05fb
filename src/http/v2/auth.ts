// Authentication of /v2 requests: a person's bearer token plus the x-svc-project header.
import { eq } from "drizzle-orm";
import { users } from "../../storage/control/schema.ts";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { Principal } from "../../domain/access/principal.ts";
import { membershipOf, UUID } from "../../domain/projects/service.ts";
import { annotate } from "../context.ts";

/** Resolves the person behind a /v2 request and the project it runs in (interface.md, Management routes). */
export async function authenticatePerson(s: Services, request: Request): Promise<Principal> {
  const p = await resolvePerson(s, request);
  annotate(request, { projectId: p.projectId });
  return p;
}

async function resolvePerson(s: Services, request: Request): Promise<Principal> {
  const auth = request.headers.get("authorization");
  if (!auth) {
    // A key on a person's route is refused like an unknown key: keys act on the agent mount only.
    if (request.headers.has("x-api-key")) fail("invalid_api_key");
    fail("auth_required");
  }
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  if (!m) fail("auth_required");
  const claims = await s.tokens.verify(m[1]!);
  if (!claims || typeof claims.sub !== "string" || typeof claims.exp !== "number" || claims.exp * 1000 <= s.clock.now()) {
    fail("invalid_token");
  }
  const user = s.control.db.select({ id: users.id, lastProjectId: users.lastProjectId }).from(users).where(eq(users.id, claims.sub)).get();
  if (!user) fail("invalid_token");
  const header = request.headers.get("x-svc-project");
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

/** Resolves the legacy key behind an agent-mount request (`/v2/agent/...`); scoped keys are refused. */
export async function authenticateAgent(s: Services, request: Request): Promise<Principal> {
  const secret = request.headers.get("x-api-key");
  if (!secret) fail("invalid_api_key");
  const check = s.keys.check(secret.trim());
  if (!check.ok || check.key.row.family !== "legacy" || !check.key.subscriptionActive) fail("invalid_api_key");
  s.keys.touch(check.key, request.headers.get("origin"));
  const k = check.key;
  annotate(request, { keyId: k.row.id, projectId: k.row.projectId });
  return { kind: "key", keyId: k.row.id, projectId: k.row.projectId, scopes: k.scopes, permission: k.row.permission };
}

/** Where a route group is mounted and how its callers are authenticated. */
export interface Mount {
  prefix: string;
  auth(request: Request): Promise<Principal>;
}

/**
 * The two mounts of management routes that keys may also use: `/v2` for people and
 * `/v2/agent` for legacy keys. Route groups that the agent mount carries are built once per mount.
 */
export function mounts(s: Services): Mount[] {
  return [
    { prefix: "/v2", auth: (r) => authenticatePerson(s, r) },
    { prefix: "/v2/agent", auth: (r) => authenticateAgent(s, r) },
  ];
}
