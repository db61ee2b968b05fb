// Project roles and what each may do (decisions.md section 2), expressed in scopes so people and
// keys are checked by one function.
import { READ_GROUP, KEY_SCOPES, PERSON_ONLY, WILDCARDS } from "./scopes.ts";

export const ROLES = ["owner", "admin", "developer", "editor", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const ALL = [...KEY_SCOPES, ...PERSON_ONLY];

export const ROLE_SCOPES: Record<Role, ReadonlySet<string>> = {
  owner: new Set(ALL),
  // Deleting a project is the owner's alone (decisions.md section 2: "DELETE /v2/projects/:id (owner ...)").
  admin: new Set(ALL.filter((s) => s !== "project:delete")),
  developer: new Set([
    ...READ_GROUP,
    "instance:create",
    "instance:update",
    "instance:publish",
    "instance:delete",
    // decisions.md: models, entries, workspaces, layouts, field changes, webhooks and keys within
    // what the developer holds; media, categories and types stay with editors and admins.
    ...WILDCARDS["model:*"]!,
    ...WILDCARDS["workspace:*"]!,
    ...WILDCARDS["webhook:*"]!,
    "api_key:read",
    "api_key:create",
    "api_key:update",
    "api_key:delete",
    "member:read",
  ]),
  editor: new Set([
    ...READ_GROUP,
    "instance:create",
    "instance:update",
    "instance:publish",
    "instance:delete",
    ...WILDCARDS["media:*"]!,
    ...WILDCARDS["workspace:*"]!,
    "member:read",
  ]),
  viewer: new Set([...READ_GROUP, "member:read"]),
};

/** The roles that hold a scope, in rank order: what a 403 lists as `required`. */
export function rolesWith(scope: string): Role[] {
  return ROLES.filter((r) => ROLE_SCOPES[r].has(scope));
}

export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}
