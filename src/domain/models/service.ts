// Models: create, edit, delete, with every field kind. Every saved change is a new model version;
// read caches and GraphQL schemas of the project are told at once through the change bus. The
// body's parts are checked in validate.ts; what each saved change also writes is versioning.ts.
import { eq, sql } from "drizzle-orm";
import { models, modelVersions, entries, entryVersions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { actorFrom } from "../events/outbox.ts";
import { write } from "../unit-of-work.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, findModel, modelOrFail, type Model } from "./catalog.ts";
import type { FieldDef } from "./fields.ts";
import { checkPreviewUrl, checkUniqueFields, parseField } from "./validate.ts";
import { checkSlugSources, followRenames } from "./settings.ts";
import { refuseBrokenRules } from "../field-changes/rule-ops.ts";
import { countLocalize } from "../field-changes/localize.ts";
import type { Static } from "@sinclair/typebox";
import { checkValue } from "../access/body-check.ts";
import { CreateModelBody, UpdateModelBody } from "./bodies.ts";
import { bumpModelSet, modelPublished, snapshot } from "./versioning.ts";

/**
 * Creates a model. The body is checked against CreateModelBody here too (the demo and the tests
 * create models without the route); a misspelt key (say `feilds`) is refused, since it would
 * otherwise create a model silently missing what was meant.
 */
export function createModel(s: Services, h: ProjectHandle, raw: Record<string, unknown>, actor = "system"): Model {
  checkValue(CreateModelBody, raw, "");
  const body = raw as Static<typeof CreateModelBody>;
  const name = body.name;
  const namespace = body.namespace;
  // Models are looked up by namespace in plain objects too, where this name is the prototype.
  if (namespace === "__proto__") badField("namespace", 'namespace cannot be "__proto__"');
  if (allModels(h).byNamespace.has(namespace)) fail("namespace_taken", { extra: { field: "namespace" } });
  const description = body.description ?? null;
  const rawFields = body.fields ?? [];
  const id = s.ids.uuid();
  const fields = rawFields.map((f, i) => parseField(s, h, f, `fields[${i}]`, { id, namespace }));
  checkUniqueFields(fields, "fields");
  checkSlugSources(fields, (f) => `fields[${fields.indexOf(f)}]`);
  const now = iso(s.clock.now());
  const m: Model = {
    id,
    namespace,
    name,
    description,
    singleEntry: body.singleEntry ?? false,
    fields,
    layout: null,
    embedByDefault: body.embedByDefault ?? false,
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
    bumpModelSet(tx, m.namespace);
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
  raw: Record<string, unknown>,
  actor = "system",
  opts: { fieldChange?: boolean } = {},
): Model {
  const m = modelOrFail(h, ref, "id");
  // Checked here too: a field change moving the model edits it with a body it builds.
  checkValue(UpdateModelBody, raw, "");
  const body = raw as Static<typeof UpdateModelBody>;
  const next: Model = { ...m, fields: [...m.fields] };
  if (body.name !== undefined) next.name = body.name;
  if (body.description !== undefined) next.description = body.description;
  if (body.singleEntry !== undefined) {
    // A single-entry model answers with its one entry; with several there is no one to answer.
    if (body.singleEntry && !m.singleEntry && h.sqlite.query("SELECT 1 FROM entries WHERE model_id = ? AND deleted_at IS NULL LIMIT 1 OFFSET 1").get(m.id)) {
      fail("conflict", { message: `The model ${m.namespace} holds more than one entry, so it cannot be made single-entry.`, extra: { field: "singleEntry" } });
    }
    next.singleEntry = body.singleEntry;
  }
  if (body.embedByDefault !== undefined) next.embedByDefault = body.embedByDefault;
  if (body.previewUrl !== undefined) next.previewUrl = checkPreviewUrl(body.previewUrl);
  const self = { id: m.id, namespace: m.namespace };
  if (body.removeIds !== undefined) {
    body.removeIds.forEach((id, i) => {
      if (!next.fields.some((f) => f.id === id.toLowerCase())) badField(`removeIds[${i}]`, `removeIds[${i}] is not a field of this model`);
    });
    const gone = new Set(body.removeIds.map((x) => x.toLowerCase()));
    next.fields = next.fields.filter((f) => !gone.has(f.id));
  }
  // The body path of each field the body names, for refusals about a field's settings.
  const paths = new Map<string, string>();
  if (body.editFields !== undefined) {
    const withEntries = hasEntries(h, m.id);
    body.editFields.forEach((raw, i) => {
      const path = `editFields[${i}]`;
      paths.set(raw.id.toLowerCase(), path);
      const idx = next.fields.findIndex((f) => f.id === raw.id.toLowerCase());
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
      // Turning localized on or off moves the values into or out of the default locale (decisions.md 13).
      if ((after.localized === true) !== (before.localized === true) && withEntries && !opts.fieldChange) {
        const on = after.localized === true;
        const def = allModels(h).locales.default;
        const n = countLocalize(h, m.id, before, on, def);
        const what = on
          ? `its ${n.kept} value${n.kept === 1 ? "" : "s"} move into the default locale ${def}`
          : `${n.kept} value${n.kept === 1 ? "" : "s"} in ${def} would be kept and ${n.dropped} in other locales dropped`;
        fail("field_change_required", {
          message: `Turning localized ${on ? "on" : "off"} for field "${before.namespace}" on a model with entries needs a field change: ${what}.`,
          extra: { field: `${path}.localized`, plan: `/v2/models/${m.id}/field-changes/plan`, kept: n.kept, dropped: n.dropped },
        });
      }
      next.fields[idx] = after;
    });
  }
  if (body.addFields !== undefined) {
    body.addFields.forEach((raw, i) => {
      const f = parseField(s, h, raw, `addFields[${i}]`, self);
      paths.set(f.id, `addFields[${i}]`);
      next.fields.push(f);
    });
  }
  checkUniqueFields(next.fields, "fields");
  next.fields = followRenames(m.fields, next.fields);
  checkSlugSources(next.fields, (f) => paths.get(f.id) ?? null);
  // A rule that values already saved break goes through a field change, whose plan counts them.
  if (!opts.fieldChange) refuseBrokenRules(h, m, next.fields, paths);
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
    bumpModelSet(tx, next.namespace);
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
    bumpModelSet(tx, m.namespace);
    tx.emit({ type: "model.deleted", actor: actorFrom(actor), data: { modelId: m.id, namespace: m.namespace } });
    tx.contentChanged();
  });
}
