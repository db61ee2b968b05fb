// What a model body's models (bodies.ts) cannot say: a field's parts that depend on each other
// (an array type only on arrays, a relation only on relations, an enum lists its values once),
// a relation names a model of the project, the preview URL template parses, and field names and
// ids are unique; a field's editing settings are settings.ts. Shared by create, edit and field changes (diff.ts parses edited fields the way
// an edit would), so all refuse alike.
import type { Static } from "@sinclair/typebox";
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { findModel } from "./catalog.ts";
import { ARRAY_TYPES, type ArrayType, type FieldDef, type FieldType } from "./fields.ts";
import type { FieldEdit, NewField } from "./bodies.ts";
import { applySettings, checkSettings, SETTING_KEYS } from "./settings.ts";

/** A field definition of the shape NewField or FieldEdit checked (an edit leaves out what stays). */
export type FieldInput = Static<typeof NewField> | Static<typeof FieldEdit>;

/** Parses one field definition; `self` is the model being saved (for relations to itself). */
export function parseField(s: Services, h: ProjectHandle, o: FieldInput, path: string, self: { id: string; namespace: string }, existing?: FieldDef): FieldDef {
  const namespace = o.namespace === undefined && existing ? existing.namespace : (o.namespace as string);
  // Entry data is read into plain objects keyed by namespace, where this one name sets the
  // prototype instead of a key, so the field would vanish from every read.
  if (namespace === "__proto__") badField(`${path}.namespace`, `${path}.namespace cannot be "__proto__"`);
  const type = (o.type === undefined && existing ? existing.type : o.type) as FieldType;
  let arrayType: ArrayType | null = null;
  if (type === "array") {
    arrayType = (o.arrayType === undefined && existing ? existing.arrayType : o.arrayType) as ArrayType;
    if (!ARRAY_TYPES.includes(arrayType as ArrayType)) badField(`${path}.arrayType`, `${path}.arrayType must be one of ${ARRAY_TYPES.join(", ")}`);
  } else if (o.arrayType !== undefined && o.arrayType !== null) {
    badField(`${path}.arrayType`, `${path}.arrayType is only for array fields`);
  }
  let relation: string | null = null;
  if (type === "relation" || arrayType === "relation") {
    const ref = o.relation === undefined && existing ? existing.relation : o.relation;
    if (typeof ref !== "string") badField(`${path}.relation`, `${path}.relation must name the target model (id or namespace)`);
    if (ref === self.namespace || ref.toLowerCase() === self.id) relation = self.id;
    else {
      const target = findModel(h, ref);
      if (!target) badField(`${path}.relation`, `${path}.relation names no model of this project: "${ref}"`);
      relation = target.id;
    }
  } else if (o.relation !== undefined && o.relation !== null) {
    badField(`${path}.relation`, `${path}.relation is only for relation fields`);
  }
  const label = o.label === undefined ? (existing?.label ?? null) : o.label;
  const required = o.required === undefined ? (existing?.required ?? false) : o.required;
  let options: FieldDef["options"] = o.options === undefined ? (existing?.options ?? null) : null;
  if (o.options !== undefined && o.options !== null) {
    const values = o.options.values;
    if (values !== undefined && new Set(values).size !== values.length) badField(`${path}.options.values`, `${path}.options.values holds a value twice`);
    options = { ...o.options, ...(values ? { values } : {}) };
  }
  const localized = o.localized === undefined ? existing?.localized === true : o.localized;
  const isEnum = type === "enum" || arrayType === "enum";
  if (isEnum && !(options?.values && options.values.length > 0)) badField(`${path}.options.values`, `${path}.options.values must list the enum's values`);
  let id = existing?.id ?? s.ids.uuid();
  if (!existing && o.id !== undefined) id = o.id.toLowerCase();
  const sent = new Set(SETTING_KEYS.filter((k) => Object.hasOwn(o, k)));
  // A change of type drops nothing silently: a setting the new kind cannot hold is refused.
  // `localized` is stored only when set, so a field without it keeps the shape it had.
  const base: FieldDef = { id, namespace, label, type, arrayType, relation, required, options, ...(localized ? { localized: true as const } : {}) };
  const f = applySettings(base, o, existing);
  checkSettings(f, path, sent);
  return f;
}

/**
 * A preview URL template: null, or an http(s) URL of at most 2,048 characters whose placeholders
 * are `{name}` words (`{token}`, `{id}`, `{model}`, or a field's namespace), filled in by the
 * admin app when an editor opens a preview.
 */
export function checkPreviewUrl(v: unknown): string | null {
  if (v === null) return null;
  const bad = () => badField("previewUrl", "previewUrl must be an http(s) URL with {token}, {id}, {model} or {<field>} placeholders, or null");
  if (typeof v !== "string" || v.length === 0 || v.length > 2048) bad();
  const filled = (v as string).replace(/\{[A-Za-z0-9_$-]{1,64}\}/g, "x");
  if (/[{}]/.test(filled)) bad();
  try {
    const u = new URL(filled);
    if (u.protocol !== "http:" && u.protocol !== "https:") bad();
  } catch {
    bad();
  }
  return v as string;
}

/** At most 500 fields, no two with one namespace or one id. */
export function checkUniqueFields(fields: FieldDef[], path: string): void {
  const seen = new Set<string>();
  const ids = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.namespace)) badField(`${path}[${i}].namespace`, `Two fields are named "${f.namespace}"`);
    if (ids.has(f.id)) badField(`${path}[${i}].id`, `Two fields have the id ${f.id}`);
    seen.add(f.namespace);
    ids.add(f.id);
  });
  if (fields.length > 500) badField(path, "A model holds at most 500 fields");
}
