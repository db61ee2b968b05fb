// Field changes (interface.md, Field change; decisions.md section 7): plan and apply, and the
// record every route answers with (cancel, resume and history are in lifecycle.ts). A plan writes nothing (a model with more than 1,000 entries is counted in the
// background and answered with a poll link). An applied change is queued and worked through by
// the `field-changes` job (runner.ts): converting stages every entry, moving swaps model and
// entries in one transaction. States: planned, queued, converting, moving, done, failed, cancelled.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { fieldChanges, fieldChangeFailures } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Principal } from "../access/principal.ts";
import { actorFrom } from "../events/outbox.ts";
import { allModels, modelOrFail, type Model } from "../models/catalog.ts";
import type { FieldDef } from "../models/fields.ts";
import { readDiff, type Diff, type Op } from "./diff.ts";
import { countEntries, countedOps, emptyCounts, type ConvertCtx, type OpCounts } from "./plan.ts";
import type { Decision } from "./stage.ts";
import type { Lookup } from "./convert.ts";

/** A plan on more entries than this is counted in the background (decisions.md section 7). */
export const PLAN_INLINE_MAX = 1000;
/** The states in which a change is in progress. */
export const ACTIVE = ["queued", "converting", "moving"] as const;

/** A stored field change. */
export type FieldChangeRow = typeof fieldChanges.$inferSelect;

/** The `plan` column: the diff, its ops and, once applied, the decisions and the fields it moves to. */
export interface StoredPlan {
  editFields: FieldDef[];
  removeIds: string[];
  ops: Op[];
  decisions: Record<string, Decision> | null;
  /** The field that keeps the old values, per keep_both op. */
  keepBoth: Record<string, FieldDef>;
  /** The model's fields once moved, keep_both copies included. */
  targetFields: FieldDef[] | null;
}

/** The `counts` column. `ready` is false while a large plan is still being counted. */
export interface StoredCounts {
  ready: boolean;
  ops: Record<string, OpCounts>;
}

/** The parsed `plan` column of a change. */
export function planOf(row: FieldChangeRow): StoredPlan {
  return JSON.parse(row.plan) as StoredPlan;
}

/** The actor string of a principal: `user:<id>` or `api_key:<id>`. */
function actorString(p: Principal): string {
  return p.kind === "user" ? `user:${p.userId}` : `api_key:${p.keyId}`;
}

/** Asks whether an entry belongs to a model, with one prepared statement. */
export function lookupOf(h: ProjectHandle): Lookup {
  const q = h.sqlite.query("SELECT 1 AS x FROM entries WHERE id = ? AND model_id = ?");
  return { inModel: (modelId, id) => q.get(id, modelId) !== null };
}

/** The conversion context of a diff on a model. */
export function convertCtx(h: ProjectHandle, m: Model, ops: Op[], editFields: FieldDef[]): ConvertCtx {
  return { ops, before: new Map(m.fields.map((f) => [f.id, f])), after: new Map(editFields.map((f) => [f.id, f])), lookup: lookupOf(h) };
}

function entryCount(h: ProjectHandle, modelId: string): number {
  return (h.sqlite.query("SELECT count(*) AS n FROM entries WHERE model_id = ?").get(modelId) as { n: number }).n;
}

/** The entry columns counting and staging read. */
export const COPIES_SQL = `SELECT id, created_at AS createdAt, draft_version_id AS draftVersionId, draft_data AS draftData,
  published_version_id AS publishedVersionId, published_data AS publishedData FROM entries`;

function failedCount(h: ProjectHandle, id: string): number {
  return h.db.select({ n: sql<number>`count(*)` }).from(fieldChangeFailures).where(eq(fieldChangeFailures.changeId, id)).get()!.n;
}

/** The field-change record of the management API; `prefix` is the mount (`/v2` or `/v2/agent`) for the poll link. */
export function changeRecord(h: ProjectHandle, row: FieldChangeRow, prefix = "/v2") {
  const plan = planOf(row);
  const counts = row.counts ? (JSON.parse(row.counts) as StoredCounts) : null;
  const shown = countedOps(plan.ops, counts?.ready ? counts.ops : null);
  return {
    id: row.id,
    modelId: row.modelId,
    model: allModels(h).byId.get(row.modelId)?.namespace ?? null,
    state: row.state,
    planHash: row.planHash,
    baseVersion: row.baseVersion,
    resultVersion: row.resultVersion,
    ops: shown.ops.map((o) => ({ ...o, decision: plan.decisions?.[o.id] ?? null })),
    counts: shown.counts,
    countsReady: counts?.ready ?? false,
    progress: { total: row.total, done: row.done, failed: failedCount(h, row.id) },
    error: row.error ? JSON.parse(row.error) : null,
    createdBy: actorFrom(row.createdBy),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    poll: `${prefix}/field-changes/${row.id}`,
  };
}

