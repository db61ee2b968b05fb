// Staging one entry of a field change: its draft and published copies converted with the
// decisions, its comparison keys recomputed for the new fields, its older versions converted
// where they convert, and every value that failed listed. Nothing here is visible to readers:
// the staged rows replace the entry's data only when the change moves, all at once.
import type { ProjectHandle } from "../../storage/pool.ts";
import { comparisonKeys, type FieldDef } from "../models/fields.ts";
import { convertValue } from "./convert.ts";
import { ruleBreakOf } from "./rule-ops.ts";
import { localizeValue } from "./localize.ts";
import { isBlank } from "../locales/values.ts";
import { parseState, publishedAtOf, stateOf } from "../locales/state.ts";
import type { Choice } from "./diff.ts";
import type { ConvertCtx, EntryCopies } from "./plan.ts";

/** The decision taken for one op. */
export interface Decision {
  choice: Choice;
  /** For `convert`: what a value that fails becomes; `stop` keeps the model from moving. */
  onFailure: "clear" | "stop" | null;
}

/** What staging needs besides the ops: decisions, the keep_both fields and the model's new field list. */
export interface StageCtx extends ConvertCtx {
  changeId: string;
  decisions: Record<string, Decision>;
  /** The field that keeps the old values of each keep_both op, by op id. */
  keepBoth: Record<string, FieldDef>;
  targetFields: FieldDef[];
  now: string;
}

interface Failure {
  fieldId: string;
  copy: "draft" | "published";
  value: unknown;
  reason: string;
}

/** A localized field's slots (an empty object when it holds none). */
const slotsOf = (v: unknown): Record<string, unknown> => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * Converts a localized field's value locale by locale; a value that fails is emptied and its
 * locale named (one failure per field and copy, listing every locale that failed).
 */
function convertSlots(ctx: StageCtx, op: { fieldId: string }, v: unknown, onFail: (value: unknown, reason: string) => void, history = false): unknown {
  const before = ctx.before.get(op.fieldId)!;
  const after = ctx.after.get(op.fieldId)!;
  const out: Record<string, unknown> = {};
  const failed: Record<string, unknown> = {};
  const reasons: string[] = [];
  for (const [code, x] of Object.entries(slotsOf(v))) {
    const r = convertValue(before, after, x, ctx.lookup);
    if (r.kind === "ok" && !isBlank(after, r.value)) out[code] = r.value;
    else if (r.kind === "fail") {
      // History keeps a value that does not convert as stored (it reads as null).
      if (history) out[code] = x;
      failed[code] = x;
      reasons.push(`${code}: ${r.reason}`);
    }
  }
  if (reasons.length) onFail(failed, reasons.join("; "));
  return Object.keys(out).length ? out : undefined;
}

/** Converts a current copy (the draft or the published copy); failures are emptied and listed. */
function convertCopy(
  h: ProjectHandle,
  ctx: StageCtx,
  e: EntryCopies,
  data: Record<string, unknown>,
  copy: "draft" | "published",
  failures: Failure[],
): Record<string, unknown> {
  const out = { ...data };
  for (const op of ctx.ops) {
    const d = ctx.decisions[op.id]!;
    const v = data[op.fieldId];
    if (op.kind === "rule") {
      // `clear` empties only the values that break the new rules; an entry in the trash keeps its own.
      if (d.choice !== "clear" || e.deletedAt) continue;
      const before = ctx.before.get(op.fieldId)!;
      const after = ctx.after.get(op.fieldId)!;
      const entry = { id: e.id, createdAt: e.createdAt ?? "" };
      if (!after.localized) {
        const why = ruleBreakOf(h, ctx.modelId, before, after, entry, out[op.fieldId]);
        if (why) {
          failures.push({ fieldId: op.fieldId, copy, value: out[op.fieldId], reason: why });
          out[op.fieldId] = null;
        }
        continue;
      }
      // Locale by locale: each value that breaks the rules in its locale is emptied.
      const slots = { ...slotsOf(out[op.fieldId]) };
      const broken: Record<string, unknown> = {};
      const reasons: string[] = [];
      for (const [code, x] of Object.entries(slots)) {
        const why = ruleBreakOf(h, ctx.modelId, before, after, entry, x, code);
        if (!why) continue;
        broken[code] = x;
        reasons.push(`${code}: ${why}`);
        delete slots[code];
      }
      if (reasons.length) {
        failures.push({ fieldId: op.fieldId, copy, value: broken, reason: reasons.join("; ") });
        if (Object.keys(slots).length) out[op.fieldId] = slots;
        else delete out[op.fieldId];
      }
      continue;
    }
    if (op.kind === "localize") {
      const x = localizeValue(ctx.before.get(op.fieldId)!, v, op.localized === true, ctx.defaultCode);
      if (x.value === undefined) delete out[op.fieldId];
      else out[op.fieldId] = x.value;
      continue;
    }
    if (d.choice === "delete") {
      delete out[op.fieldId];
      continue;
    }
    if (d.choice === "clear") {
      if (v !== undefined) out[op.fieldId] = null;
      continue;
    }
    if (op.kind === "rename") continue;
    if (d.choice === "keep_both" && v !== undefined && v !== null) out[ctx.keepBoth[op.id]!.id] = v;
    if (ctx.before.get(op.fieldId)!.localized) {
      const next = convertSlots(ctx, op, v, (value, reason) => failures.push({ fieldId: op.fieldId, copy, value, reason }));
      if (next === undefined) {
        if (v !== undefined) delete out[op.fieldId];
      } else out[op.fieldId] = next;
      continue;
    }
    const r = convertValue(ctx.before.get(op.fieldId)!, ctx.after.get(op.fieldId)!, v, ctx.lookup);
    if (r.kind === "ok") out[op.fieldId] = r.value;
    else if (r.kind === "empty") {
      if (v !== undefined) out[op.fieldId] = null;
    } else {
      out[op.fieldId] = null;
      failures.push({ fieldId: op.fieldId, copy, value: v, reason: r.reason });
    }
  }
  return out;
}

