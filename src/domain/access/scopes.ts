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

/** Wildcards accepted and what they expand to (the write actions of the group; read stays explicit). */
export const WILDCARDS: Record<string, string[]> = {
  "instance:*": ["instance:create", "instance:update", "instance:publish", "instance:delete"],
  "model:*": ["model:create", "model:update", "model:publish", "model:delete"],
  "media:*": ["media:create", "media:update", "media:delete"],
  "category:*": ["category:create", "category:update", "category:delete"],
  "type:*": ["type:create", "type:update", "type:delete"],
  "workspace:*": ["workspace:create", "workspace:update", "workspace:delete"],
  "webhook:*": ["webhook:read", "webhook:create", "webhook:update", "webhook:delete"],
};

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
  full_integration: [...CONTENT_WRITER, "instance:delete", "media:delete", ...WILDCARDS["category:*"]!, ...WILDCARDS["workspace:*"]!],
  schema_builder: [...READ_GROUP, "model:create", "model:update", "model:publish", ...WILDCARDS["type:*"]!, ...WILDCARDS["category:*"]!],
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
      return [...del, ...WILDCARDS["workspace:*"]!, "model:update"];
    default:
      return [];
  }
}