/**
 * `POST /v2/models/:id/field-changes/plan`: what the change would do, writing nothing. Above
 * 1,000 entries the counting runs in the background: the answer is 202 with the planned change
 * and its poll link.
 */
export function planChange(s: Services, h: ProjectHandle, p: Principal, ref: string, body: Record<string, unknown>, prefix: string) {
  const m = modelOrFail(h, ref, "id");
  const diff = readDiff(s, h, m, body);
  const n = entryCount(h, m.id);
  if (n > PLAN_INLINE_MAX) {
    // Asking again for the same plan answers the one already counting (or counted).
    const same = plannedWith(h, m.id, diff.planHash);
    if (same) return { status: 202, body: changeRecord(h, same, prefix) };
    const row = insertChange(s, h, p, m, diff, "planned", null, { ready: false, ops: emptyCounts(diff.ops) });
    h.db.update(fieldChanges).set({ total: n }).where(eq(fieldChanges.id, row.id)).run();
    s.wake.fieldChanges.note(h.id);
    return { status: 202, body: changeRecord(h, { ...row, total: n }, prefix) };
  }
  const counts = emptyCounts(diff.ops);
  const rows = h.sqlite.query(`${COPIES_SQL} WHERE model_id = ?`).all(m.id) as Parameters<typeof countEntries>[1];
  countEntries(convertCtx(h, m, diff.ops, diff.editFields), rows, counts);
  return {
    status: 200,
    body: { modelId: m.id, model: m.namespace, modelVersion: m.version, planHash: diff.planHash, entries: n, ...countedOps(diff.ops, counts) },
  };
}

function insertChange(
  s: Services,
  h: ProjectHandle,
  p: Principal,
  m: Model,
  diff: Diff,
  state: string,
  applied: Pick<StoredPlan, "decisions" | "keepBoth" | "targetFields"> | null,
  counts: StoredCounts | null,
): FieldChangeRow {
  const now = iso(s.clock.now());
  const plan: StoredPlan = {
    editFields: diff.editFields,
    removeIds: diff.removeIds,
    ops: diff.ops,
    decisions: null,
    keepBoth: {},
    targetFields: null,
    ...applied,
  };
  const row: FieldChangeRow = {
    id: s.ids.uuid(),
    modelId: m.id,
    state,
    planHash: diff.planHash,
    baseVersion: m.version,
    resultVersion: null,
    plan: JSON.stringify(plan),
    counts: counts ? JSON.stringify(counts) : null,
    cursorCreatedAt: null,
    cursorId: null,
    total: 0,
    done: 0,
    error: null,
    createdBy: actorString(p),
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
  };
  h.db.insert(fieldChanges).values(row).run();
  return row;
}

/** Reads `decisions: [{ opId, choice, onFailure? }]`: exactly one allowed decision per op. */
function readDecisions(ops: Op[], raw: unknown): Record<string, Decision> {
  if (!Array.isArray(raw)) badField("decisions", "decisions must be a list of { opId, choice, onFailure? }, one per op of the plan");
  const out: Record<string, Decision> = {};
  raw.forEach((d, i) => {
    const at = `decisions[${i}]`;
    if (d === null || typeof d !== "object" || Array.isArray(d)) badField(at, `${at} must be { opId, choice, onFailure? }`);
    const o = d as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!["opId", "choice", "onFailure"].includes(k)) badField(`${at}.${k}`, `${at}.${k} is not part of a decision`);
    const op = ops.find((x) => x.id === o.opId);
    if (!op) badField(`${at}.opId`, `${at}.opId is not an op of this plan`);
    if (out[op.id]) badField(`${at}.opId`, `${at}.opId is decided twice`);
    if (!op.choices.includes(o.choice as Op["choices"][number])) badField(`${at}.choice`, `${at}.choice must be one of ${op.choices.join(", ")} for this op`);
    let onFailure: Decision["onFailure"] = null;
    if (o.choice === "convert" && op.kind === "change") {
      onFailure = (o.onFailure ?? "clear") as Decision["onFailure"];
      if (onFailure !== "clear" && onFailure !== "stop") badField(`${at}.onFailure`, `${at}.onFailure must be clear or stop`);
    } else if (o.onFailure !== undefined) {
      badField(`${at}.onFailure`, `${at}.onFailure is only for a convert decision on a change of type`);
    }
    out[op.id] = { choice: o.choice as Decision["choice"], onFailure };
  });
  const missing = ops.find((op) => !out[op.id]);
  if (missing) badField("decisions", `decisions has no decision for op ${missing.id} (field "${missing.namespace}")`);
  return out;
}

