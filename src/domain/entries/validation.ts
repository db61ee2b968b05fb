// Validation at publish (decisions.md 15): every rule of every field of the copy about to go live,
// listed together, so one refusal names all there is to fix. Publishing now, bulk publishing and
// scheduled actions all publish through publishEntry, which refuses with `400 validation_failed`
// and publishes nothing; bulk and the scheduler record the list. Drafts may break these rules.
import type { Static } from "@sinclair/typebox";
import { AppError, badField, fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model, modelOrFail } from "../models/catalog.ts";
import { fieldName, isEmpty, valueProblems } from "../models/rules.ts";
import type { ValidateBody } from "./bodies.ts";
import { getRow } from "./service.ts";
import { fillSlugs, holderOf, uniqueFields } from "./unique.ts";
import { mergeData, withDefaults } from "./values.ts";

/** One broken rule: the field as a body names it (`data.<namespace>`), the rule, a sentence naming the field's label. */
export interface Problem {
  field: string;
  rule: string;
  message: string;
}

/** Every rule the data (stored form, keyed by field id) breaks, in field order. */
export function problemsOf(h: ProjectHandle, m: Model, data: Record<string, unknown>): Problem[] {
  const out: Problem[] = [];
  for (const f of m.fields) {
    for (const p of valueProblems(h, f, data[f.id])) out.push({ field: `data.${f.namespace}`, rule: p.rule, message: p.message });
  }
  return out;
}

/**
 * Refuses with `400 validation_failed { errors }` when the data breaks a rule. The body's `field`
 * names the first field at fault (as every /v2 refusal does), and `error` its sentence when it
 * is the only one.
 */
export function checkPublishable(h: ProjectHandle, m: Model, data: Record<string, unknown>): void {
  const errors = problemsOf(h, m, data);
  if (errors.length === 0) return;
  const first = errors[0]!;
  fail("validation_failed", {
    message: errors.length === 1 ? first.message : `The entry breaks ${errors.length} rules: ${errors.map((e) => e.message).join("; ")}.`,
    param: first.field,
    extra: { field: first.field, errors },
  });
}

/** The rule list of a validation refusal, or null for any other error. */
export function validationErrors(e: unknown): Problem[] | null {
  return e instanceof AppError && e.code === "validation_failed" ? (e.extra?.errors as Problem[]) : null;
}

/**
 * `POST /v2/model-instances/validate`: what a save and a publish of these values would say,
 * writing nothing. The values are merged as a save merges them (over the entry's latest draft
 * with `id`, else as a new entry of `model` with its defaults; a value of the wrong kind is
 * refused as a save refuses it), empty slugs are filled as a save fills them, and the answer
 * lists every rule publishing checks plus each unique value another entry holds (`rule:
 * "unique"`, with `entryId`). The editor calls it as a person types and before Publish.
 */
export function validateValues(h: ProjectHandle, body: Static<typeof ValidateBody>) {
  let m: Model;
  let merged: Record<string, unknown>;
  let selfId: string | null = null;
  if (body.id !== undefined) {
    const row = getRow(h, body.id);
    m = allModels(h).byId.get(row.modelId)!;
    if (body.model !== undefined && modelOrFail(h, body.model).id !== m.id) badField("model", `The entry ${row.id} is not of the model ${body.model}`);
    selfId = row.id;
    merged = mergeData(h, m, body.data ?? {}, JSON.parse(row.draftData));
  } else {
    if (body.model === undefined) badField("model", "Send model (for a new entry) or id (for an entry's draft)");
    m = modelOrFail(h, body.model);
    merged = withDefaults(m, body.data ?? {}, mergeData(h, m, body.data ?? {}, {}));
  }
  const data = fillSlugs(h, m, selfId, merged);
  const errors: (Problem & { entryId?: string })[] = [];
  for (const f of uniqueFields(m)) {
    const v = data[f.id];
    const holder = isEmpty(v) ? null : holderOf(h, m, f, v, selfId);
    if (holder)
      errors.push({
        field: `data.${f.namespace}`,
        rule: "unique",
        message: `${fieldName(f)} must be unique: another entry of this model already has ${JSON.stringify(v)}.`,
        entryId: holder,
      });
  }
  errors.push(...problemsOf(h, m, data));
  return { valid: errors.length === 0, errors };
}
