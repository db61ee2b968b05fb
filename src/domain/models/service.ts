// Models: create, edit, delete, with every field kind. Every saved change is a new model version;
// read caches and GraphQL schemas of the project are told at once through the change bus.
import { eq, sql } from "drizzle-orm";
import { models, modelVersions, entries, entryVersions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { actorFrom } from "../events/outbox.ts";
import { write, type Tx } from "../unit-of-work.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, findModel, modelOrFail, type Model } from "./catalog.ts";
import { ARRAY_TYPES, FIELD_TYPES, MODEL_NAMESPACE, checkFieldNamespace, isUuid, type ArrayType, type FieldDef, type FieldType } from "./fields.ts";

function checkString(v: unknown, path: string, max: number, optional: boolean): string | null {
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
function checkPreviewUrl(v: unknown): string | null {
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

function checkUniqueFields(fields: FieldDef[], path: string): void {
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

function bumpModelSet(tx: Tx): void {
  const h = tx.h;
  h.sqlite
    .query("INSERT INTO settings (name, value) VALUES ('model_set_version', '1') ON CONFLICT(name) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
    .run();
  h.cache.delete("models");
  tx.modelsChanged();
}

function snapshot(h: ProjectHandle, m: Model, now: string): void {
  h.db
    .insert(modelVersions)
    .values({ modelId: m.id, version: m.version, snapshot: JSON.stringify(m), createdAt: now })
    .run();
}

/** Creates a model. */
export function createModel(s: Services, h: ProjectHandle, body: Record<string, unknown>, actor = "system"): Model {
  // A misspelt key (say `feilds`) would otherwise create a model silently missing what was meant.
  const known = new Set(["name", "namespace", "description", "singleEntry", "embedByDefault", "previewUrl", "fields"]);
  for (const k of Object.keys(body)) if (!known.has(k)) badField(k, `${k} is not a model property`);
  const name = checkString(body.name, "name", 120, false)!;
  const namespace = body.namespace;
  if (typeof namespace !== "string" || !MODEL_NAMESPACE.test(namespace)) {
    badField("namespace", "namespace must be 1 to 64 of a-z A-Z 0-9 _ -");
  }
  // Models are looked up by namespace in plain objects too, where this name is the prototype.
  if (namespace === "__proto__") badField("namespace", 'namespace cannot be "__proto__"');
  if (allModels(h).byNamespace.has(namespace)) fail("namespace_taken", { extra: { field: "namespace" } });
  const description = checkString(body.description, "description", 2000, true);
  if (body.singleEntry !== undefined && typeof body.singleEntry !== "boolean") badField("singleEntry", "singleEntry must be true or false");
  if (body.embedByDefault !== undefined && typeof body.embedByDefault !== "boolean") badField("embedByDefault", "embedByDefault must be true or false");
  const rawFields = body.fields ?? [];
  if (!Array.isArray(rawFields)) badField("fields", "fields must be a list");
  const id = s.ids.uuid();
  const fields = rawFields.map((f, i) => parseField(s, h, f, `fields[${i}]`, { id, namespace }));
  checkUniqueFields(fields, "fields");
  const now = iso(s.clock.now());
  const m: Model = {
    id,
    namespace,
    name,
    description,
    singleEntry: (body.singleEntry as boolean) ?? false,
    fields,
    layout: null,
    embedByDefault: (body.embedByDefault as boolean) ?? false,
    previewUrl: body.previewUrl === undefined ? null : checkPreviewUrl(body.previewUrl),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  write(s, h, (tx) => {
    h.db
      .insert(models)
      .values({ ...m, fields: JSON.stringify(fields), layout: null })
      .run();
    snapshot(h, m, now);
    bumpModelSet(tx);
    modelPublished(s, tx, m, actor);
  });
  return findModel(h, id)!;
}

function hasEntries(h: ProjectHandle, modelId: string): boolean {
  return !!h.sqlite.query("SELECT 1 FROM entries WHERE model_id = ? LIMIT 1").get(modelId);
}

/**
 * Edits a model: `{ name?, description?, singleEntry?, embedByDefault?, addFields?, editFields?, removeIds?, fieldOrder? }`.
 * `opts.fieldChange` is set by a field change moving the model, whose entries it has converted.
 */
export function updateModel(
  s: Services,
  h: ProjectHandle,
  ref: string,
  body: Record<string, unknown>,
  actor = "system",
  opts: { fieldChange?: boolean } = {},
): Model {
  const m = modelOrFail(h, ref, "id");
  const known = new Set(["name", "description", "singleEntry", "embedByDefault", "previewUrl", "addFields", "editFields", "removeIds", "fieldOrder"]);
  for (const k of Object.keys(body)) if (!known.has(k)) badField(k, `${k} cannot be changed here`);
  const next: Model = { ...m, fields: [...m.fields] };
  if (body.name !== undefined) next.name = checkString(body.name, "name", 120, false)!;
  if (body.description !== undefined) next.description = checkString(body.description, "description", 2000, true);
  if (body.singleEntry !== undefined) {
    if (typeof body.singleEntry !== "boolean") badField("singleEntry", "singleEntry must be true or false");
    // A single-entry model answers with its one entry; with several there is no one to answer.
    if (body.singleEntry && !m.singleEntry && h.sqlite.query("SELECT 1 FROM entries WHERE model_id = ? LIMIT 1 OFFSET 1").get(m.id)) {
      fail("conflict", { message: `The model ${m.namespace} holds more than one entry, so it cannot be made single-entry.`, extra: { field: "singleEntry" } });
    }
    next.singleEntry = body.singleEntry;
  }
  if (body.embedByDefault !== undefined) {
    if (typeof body.embedByDefault !== "boolean") badField("embedByDefault", "embedByDefault must be true or false");
    next.embedByDefault = body.embedByDefault;
  }
  if (body.previewUrl !== undefined) next.previewUrl = checkPreviewUrl(body.previewUrl);
  const self = { id: m.id, namespace: m.namespace };
  if (body.removeIds !== undefined) {
    if (!Array.isArray(body.removeIds)) badField("removeIds", "removeIds must be a list of field ids");
    body.removeIds.forEach((id, i) => {
      if (typeof id !== "string" || !next.fields.some((f) => f.id === id.toLowerCase()))
        badField(`removeIds[${i}]`, `removeIds[${i}] is not a field of this model`);
    });
    const gone = new Set((body.removeIds as string[]).map((x) => x.toLowerCase()));
    next.fields = next.fields.filter((f) => !gone.has(f.id));
  }
  if (body.editFields !== undefined) {
    if (!Array.isArray(body.editFields)) badField("editFields", "editFields must be a list");
    const withEntries = hasEntries(h, m.id);
    body.editFields.forEach((raw, i) => {
      const path = `editFields[${i}]`;
      const id = (raw as Record<string, unknown> | null)?.id;
      const idx = typeof id === "string" ? next.fields.findIndex((f) => f.id === id.toLowerCase()) : -1;
      if (idx < 0) badField(`${path}.id`, `${path}.id is not a field of this model`);
      const before = next.fields[idx]!;
      const after = parseField(s, h, raw, path, self, before);
      const shapeChanged =
        after.type !== before.type || after.arrayType !== before.arrayType || after.relation !== before.relation || after.namespace !== before.namespace;
      if (shapeChanged && withEntries && !opts.fieldChange) {
        fail("field_change_required", {
          message: `Changing the type, array type, relation or namespace of field "${before.namespace}" on a model with entries needs a field change.`,
          extra: { field: `${path}`, plan: `/v2/models/${m.id}/field-changes/plan` },
        });
      }
      next.fields[idx] = after;
    });
  }
  if (body.addFields !== undefined) {
    if (!Array.isArray(body.addFields)) badField("addFields", "addFields must be a list");
    body.addFields.forEach((raw, i) => {
      next.fields.push(parseField(s, h, raw, `addFields[${i}]`, self));
    });
  }
  checkUniqueFields(next.fields, "fields");
  // Applied last so one PATCH can add a field and place it: the order names the fields as they
  // stand after this patch's removes and adds.
  if (body.fieldOrder !== undefined) next.fields = orderFields(next.fields, body.fieldOrder);
  const now = iso(s.clock.now());
  next.version = m.version + 1;
  next.updatedAt = now;
  write(s, h, (tx) => {
    h.db
      .update(models)
      .set({
        name: next.name,
        description: next.description,
        singleEntry: next.singleEntry,
        embedByDefault: next.embedByDefault,
        previewUrl: next.previewUrl,
        fields: JSON.stringify(next.fields),
        version: next.version,
        updatedAt: now,
      })
      .where(eq(models.id, m.id))
      .run();
    snapshot(h, next, now);
    bumpModelSet(tx);
    modelPublished(s, tx, next, actor);
  });
  return findModel(h, m.id)!;
}

/**
 * Reorders fields by `fieldOrder`, which must name every field of the model exactly once: a
 * partial list would leave the place of the unnamed fields to guesswork.
 */
function orderFields(fields: FieldDef[], order: unknown): FieldDef[] {
  const bad = (message: string): never => badField("fieldOrder", message);
  if (!Array.isArray(order)) bad("fieldOrder must be a list of the model's field ids");
  const byId = new Map(fields.map((f) => [f.id, f]));
  const seen = new Set<string>();
  const out: FieldDef[] = [];
  for (const raw of order as unknown[]) {
    const id = typeof raw === "string" ? raw.toLowerCase() : "";
    const f = byId.get(id);
    if (!f) bad(`fieldOrder names ${JSON.stringify(raw)}, which is not a field of this model after this change`);
    if (seen.has(id)) bad(`fieldOrder names the field ${id} twice`);
    seen.add(id);
    out.push(f as FieldDef);
  }
  if (out.length !== fields.length) {
    const missing = fields.filter((f) => !seen.has(f.id)).map((f) => f.id);
    bad(`fieldOrder must name every field of the model once; it leaves out ${missing.join(", ")}`);
  }
  return out;
}

/** Every saved model change is a new model version and emits model.published. */
function modelPublished(s: Services, tx: Tx, m: Model, actor: string): void {
  tx.emit({
    type: "model.published",
    actor: actorFrom(actor),
    data: { modelId: m.id, modelNamespace: m.namespace, version: m.version, name: m.name },
    links: { self: `${s.config.apiUrl}/v2/models/${m.id}` },
  });
}

/** Deletes a model and its entries; the body must repeat the namespace. */
export function deleteModel(s: Services, h: ProjectHandle, ref: string, confirm: unknown, actor = "system"): void {
  const m = modelOrFail(h, ref, "id");
  if (confirm !== m.namespace) {
    fail("confirmation_mismatch", { message: "Repeat the model's namespace in the body as { namespace } to delete it.", extra: { field: "namespace" } });
  }
  // A relation field of another model would point at nothing: its values could never be written
  // or resolved again. The relation has to go (or be changed) first.
  const referrers = allModels(h)
    .list.filter((o) => o.id !== m.id)
    .flatMap((o) => o.fields.filter((f) => f.relation === m.id).map((f) => `${o.namespace}.${f.namespace}`));
  if (referrers.length > 0) {
    fail("conflict", {
      message: `Other models relate to ${m.namespace} (${referrers.join(", ")}); remove or change those fields first.`,
      extra: { field: "namespace" },
    });
  }
  write(s, h, (tx) => {
    h.db.delete(entryVersions).where(sql`${entryVersions.entryId} IN (SELECT id FROM entries WHERE model_id = ${m.id})`).run();
    h.db.delete(entries).where(eq(entries.modelId, m.id)).run();
    h.db.delete(modelVersions).where(eq(modelVersions.modelId, m.id)).run();
    h.db.delete(models).where(eq(models.id, m.id)).run();
    bumpModelSet(tx);
    tx.emit({ type: "model.deleted", actor: actorFrom(actor), data: { modelId: m.id, namespace: m.namespace } });
    tx.contentChanged();
  });
}