/** The fields that keep old values for keep_both decisions (ids reused when given). */
export function keepBothFields(
  s: Services,
  m: Model,
  ops: Op[],
  decisions: Record<string, Decision>,
  prev: Record<string, FieldDef> = {},
): Record<string, FieldDef> {
  const out: Record<string, FieldDef> = {};
  for (const op of ops) {
    if (decisions[op.id]?.choice !== "keep_both") continue;
    const before = m.fields.find((f) => f.id === op.fieldId)!;
    out[op.id] = {
      ...before,
      id: prev[op.id]?.id ?? s.ids.uuid(),
      namespace: op.keepBothNamespace!,
      required: false,
      label: `${before.label ?? before.namespace} (old)`.slice(0, 200),
    };
  }
  return out;
}

/** The model's fields once the change moves it: the diff's fields, then the keep_both copies. */
export function targetOf(diff: Pick<Diff, "fields" | "ops">, keepBoth: Record<string, FieldDef>): FieldDef[] {
  return [...diff.fields, ...diff.ops.filter((o) => keepBoth[o.id]).map((o) => keepBoth[o.id]!)];
}

/** The newest planned (not yet applied) change of a model with this plan hash. */
function plannedWith(h: ProjectHandle, modelId: string, planHash: string): FieldChangeRow | undefined {
  return h.db
    .select()
    .from(fieldChanges)
    .where(and(eq(fieldChanges.modelId, modelId), eq(fieldChanges.state, "planned"), eq(fieldChanges.planHash, planHash)))
    .orderBy(desc(fieldChanges.createdAt))
    .get();
}

/** The change of a model in progress (queued, converting or moving), if any. */
export function activeChange(h: ProjectHandle, modelId: string): FieldChangeRow | undefined {
  return h.db
    .select()
    .from(fieldChanges)
    .where(and(eq(fieldChanges.modelId, modelId), inArray(fieldChanges.state, [...ACTIVE])))
    .orderBy(desc(fieldChanges.createdAt))
    .get();
}

/**
 * `POST /v2/models/:id/field-changes { planHash, editFields, removeIds, decisions }`: queues the
 * change. A planned change with the same hash (a plan counted in the background) is the one queued.
 */
export function applyChange(s: Services, h: ProjectHandle, p: Principal, ref: string, body: Record<string, unknown>, prefix: string) {
  const m = modelOrFail(h, ref, "id");
  if (typeof body.planHash !== "string" || body.planHash.length === 0)
    badField("planHash", "planHash is required: make a plan first with POST .../field-changes/plan");
  const diff = readDiff(s, h, m, body, ["planHash", "decisions"]);
  if (diff.planHash !== body.planHash) {
    fail("plan_stale", { message: "The model changed since the plan was made, or this change differs from the planned one; make a new plan." });
  }
  const decisions = readDecisions(diff.ops, body.decisions);
  const busy = activeChange(h, m.id);
  if (busy) fail("field_change_in_progress", { extra: { changeId: busy.id } });
  const keepBoth = keepBothFields(s, m, diff.ops, decisions);
  const applied = { decisions, keepBoth, targetFields: targetOf(diff, keepBoth) };
  const planned = plannedWith(h, m.id, diff.planHash);
  let id: string;
  if (planned) {
    const plan = { ...planOf(planned), ...applied };
    h.db
      .update(fieldChanges)
      .set({
        state: "queued",
        plan: JSON.stringify(plan),
        createdBy: actorString(p),
        updatedAt: iso(s.clock.now()),
        total: 0,
        done: 0,
        cursorCreatedAt: null,
        cursorId: null,
      })
      .where(eq(fieldChanges.id, planned.id))
      .run();
    id = planned.id;
  } else {
    id = insertChange(s, h, p, m, diff, "queued", applied, null).id;
  }
  s.wake.fieldChanges.note(h.id);
  return changeRecord(h, changeOrFail(h, id), prefix);
}

/** A change of this project, or 404. */
export function changeOrFail(h: ProjectHandle, id: unknown): FieldChangeRow {
  const row = typeof id === "string" ? h.db.select().from(fieldChanges).where(eq(fieldChanges.id, id)).get() : undefined;
  if (!row) fail("not_found", { message: "No such field change.", extra: { field: "id" } });
  return row;
}

/** Drops what a change staged (all of it, or only some entries') and, unless kept, the failures listed for it. */
export function clearStaging(h: ProjectHandle, changeId: string, opts: { entryIds?: string[]; keepFailures?: boolean } = {}): void {
  const only = opts.entryIds ? " AND entry_id IN (SELECT value FROM json_each(?))" : "";
  const args = opts.entryIds ? [changeId, JSON.stringify(opts.entryIds)] : [changeId];
  const tables = ["field_change_rows", "field_change_versions", ...(opts.keepFailures ? [] : ["field_change_failures"])];
  for (const t of tables) h.sqlite.query(`DELETE FROM ${t} WHERE change_id = ?${only}`).run(...args);
}
