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
import { codesWithValues, fieldValues, valueIn } from "../locales/values.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";
import { fillSlugs, holderOf, uniqueFields } from "./unique.ts";
import { mergeData, withDefaults } from "./values.ts";

/**
 * One broken rule: the field as a body names it (`data.<namespace>`), the rule, a sentence naming
 * the field's label, and for a localized field the locale whose value breaks it.
 */
export interface Problem {
  field: string;
  rule: string;
  message: string;
  locale?: string;
}

/**
 * Every rule the data (stored form, keyed by field id) breaks, in field order. A localized field
 * is checked in each of `locales` (default: the project's default locale), its sentences naming
 * the locale: `required` means a value in each locale being published (docs/localization.md).
 */
export function problemsOf(h: ProjectHandle, m: Model, data: Record<string, unknown>, locales?: readonly string[]): Problem[] {
  const out: Problem[] = [];
  const codes = locales ?? [allModels(h).locales.default];
  for (const f of m.fields) {
    if (!f.localized) {
      for (const p of valueProblems(h, f, data[f.id])) out.push({ field: `data.${f.namespace}`, rule: p.rule, message: p.message });
      continue;
    }
    for (const code of codes) {
      const named = { ...f, label: `${fieldName(f)} (${code})` };
      for (const p of valueProblems(h, named, valueIn(data, f, code)))
        out.push({ field: `data.${f.namespace}`, rule: p.rule, message: p.message, locale: code });
    }
  }
  return out;
}

/**
 * Refuses with `400 validation_failed { errors }` when the data breaks a rule. The body's `field`
 * names the first field at fault (as every /v2 refusal does), and `error` its sentence when it
 * is the only one.
 */
export function checkPublishable(h: ProjectHandle, m: Model, data: Record<string, unknown>, locales?: readonly string[]): void {
  const errors = problemsOf(h, m, data, locales);
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
export function validateValues(h: ProjectHandle, body: Static<typeof ValidateBody>, loc?: EntryLocale) {
  let m: Model;
  let merged: Record<string, unknown>;
  let selfId: string | null = null;
  if (body.id !== undefined) {
    const row = getRow(h, body.id);
    m = allModels(h).byId.get(row.modelId)!;
    if (body.model !== undefined && modelOrFail(h, body.model).id !== m.id) badField("model", `The entry ${row.id} is not of the model ${body.model}`);
    selfId = row.id;
    merged = mergeData(h, m, body.data ?? {}, JSON.parse(row.draftData), loc);
  } else {
    if (body.model === undefined) badField("model", "Send model (for a new entry) or id (for an entry's draft)");
    m = modelOrFail(h, body.model);
    merged = withDefaults(m, body.data ?? {}, mergeData(h, m, body.data ?? {}, {}, loc), loc?.code ?? allModels(h).locales.default);
  }
  const data = fillSlugs(h, m, selfId, merged);
  const errors: (Problem & { entryId?: string })[] = [];
  for (const f of uniqueFields(m)) {
    for (const { locale, value: v } of fieldValues(data, f)) {
      const holder = isEmpty(v) ? null : holderOf(h, m, f, v, selfId, locale);
      if (!holder) continue;
      const where = locale === null ? "" : ` in ${locale}`;
      errors.push({
        field: `data.${f.namespace}`,
        rule: "unique",
        message: `${fieldName(f)} must be unique${where}: another entry of this model already has ${JSON.stringify(v)}.`,
        ...(locale === null ? {} : { locale }),
        entryId: holder,
      });
    }
  }
  // A locale's rules are checked where the check writes: its locale, or with `*` every locale holding a value.
  const pl = allModels(h).locales;
  const codes = !loc ? [pl.default] : loc.all ? codesWithValues(m.fields, data, pl.codes) : [loc.code];
  errors.push(...problemsOf(h, m, data, codes.length ? codes : [pl.default]));
  return { valid: errors.length === 0, errors };
}
