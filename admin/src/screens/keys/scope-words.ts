// A key's scopes said in words (issue 27 item 7): "Read published entries of Articles and Authors"
// rather than `instance:read:<id>`. The raw scopes stay one hover away (scope-tip.tsx), since a
// developer sometimes needs the exact string. Pure functions, tested without a browser.

/** The noun of each resource a scope may name (interface.md's scope table). */
const NOUN: Record<string, string> = {
  instance: "entries",
  model: "models",
  media: "media",
  search: "entries",
  category: "categories",
  type: "types",
  workspace: "workspaces",
  webhook: "webhooks",
};

/** The verb of each action, by resource where one reads better (media is uploaded, models changed). */
const VERB: Record<string, Record<string, string>> = {
  default: { read: "read", create: "create", update: "edit", publish: "publish", delete: "delete" },
  model: { update: "change", publish: "publish" },
  media: { create: "upload" },
  search: { read: "search" },
  webhook: { read: "see", update: "change" },
};

const ACTION_ORDER = ["read", "create", "update", "publish", "delete"];
const RESOURCE_ORDER = ["instance", "model", "media", "search", "category", "type", "workspace", "webhook"];

function verb(resource: string, action: string): string {
  return VERB[resource]?.[action] ?? VERB.default![action] ?? action;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** One scope alone in words, without its model limit: the scope picker's checkbox labels. */
export function scopeWords(scope: string): string {
  const [resource = "", action = ""] = scope.split(":");
  if (!NOUN[resource]) return scope;
  if (resource === "model" && action === "publish") return "Publish model changes";
  return `${cap(verb(resource, action))} ${NOUN[resource]}`;
}

/** A line of a key's access: the words, and the raw scopes they stand for. */
export interface ScopeLine {
  text: string;
  scopes: string[];
}

interface Parsed {
  raw: string;
  resource: string;
  action: string;
  model: string | null;
}

/**
 * A key's scopes as lines of words. Entry reads say what the key's environment reads (published
 * entries, or drafts too for a development key); scopes limited to models name them (`modelName`
 * gives a model's name from its id, null for a model that no longer exists). Reads of every model
 * of the other resources share one line, as do the writes of a resource on the same models.
 */
export function describeScopes(scopes: readonly string[], environment: "production" | "development", modelName: (id: string) => string | null): ScopeLine[] {
  const parsed: Parsed[] = [];
  const unknown: string[] = [];
  for (const raw of scopes) {
    const [resource = "", action = "", model] = raw.split(":");
    if (NOUN[resource] && action) parsed.push({ raw, resource, action, model: model ?? null });
    else unknown.push(raw);
  }
  const lines: ScopeLine[] = [];
  const where = (models: string[]) => (models.length === 0 ? "of every model" : `of ${listWords(models.map((id) => modelName(id) ?? "a deleted model"))}`);
  const byOrder = (a: Parsed, b: Parsed) => ACTION_ORDER.indexOf(a.action) - ACTION_ORDER.indexOf(b.action);

  // Entry reads first: what a site does with a key.
  const groups = groupByModels(parsed.filter((p) => p.resource === "instance" && p.action === "read"));
  for (const [models, items] of groups) {
    const what = environment === "production" ? "published entries" : "drafts and published entries";
    lines.push({ text: `Read ${what} ${where(models)}`, scopes: items.map((p) => p.raw) });
  }
  // Reads of every model of the other resources (search aside), in one line.
  const plainReads = parsed.filter((p) => p.action === "read" && p.model === null && p.resource !== "instance" && p.resource !== "search");
  plainReads.sort((a, b) => RESOURCE_ORDER.indexOf(a.resource) - RESOURCE_ORDER.indexOf(b.resource));
  if (plainReads.length > 0) {
    const nouns = plainReads.map((p) => NOUN[p.resource]!);
    const onlyWebhooks = nouns.length === 1 && plainReads[0]!.resource === "webhook";
    lines.push({ text: onlyWebhooks ? "See webhooks" : `Read ${listWords(nouns)}`, scopes: plainReads.map((p) => p.raw) });
  }
  const rest = parsed.filter((p) => !(p.resource === "instance" && p.action === "read") && !plainReads.includes(p));
  for (const resource of RESOURCE_ORDER) {
    for (const [models, items] of groupByModels(rest.filter((p) => p.resource === resource))) {
      items.sort(byOrder);
      const verbs = [...new Set(items.map((p) => verb(resource, p.action)))];
      const names = listWords(models.map((id) => modelName(id) ?? "a deleted model"));
      // Only entry and model scopes can be limited to models (resource:action:<model id>).
      const tail =
        resource === "instance"
          ? `entries ${where(models)}`
          : resource === "model" && models.length > 0
            ? `the model${models.length > 1 ? "s" : ""} ${names}`
            : NOUN[resource];
      lines.push({ text: `${cap(listWords(verbs))} ${tail}`, scopes: items.map((p) => p.raw) });
    }
  }
  for (const raw of unknown) lines.push({ text: raw, scopes: [raw] });
  return lines;
}

/** Scopes grouped by the set of models they are limited to ([] for every model), in first-seen order. */
function groupByModels(items: Parsed[]): [string[], Parsed[]][] {
  // Each action's models first, then actions with the same set of models together.
  const perAction = new Map<string, { models: string[]; items: Parsed[] }>();
  for (const p of items) {
    const key = `${p.resource}:${p.action}`;
    const entry = perAction.get(key) ?? { models: [], items: [] };
    entry.items.push(p);
    if (p.model) entry.models.push(p.model);
    perAction.set(key, entry);
  }
  const out = new Map<string, [string[], Parsed[]]>();
  for (const { models, items: list } of perAction.values()) {
    // An unlimited grant covers every model, whatever limited ones sit beside it.
    const set = list.some((p) => p.model === null) ? [] : [...new Set(models)];
    const key = [...set].sort().join(",");
    const group = out.get(key) ?? [set, []];
    group[1].push(...list);
    out.set(key, group);
  }
  return [...out.values()];
}
