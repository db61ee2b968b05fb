// Who is calling a management route, and the one check every route makes.
import { fail } from "../../errors.ts";
import { ROLE_SCOPES, rolesWith, type Role } from "./roles.ts";

export type Principal =
  | { kind: "user"; userId: string; projectId: string | null; role: Role | null }
  | { kind: "key"; keyId: string; projectId: string; scopes: ReadonlySet<string>; permission: string | null };

/** The project a principal acts in, or `400 no_project`. */
export function projectOf(p: Principal): string {
  if (!p.projectId) fail("no_project");
  return p.projectId;
}

/** Whether a principal holds a scope in its project. */
export function holds(p: Principal, scope: string): boolean {
  if (p.kind === "key") return p.scopes.has(scope);
  return p.role !== null && ROLE_SCOPES[p.role].has(scope);
}

/** Refuses with 403 Insufficient permissions unless the principal holds `scope`. */
export function requireScope(p: Principal, scope: string): void {
  if (p.kind === "user" && p.role === null) fail("no_project");
  if (holds(p, scope)) return;
  if (p.kind === "user") fail("insufficient_permissions", { extra: { required: rolesWith(scope), current: p.role } });
  fail("insufficient_permissions");
}

/** Refuses keys outright (routes only a person may use, such as default workspaces). */
export function requirePerson(p: Principal, scope: string): asserts p is Extract<Principal, { kind: "user" }> {
  if (p.kind === "key") fail("insufficient_permissions");
  requireScope(p, scope);
}
