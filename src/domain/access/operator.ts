// The server's operators: who may read server-wide facts such as /metrics. There is no server
// admin role in Capa, so an operator is anyone who owns at least one project on this server (on
// a self-hosted install, the person who set it up), or a caller holding CAPA_METRICS_TOKEN.
import { and, eq } from "drizzle-orm";
import { memberships } from "../../storage/control/schema.ts";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { Principal } from "./principal.ts";

/** Whether a person owns at least one project. */
export function ownsAnyProject(s: Services, userId: string): boolean {
  return !!s.control.db
    .select({ p: memberships.projectId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, "owner")))
    .limit(1)
    .get();
}

/** Refuses with 403 Insufficient permissions unless the principal is a person owning a project. */
export function requireOperator(s: Services, p: Principal): void {
  if (p.kind === "user" && ownsAnyProject(s, p.userId)) return;
  fail("insufficient_permissions", { extra: { required: ["owner"], current: p.kind === "user" ? p.role : null } });
}
