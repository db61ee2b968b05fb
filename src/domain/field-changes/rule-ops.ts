// New rules on values already saved (decisions.md 15): when an edit adds or tightens a field's
// `unique`, `min`/`max`, `minLength`/`maxLength`, `pattern` or `slug`, the values that entries
// hold already may break it. A model edit whose new rules no saved value breaks goes through at
// once; otherwise it answers 409 field_change_required, and the field-change plan has a `rule`
// op for the field counting the values that break it, to `keep` (the entries cannot be
// published until edited; drafts may break rules) or `clear` (those values are emptied). A
// unique rule offers only `clear`: two entries holding one value could never be saved again.
// Entries in the trash are not counted (a restore checks them again).
import { fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import { type FieldDef, instantKey, itemType } from "../models/fields.ts";
import { fieldName, isEmpty, valueProblems } from "../models/rules.ts";
import { changedRules } from "../models/settings.ts";
import { DRAFTS, fieldExpr, PUBLISHED } from "../reads/names.ts";
import type { Op } from "./diff.ts";
import type { OpCounts } from "./plan.ts";

/** A value that breaks a new rule, as a plan shows it (with its locale, for a localized field). */
export interface RuleBreak {
  entryId: string;
  copy: "draft" | "published";
  value: unknown;
  reason: string;
  locale?: string;
}

/** The counts of one field's new rules over the saved values. */
export interface RuleCounts {
  values: number;
  fail: number;
  examples: RuleBreak[];
}

const MAX_EXAMPLES = 5;

/** Whether the new rules of a field compare entries with each other (unique, or a slug, which is unique). */
export function comparesEntries(rules: string[]): boolean {
  return rules.includes("unique") || rules.includes("slug");
}

/** A field's rules other than `required` (publishing checks that one; its change never needs a plan). */
function rulesOnly(f: FieldDef): FieldDef {
  return { ...f, required: false };
}

/** The reason a value breaks the changed rules of `after`, apart from uniqueness, or null. */
function localBreak(h: ProjectHandle, after: FieldDef, rules: string[], v: unknown): string | null {
  const broken = valueProblems(h, rulesOnly(after), v).filter((p) => rules.includes(p.rule));
  return broken.length ? broken.map((p) => p.message).join("; ") : null;
}

/** How two values of a unique field compare: dates as instants, the rest as their JSON text. */
function uniqueKey(f: FieldDef, v: unknown): string | null {
  if (isEmpty(v)) return null;
  return itemType(f) === "date" ? instantKey(v) : JSON.stringify(v);
}

/**
 * Counts the saved values (latest drafts and published copies of live entries) that break the
 * rules `after` adds over `before`. For uniqueness, the oldest entry holding a value keeps it and
 * every later copy holding it breaks the rule.
 */
export function countRuleBreaks(h: ProjectHandle, m: Model, before: FieldDef, after: FieldDef): RuleCounts {
  const rules = changedRules(before, after);
  const out: RuleCounts = { values: 0, fail: 0, examples: [] };
  if (rules.length === 0) return out;
  const path = `$."${after.id}"`;
  const rows = h.sqlite
    .query(
      `SELECT id, draft_data -> ?1 AS d,
              CASE WHEN published_version_id IS NOT NULL AND published_version_id <> draft_version_id THEN published_data -> ?1 END AS p
         FROM entries WHERE model_id = ?2 AND deleted_at IS NULL ORDER BY created_at, id`,
    )
    .all(path, m.id) as { id: string; d: string | null; p: string | null }[];
  const holders = new Map<string, string>();
  const unique = comparesEntries(rules) && after.type !== "array";
  for (const r of rows) {
    for (const [copy, text] of [
      ["draft", r.d],
      ["published", r.p],
    ] as const) {
      if (text === null) continue;
      const stored = JSON.parse(text) as unknown;
      // A localized field's values are checked locale by locale, and unique per locale (decisions.md 13).
      const values: [string | null, unknown][] = after.localized
        ? Object.entries(stored !== null && typeof stored === "object" && !Array.isArray(stored) ? stored : {})
        : [[null, stored]];
      for (const [locale, v] of values) {
        if (isEmpty(v)) continue;
        out.values++;
        const reasons: string[] = [];
        const local = localBreak(h, after, rules, v);
        if (local) reasons.push(local);
        const key = unique ? uniqueKey(after, v) : null;
        if (key !== null) {
          const slot = locale === null ? key : `${locale}\u0000${key}`;
          const holder = holders.get(slot);
          if (holder !== undefined && holder !== r.id) reasons.push(`${fieldName(after)} holds the same value as the older entry ${holder}`);
          else holders.set(slot, r.id);
        }
        if (reasons.length === 0) continue;
        out.fail++;
        if (out.examples.length < MAX_EXAMPLES)
          out.examples.push({ entryId: r.id, copy, value: v, reason: reasons.join("; "), ...(locale === null ? {} : { locale }) });
      }
    }
  }
  return out;
}

/** Fills the counts of a plan's rule ops (`acc`, by op id): values checked, kept (`convert`), breaking (`fail`), examples. */
export function countRuleOps(h: ProjectHandle, m: Model, ops: Op[], editFields: FieldDef[], acc: Record<string, OpCounts>): void {
  for (const op of ops) {
    if (op.kind !== "rule") continue;
    const before = m.fields.find((f) => f.id === op.fieldId)!;
    const after = editFields.find((f) => f.id === op.fieldId)!;
    const c = countRuleBreaks(h, m, before, after);
    acc[op.id] = {
      values: c.values,
      convert: c.values - c.fail,
      loseDetail: 0,
      fail: c.fail,
      examples: c.examples.map((x) => ({ ...x, outcome: "fail" as const })),
    };
  }
}

/**
 * Refuses a model edit whose new rules values already saved break: 409 field_change_required,
 * naming the field, how many values break them and the plan route. `paths` gives each edited
 * field's place in the body.
 */
export function refuseBrokenRules(h: ProjectHandle, m: Model, next: FieldDef[], paths: Map<string, string>): void {
  for (const after of next) {
    const before = m.fields.find((f) => f.id === after.id);
    if (!before || before.type !== after.type || before.arrayType !== after.arrayType) continue;
    const rules = changedRules(before, after);
    if (rules.length === 0) continue;
    const n = countRuleBreaks(h, m, before, after).fail;
    if (n === 0) continue;
    fail("field_change_required", {
      message: `${n} saved value${n === 1 ? "" : "s"} of field "${before.namespace}" break${n === 1 ? "s" : ""} its new rules (${rules.join(", ")}); plan the change to keep or clear them.`,
      extra: { field: paths.get(after.id) ?? "editFields", plan: `/v2/models/${m.id}/field-changes/plan`, values: n },
    });
  }
}

/**
 * Why one saved value of an entry breaks the new rules of `after` (a `clear` decision empties it),
 * or null. For uniqueness it breaks when an older live entry holds the same value.
 */
export function ruleBreakOf(
  h: ProjectHandle,
  modelId: string,
  before: FieldDef,
  after: FieldDef,
  entry: { id: string; createdAt: string },
  v: unknown,
  locale: string | null = null,
): string | null {
  if (isEmpty(v)) return null;
  const rules = changedRules(before, after);
  const reasons: string[] = [];
  const local = localBreak(h, after, rules, v);
  if (local) reasons.push(local);
  if (comparesEntries(rules) && after.type !== "array") {
    const key = itemType(after) === "date" ? instantKey(v) : v;
    // A localized value is compared with other entries' values in its own locale.
    const chain = after.localized && locale !== null ? [locale] : null;
    const draft = fieldExpr(DRAFTS, "e", after, chain);
    const published = fieldExpr(PUBLISHED, "e", after, chain);
    const older = h.sqlite
      .query(
        `SELECT e.id FROM entries e WHERE e.model_id = ?1 AND e.deleted_at IS NULL AND (e.created_at, e.id) < (?2, ?3)
           AND (${draft} = ?4 OR (e.published_version_id IS NOT NULL AND ${published} = ?4)) LIMIT 1`,
      )
      .get(modelId, entry.createdAt, entry.id, key as string | number) as { id: string } | null;
    if (older) reasons.push(`${fieldName(after)} holds the same value as the older entry ${older.id}`);
  }
  return reasons.length ? reasons.join("; ") : null;
}
