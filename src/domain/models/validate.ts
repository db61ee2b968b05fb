// Reading a model body: field definitions (every kind, with their options and relations), the
// preview URL template, text limits and unique field names and ids. Shared by create, edit and
// field changes (diff.ts parses edited fields the way an edit would), so all refuse alike.
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { findModel } from "./catalog.ts";
import { ARRAY_TYPES, FIELD_TYPES, checkFieldNamespace, isUuid, type ArrayType, type FieldDef, type FieldType } from "./fields.ts";

/** Text of at most `max` characters; required text must hold more than spaces; null when optional and not sent. */
export function checkString(v: unknown, path: string, max: number, optional: boolean): string | null {
  if (v === undefined || v === null) {
    if (optional) return null;
    badField(path, `${path} is required`);
  }
  if (typeof v !== "string" || v.length > max || (!optional && v.trim().length === 0)) badField(path, `${path} must be text of at most ${max} characters`);
  return v;
}

/** Parses one field definition; `self` is the model being saved (for relations to itself). */
export function parseField(s: Services, h: ProjectHandle, raw: unknown, path: string, self: { id: string; namespace: string }, existing?: FieldDef): FieldDef {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) badField(path, `${path} must be a field object`);
  const o = raw as Record<string, unknown>;
  const known = new Set(["id", "namespace", "label", "type", "arrayType", "relation", "required", "options"]);
  for (const k of Object.keys(o)) if (!known.has(k)) badField(`${path}.${k}`, `${path}.${k} is not a field property`);
  const namespace = o.namespace === undefined && existing ? existing.namespace : checkFieldNamespace(o.namespace, `${path}.namespace`);
  const type = (o.type === undefined && existing ? existing.type : o.type) as FieldType;
  if (!FIELD_TYPES.includes(type)) badField(`${path}.type`, `${path}.type must be one of ${FIELD_TYPES.join(", ")}`);
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
    if (typeof ref !== "string" || ref.length === 0) badField(`${path}.relation`, `${path}.relation must name the target model (id or namespace)`);
    if (ref === self.namespace || ref.toLowerCase() === self.id) relation = self.id;
    else {
      const target = findModel(h, ref);
      if (!target) badField(`${path}.relation`, `${path}.relation names no model of this project: "${ref}"`);
      relation = target.id;
    }
  } else if (o.relation !== undefined && o.relation !== null) {
    badField(`${path}.relation`, `${path}.relation is only for relation fields`);
  }
  const label = o.label === undefined ? (existing?.label ?? null) : checkString(o.label, `${path}.label`, 200, true);
  const required = o.required === undefined ? (existing?.required ?? false) : o.required;
  if (typeof required !== "boolean") badField(`${path}.required`, `${path}.required must be true or false`);
  let options: FieldDef["options"] = o.options === undefined ? (existing?.options ?? null) : null;
  if (o.options !== undefined && o.options !== null) {
    if (typeof o.options !== "object" || Array.isArray(o.options)) badField(`${path}.options`, `${path}.options must be an object`);
    const values = (o.options as Record<string, unknown>).values;
    if (values !== undefined) {
      if (!Array.isArray(values) || values.length > 500 || values.some((v) => typeof v !== "string" || v.length === 0 || v.length > 200)) {
        badField(`${path}.options.values`, `${path}.options.values must be a list of up to 500 texts`);
      }
      if (new Set(values).size !== values.length) badField(`${path}.options.values`, `${path}.options.values holds a value twice`);
    }
    options = { ...(o.options as object), ...(values ? { values: values as string[] } : {}) };
  }
  const isEnum = type === "enum" || arrayType === "enum";
  if (isEnum && !(options?.values && options.values.length > 0)) badField(`${path}.options.values`, `${path}.options.values must list the enum's values`);
  let id = existing?.id ?? s.ids.uuid();
  if (!existing && o.id !== undefined) {
    if (!isUuid(o.id)) badField(`${path}.id`, `${path}.id must be a UUID`);
    id = o.id.toLowerCase();
  }
  return { id, namespace, label, type, arrayType, relation, required, options };
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
