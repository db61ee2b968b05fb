// One JSON Schema per model a key can read: the REST entry object of decisions.md 4 (system keys
// first, then customer fields in model order), each field typed from interface.md's field table.
// Customer fields are always nullable (a stored value that no longer fits reads as null); a
// relation is its id, or with `select=field(...)` the expanded entry when the key can read the
// target model; a media field is the six-key media value.
import type { Model } from "../../domain/models/catalog.ts";
import type { FieldDef, FieldType } from "../../domain/models/fields.ts";
import { SYSTEM_KEYS } from "../../domain/reads/names.ts";
import type { Json } from "./json-schema.ts";

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const orNull = (s: Json): Json => ({ anyOf: [s, { type: "null" }] });

/** Names that the document's fixed schemas use; a model named like one takes the `Entry_` form. */
const FIXED = new Set([
  "Media",
  "Meta",
  "VersionsMeta",
  "VersionEntry",
  "KeyInfo",
  "SitePage",
  "PreviewInfo",
  "GraphqlRequest",
  "GraphqlResult",
  "Error",
  "Entry",
]);

/**
 * The component name of each model: its namespace in PascalCase (`blog-posts` -> `BlogPosts`), or
 * `Entry_<namespace>` when that is not a clean name or two models would share it.
 */
export function componentNames(models: readonly Model[]): Map<string, string> {
  const pascal = (ns: string) =>
    ns
      .split(/[-_]+/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join("");
  const wanted = models.map((m) => [m.id, pascal(m.namespace)] as const);
  const counts = new Map<string, number>();
  for (const [, n] of wanted) counts.set(n, (counts.get(n) ?? 0) + 1);
  const byId = new Map(models.map((m) => [m.id, m.namespace]));
  return new Map(wanted.map(([id, n]) => [id, /^[A-Za-z]/.test(n) && counts.get(n) === 1 && !FIXED.has(n) ? n : `Entry_${byId.get(id)}`] as [string, string]));
}

const SYSTEM: Record<(typeof SYSTEM_KEYS)[number], Json> = {
  id: { type: "string", description: "The entry's UUID; always returned." },
  model: { type: "string", description: "The model's namespace." },
  status: { type: "string", enum: ["published", "draft", "changed"] },
  createdAt: { type: "string", description: "ISO 8601." },
  updatedAt: { type: "string", description: "ISO 8601; for a production key, when the published version was saved." },
  publishedAt: { type: ["string", "null"], description: "ISO 8601, or null." },
  version: { type: "integer" },
  tags: { type: "array", items: { type: "string" } },
  folder: { type: ["string", "null"] },
};

/** The schema of one value of a field of kind `t` (an item, for a list). */
function itemSchema(t: FieldType, f: FieldDef, names: Map<string, string>): Json {
  switch (t) {
    case "string":
    case "markdown":
    case "html":
    case "code":
    case "color":
      return { type: "string" };
    case "enum":
      return { type: "string", enum: f.options?.values ?? [] };
    case "number":
      return { type: "number" };
    case "true_false":
      return { type: "boolean" };
    case "date":
      return { type: "string", description: "A date (YYYY-MM-DD) or an ISO 8601 date-time, as saved." };
    case "relation": {
      const target = f.relation ? names.get(f.relation) : undefined;
      const id: Json = { type: "string", description: "The related entry's id." };
      // Expanded with select=field(...) when the key can read the target; a select may leave keys out.
      return target ? { anyOf: [id, ref(target)] } : id;
    }
    case "image":
    case "video":
    case "file":
      return ref("Media");
    case "mixed":
      return { description: "Any JSON value." };
    case "array":
      return {};
  }
}

/** The schema of a customer field's value: always nullable. */
function fieldSchema(f: FieldDef, names: Map<string, string>): Json {
  const label = f.label && f.label !== f.namespace ? `${f.label}. ` : "";
  const kind = `Capa field ${f.namespace}, type ${f.type}${f.arrayType ? ` of ${f.arrayType}` : ""}`;
  const inner = f.type === "array" ? { type: "array", items: itemSchema(f.arrayType as FieldType, f, names) } : itemSchema(f.type, f, names);
  if (f.type === "mixed") return { description: `${label}${kind}. Any JSON value.` };
  return { ...orNull(inner), description: `${label}${kind}.` };
}

/** The entry object of a model, keyed as REST renders it (a field named like a system key takes the plain name). */
export function entrySchema(m: Model, names: Map<string, string>): Json {
  const fieldNames = new Set(m.fields.map((f) => f.namespace));
  const properties: Record<string, Json> = {};
  for (const k of SYSTEM_KEYS) properties[fieldNames.has(k) ? `$${k}` : k] = SYSTEM[k];
  for (const f of m.fields) properties[f.namespace] = fieldSchema(f, names);
  return {
    type: "object",
    description: `${m.name} (model ${m.namespace}). Keys a \`select\` leaves out are absent; \`id\` is always there.`,
    required: [fieldNames.has("id") ? "$id" : "id"],
    properties,
  };
}
