// The scope vocabulary of interface.md: `resource:action[:modelId]`, groups, wildcards and
// presets. Wildcards are stored expanded; the refused forms can never be held by a key.

export const READ_GROUP = ["instance:read", "model:read", "media:read", "search:read", "category:read", "type:read", "workspace:read"] as const;

/** Every action of every resource a scope may name, by resource. */
export const RESOURCE_ACTIONS: Record<string, string[]> = {
  instance: ["read", "create", "update", "publish", "delete"],
  model: ["read", "create", "update", "publish", "delete"],
  media: ["read", "create", "update", "delete"],
  search: ["read"],
  category: ["read", "create", "update", "delete"],
  type: ["read", "create", "update", "delete"],
  workspace: ["read", "create", "update", "delete"],
  webhook: ["read", "create", "update", "delete"],
};

/** Resources whose `<resource>:*` wildcard a key may be minted with (interface.md, Scope grammar). */
const WILDCARD_RESOURCES = ["instance", "model", "media", "category", "type", "workspace", "webhook"];

/**
 * Wildcards accepted and what they expand to: every action the scope table lists for the
 * resource, read included (decisions.md 8), so `instance:*` reads as well as writes.
 */
export const WILDCARDS: Record<string, string[]> = Object.fromEntries(WILDCARD_RESOURCES.map((r) => [`${r}:*`, RESOURCE_ACTIONS[r]!.map((a) => `${r}:${a}`)]));

/** The write actions of a resource (its wildcard without read), for presets and roles. */
export function writesOf(resource: string): string[] {
  return RESOURCE_ACTIONS[resource]!.filter((a) => a !== "read").map((a) => `${resource}:${a}`);
}

/** Scopes only people hold (by role); no key may ever hold them. */
export const PERSON_ONLY = [
  "api_key:read",
  "api_key:create",
  "api_key:update",
  "api_key:delete",
  "member:read",
  "member:update",
  "settings:update",
  "project:delete",
] as const;

const CONTENT_WRITER = [...READ_GROUP, "instance:create", "instance:update", "instance:publish", "media:create", "media:update"];

export const PRESETS: Record<string, string[]> = {
  read_only: [...READ_GROUP],
  content_writer: CONTENT_WRITER,
  full_integration: [...CONTENT_WRITER, "instance:delete", "media:delete", ...writesOf("category"), ...writesOf("workspace")],
  schema_builder: [...READ_GROUP, "model:create", "model:update", "model:publish", ...writesOf("type"), ...writesOf("category")],
};

/** Every unscoped scope a key could hold. */
export const KEY_SCOPES: string[] = Object.entries(RESOURCE_ACTIONS).flatMap(([r, as]) => as.map((a) => `${r}:${a}`));

/** Whether `held` satisfies `needed`. A per-model grant never satisfies an unscoped need. */
export function satisfies(held: Iterable<string>, needed: string): boolean {
  for (const h of held) if (h === needed) return true;
  return false;
}

/** Legacy permissions mapped to scopes (decisions.md section 8). */
export function legacyScopes(permission: string): string[] {
  const write = [...READ_GROUP, "instance:create", "instance:update", "instance:publish", "media:create", "media:update"];
  const del = [...write, "instance:delete", "media:delete"];
  switch (permission) {
    case "read":
      return [...READ_GROUP];
    case "write":
      return write;
    case "delete":
      return del;
    case "agent":
      return [...del, ...writesOf("workspace"), "model:update"];
    default:
      return [];
  }
}
