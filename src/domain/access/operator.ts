// The server's operator: who may read server-wide facts such as /metrics and, by default, create
// projects. Capa has no server-admin role in projects; the operator is the first account of the
// data directory (the owner the first start created, or the first `capa user add`), or a caller
// holding CAPA_METRICS_TOKEN for /metrics. Owning a project makes no one an operator: anyone
// allowed to create a project owns one.
import { asc } from "drizzle-orm";
import { users } from "../../storage/control/schema.ts";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { Principal } from "./principal.ts";

/** Whether a person is the server's operator (the first account). */
export function isOperator(s: Services, userId: string): boolean {
  const first = s.control.db.select({ id: users.id }).from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(1).get();
  return first?.id === userId;
}

/** Refuses with 403 Insufficient permissions unless the principal is the server's operator. */
export function requireOperator(s: Services, p: Principal): void {
  if (p.kind === "user" && isOperator(s, p.userId)) return;
  fail("insufficient_permissions", { extra: { required: ["operator"], current: p.kind === "user" ? p.role : null } });
}

/** Refuses project creation unless CAPA_PROJECT_CREATORS lets this person create projects. */
export function requireProjectCreator(s: Services, p: Principal): void {
  if (s.config.projectCreators === "anyone") return;
  requireOperator(s, p);
}
