// Counting what a field change would do, without writing: per op, how many stored values
// convert, lose detail or fail. A value is one field of one copy of an entry: its draft, and its
// published copy when that is a different version. Up to five examples of values that fail or
// lose detail come with each op, so a person sees what the numbers mean.
import type { FieldDef } from "../models/fields.ts";
import { convertValue, convertible, quote, type Lookup } from "./convert.ts";
import type { Op } from "./diff.ts";
import { localizeValue } from "./localize.ts";

/** A value a plan shows as an example of failing or losing detail. */
export interface Example {
  entryId: string;
  copy: "draft" | "published";
  value: unknown;
  outcome: "loseDetail" | "fail";
  reason: string;
}

/** The counts of one op, with its examples; a `localize` op also names the values kept and dropped. */
export interface OpCounts {
  values: number;
  convert: number;
  loseDetail: number;
  fail: number;
  kept?: number;
  dropped?: number;
  examples: Example[];
}

/** What the conversion of entries needs: the ops, the fields before and after, the relation lookup and the project's locales. */
export interface ConvertCtx {
  modelId: string;
  ops: Op[];
  before: Map<string, FieldDef>;
  after: Map<string, FieldDef>;
  lookup: Lookup;
  /** The default locale (a localize op moves values into or out of it) and every code, in order. */
  defaultCode: string;
  codes: string[];
}

/** An entry row as counting and staging read it. */
export interface EntryCopies {
  id: string;
  createdAt?: string;
  /** Set for an entry in the trash: a rule op leaves its values alone (a restore checks them). */
  deletedAt?: string | null;
  draftVersionId: string;
  draftData: string;
  publishedVersionId: string | null;
  publishedData: string | null;
  /** What the new locale state is made from (COPIES_SQL): tags, folders, the state and when it was published. */
  draftTags?: string;
  draftFolder?: string | null;
  publishedTags?: string | null;
  publishedFolder?: string | null;
  localeState?: string | null;
  publishedAt?: string | null;
}

const MAX_EXAMPLES = 5;

/** Zero counts for every op. */
export function emptyCounts(ops: Op[]): Record<string, OpCounts> {
  return Object.fromEntries(
    ops.map((o) => [o.id, { values: 0, convert: 0, loseDetail: 0, fail: 0, ...(o.kind === "localize" ? { kept: 0, dropped: 0 } : {}), examples: [] }]),
  );
}

/** Counts one value of a localize op: kept values convert, dropped ones lose detail (with an example). */
function countLocalize(ctx: ConvertCtx, op: Op, c: OpCounts, e: EntryCopies, copy: "draft" | "published", v: unknown): void {
  const x = localizeValue(ctx.before.get(op.fieldId)!, v, op.localized === true, ctx.defaultCode);
  c.values += x.kept + x.dropped;
  c.convert += x.kept;
  c.loseDetail += x.dropped;
  c.kept = (c.kept ?? 0) + x.kept;
  c.dropped = (c.dropped ?? 0) + x.dropped;
  if (x.dropped > 0 && c.examples.length < MAX_EXAMPLES) {
    const kept = x.kept ? `; ${ctx.defaultCode} is kept` : `; ${ctx.defaultCode} has none, so the field is emptied`;
    c.examples.push({ entryId: e.id, copy, value: v, outcome: "loseDetail", reason: `the values in ${x.droppedLocales.join(", ")} are dropped${kept}` });
  }
}

/** The values one stored value of a field stands for: itself, or a localized field's one per locale. */
function valuesOf(f: FieldDef, v: unknown): unknown[] {
  return f.localized ? Object.values(v !== null && typeof v === "object" && !Array.isArray(v) ? v : {}) : [v];
}

/** The copies of an entry that count: the draft, and the published copy when it is another version. */
export function copiesOf(e: EntryCopies): { copy: "draft" | "published"; data: Record<string, unknown> }[] {
  const out: { copy: "draft" | "published"; data: Record<string, unknown> }[] = [{ copy: "draft", data: JSON.parse(e.draftData) }];
  if (e.publishedVersionId && e.publishedVersionId !== e.draftVersionId && e.publishedData) out.push({ copy: "published", data: JSON.parse(e.publishedData) });
  return out;
}

/** Adds the values of some entries to the counts (`acc`, by op id). */
export function countEntries(ctx: ConvertCtx, rows: EntryCopies[], acc: Record<string, OpCounts>): void {
  for (const e of rows) {
    for (const { copy, data } of copiesOf(e)) {
      for (const op of ctx.ops) {
        // Rule ops are counted over the whole model at once (rule-ops.ts countRuleOps).
        if (op.kind === "rule") continue;
        const stored = data[op.fieldId];
        if (stored === undefined || stored === null) continue;
        const c = acc[op.id]!;
        if (op.kind === "localize") {
          countLocalize(ctx, op, c, e, copy, stored);
          continue;
        }
        const before = ctx.before.get(op.fieldId)!;
        // A localized field's values count one per locale.
        for (const v of valuesOf(before, stored)) {
          if (v === undefined || v === null) continue;
          if (op.kind === "remove" || op.kind === "rename") {
            c.values++;
            if (op.kind === "rename") c.convert++;
            continue;
          }
          const after = ctx.after.get(op.fieldId)!;
          const r = convertible(before, after)
            ? convertValue(before, after, v, ctx.lookup)
            : { kind: "fail" as const, reason: `a ${after.type} field cannot hold ${before.type} values` };
          if (r.kind === "empty") continue;
          c.values++;
          if (r.kind === "ok" && !r.lossy) {
            c.convert++;
            continue;
          }
          const outcome = r.kind === "ok" ? "loseDetail" : "fail";
          c[outcome]++;
          if (c.examples.length < MAX_EXAMPLES) {
            const reason = r.kind === "fail" ? r.reason : `only the first of ${(v as unknown[]).length} items is kept: ${quote(r.value)}`;
            c.examples.push({ entryId: e.id, copy, value: v, outcome, reason });
          }
        }
      }
    }
  }
}

/** The op list of a plan answer, each op with its counts and examples, and the totals. */
export function countedOps(ops: Op[], counts: Record<string, OpCounts> | null) {
  const totals = { values: 0, convert: 0, loseDetail: 0, fail: 0 };
  const list = ops.map((o) => {
    const c = counts?.[o.id];
    if (!c) return { ...o, counts: null, examples: [] };
    const { examples, ...n } = c;
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += n[k];
    return { ...o, counts: n, examples };
  });
  return { ops: list, counts: counts ? totals : null };
}