/**
 * Converts an older version, which is history: values that convert are converted so the
 * version reads under the new fields, values that do not stay as stored (they read as null),
 * and clear and delete leave history alone.
 */
function convertHistory(ctx: StageCtx, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const op of ctx.ops) {
    const d = ctx.decisions[op.id]!;
    if (op.kind === "localize") {
      // The shape follows the field, so a restored version reads as it did (its other locales go with `off`).
      const x = localizeValue(ctx.before.get(op.fieldId)!, out[op.fieldId], op.localized === true, ctx.defaultCode);
      if (x.value === undefined) delete out[op.fieldId];
      else out[op.fieldId] = x.value;
      continue;
    }
    if ((d.choice !== "convert" && d.choice !== "keep_both") || op.kind === "rename" || op.kind === "rule") continue;
    const v = data[op.fieldId];
    if (d.choice === "keep_both" && v !== undefined && v !== null) out[ctx.keepBoth[op.id]!.id] = v;
    if (ctx.before.get(op.fieldId)!.localized) {
      const next = convertSlots(ctx, op, v, () => {}, true);
      if (next !== undefined) out[op.fieldId] = next;
      continue;
    }
    const r = convertValue(ctx.before.get(op.fieldId)!, ctx.after.get(op.fieldId)!, v, ctx.lookup);
    if (r.kind === "ok") out[op.fieldId] = r.value;
  }
  return out;
}

/**
 * The entry's locale state under the new fields: a model that becomes localized keeps an entry
 * published in the default locale (when it was published), one that stops being so has none.
 */
function newState(ctx: StageCtx, e: EntryCopies, draft: Record<string, unknown>, published: Record<string, unknown> | null): string | null {
  const was = parseState(e.localeState ?? null);
  const at = was ? publishedAtOf(was) : published && e.publishedAt ? { [ctx.defaultCode]: e.publishedAt } : {};
  return stateOf(
    { fields: ctx.targetFields },
    ctx.codes,
    { data: draft, tags: JSON.parse(e.draftTags ?? "[]"), folder: e.draftFolder ?? null },
    published ? { data: published, tags: JSON.parse(e.publishedTags ?? "[]"), folder: e.publishedFolder ?? null } : null,
    at,
  );
}

/** Stages one entry (replacing anything staged for it before); must run inside a transaction. */
export function stageEntry(h: ProjectHandle, ctx: StageCtx, e: EntryCopies): void {
  const failures: Failure[] = [];
  const draft = convertCopy(h, ctx, e, JSON.parse(e.draftData), "draft", failures);
  let published: Record<string, unknown> | null = null;
  if (e.publishedVersionId) {
    published = e.publishedVersionId === e.draftVersionId ? draft : convertCopy(h, ctx, e, JSON.parse(e.publishedData ?? "{}"), "published", failures);
  }
  h.sqlite.query("DELETE FROM field_change_failures WHERE change_id = ? AND entry_id = ?").run(ctx.changeId, e.id);
  const addFailure = h.sqlite.query(
    "INSERT OR REPLACE INTO field_change_failures (change_id, entry_id, field_id, copy, value, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const f of failures) addFailure.run(ctx.changeId, e.id, f.fieldId, f.copy, JSON.stringify(f.value), f.reason, ctx.now);
  h.sqlite
    .query(
      `INSERT OR REPLACE INTO field_change_rows (change_id, entry_id, draft_version_id, published_version_id, draft_data, draft_keys, published_data, published_keys, locale_state)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      ctx.changeId,
      e.id,
      e.draftVersionId,
      e.publishedVersionId,
      JSON.stringify(draft),
      JSON.stringify(comparisonKeys(ctx.targetFields, draft)),
      published ? JSON.stringify(published) : null,
      published ? JSON.stringify(comparisonKeys(ctx.targetFields, published)) : null,
      newState(ctx, e, draft, published),
    );
  h.sqlite.query("DELETE FROM field_change_versions WHERE change_id = ? AND entry_id = ?").run(ctx.changeId, e.id);
  const versions = h.sqlite.query("SELECT id, data FROM entry_versions WHERE entry_id = ?").all(e.id) as { id: string; data: string }[];
  const addVersion = h.sqlite.query("INSERT INTO field_change_versions (change_id, version_id, entry_id, data) VALUES (?, ?, ?, ?)");
  for (const v of versions) {
    const next = v.id === e.draftVersionId ? draft : v.id === e.publishedVersionId ? published! : convertHistory(ctx, JSON.parse(v.data));
    const text = JSON.stringify(next);
    if (text !== v.data) addVersion.run(ctx.changeId, v.id, e.id, text);
  }
}

/** How many listed failures belong to ops whose decision is to stop on failure. */
export function stopFailures(h: ProjectHandle, ctx: Pick<StageCtx, "changeId" | "decisions" | "ops">): number {
  const stopping = ctx.ops.filter((o) => ctx.decisions[o.id]?.choice === "convert" && ctx.decisions[o.id]?.onFailure === "stop").map((o) => o.fieldId);
  if (stopping.length === 0) return 0;
  return (
    h.sqlite
      .query("SELECT count(*) AS n FROM field_change_failures WHERE change_id = ? AND field_id IN (SELECT value FROM json_each(?))")
      .get(ctx.changeId, JSON.stringify(stopping)) as { n: number }
  ).n;
}
