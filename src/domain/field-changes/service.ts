// Field changes (interface.md, Field change; decisions.md section 7): plan and apply (cancel,
// resume and history are in lifecycle.ts; the record every route answers with in record.ts). A
// plan writes nothing (a model with more than 1,000 entries is counted in the background and
// answered with a poll link). An applied change is queued and worked through by the
// `field-changes` job (runner.ts): converting stages every entry, moving swaps model and entries
// in one transaction. States: planned, queued, converting, moving, done, failed, cancelled.
import type { Static } from "@sinclair/typebox";
import type { ApplyBody, PlanBody } from "./bodies.ts";
import { and, desc, eq } from "drizzle-orm";
import { fieldChanges } from "../../storage/project/schema.ts";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Principal } from "../access/principal.ts";
import { modelOrFail, type Model } from "../models/catalog.ts";
import { COPIES_SQL, convertCtx } from "./copies.ts";
import { keepBothFields, readDecisions, targetOf } from "./decisions.ts";
import { readDiff, type Diff } from "./diff.ts";
import { countEntries, countedOps, emptyCounts } from "./plan.ts";
import { countRuleOps } from "./rule-ops.ts";
import { activeChange, changeOrFail, changeRecord, planOf, type FieldChangeRow, type StoredCounts, type StoredPlan } from "./record.ts";

/** A plan on more entries than this is counted in the background (decisions.md section 7). */
const PLAN_INLINE_MAX = 1000;

/** The actor string of a principal: `user:<id>` or `api_key:<id>`. */
function actorString(p: Principal): string {
  return p.kind === "user" ? `user:${p.userId}` : `api_key:${p.keyId}`;
}

function entryCount(h: ProjectHandle, modelId: string): number {
  return (h.sqlite.query("SELECT count(*) AS n FROM entries WHERE model_id = ?").get(modelId) as { n: number }).n;
}

/**
 * `POST /v2/models/:id/field-changes/plan`: what the change would do, writing nothing. Above
 * 1,000 entries the counting runs in the background: the answer is 202 with the planned change
 * and its poll link.
 */
export function planChange(s: Services, h: ProjectHandle, p: Principal, ref: string, body: Static<typeof PlanBody>, prefix: string) {
  const m = modelOrFail(h, ref, "id");
  const diff = readDiff(s, h, m, body);
  const n = entryCount(h, m.id);
  if (n > PLAN_INLINE_MAX) {
    // Asking again for the same plan answers the one already counting (or counted).
    const same = plannedWith(h, m.id, diff.planHash);
    if (same) return { status: 202, body: changeRecord(h, same, prefix) };
    const counts = emptyCounts(diff.ops);
    countRuleOps(h, m, diff.ops, diff.editFields, counts);
    const row = insertChange(s, h, p, m, diff, "planned", null, { ready: false, ops: counts });
    h.db.update(fieldChanges).set({ total: n }).where(eq(fieldChanges.id, row.id)).run();
    s.wake.fieldChanges.note(h.id);
    return { status: 202, body: changeRecord(h, { ...row, total: n }, prefix) };
  }
  const counts = emptyCounts(diff.ops);
  const rows = h.sqlite.query(`${COPIES_SQL} WHERE model_id = ?`).all(m.id) as Parameters<typeof countEntries>[1];
  countEntries(convertCtx(h, m, diff.ops, diff.editFields), rows, counts);
  countRuleOps(h, m, diff.ops, diff.editFields, counts);
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

/** The newest planned (not yet applied) change of a model with this plan hash. */
function plannedWith(h: ProjectHandle, modelId: string, planHash: string): FieldChangeRow | undefined {
  return h.db
    .select()
    .from(fieldChanges)
    .where(and(eq(fieldChanges.modelId, modelId), eq(fieldChanges.state, "planned"), eq(fieldChanges.planHash, planHash)))
    .orderBy(desc(fieldChanges.createdAt))
    .get();
}

/**
 * `POST /v2/models/:id/field-changes { planHash, editFields, removeIds, decisions }`: queues the
 * change. A planned change with the same hash (a plan counted in the background) is the one queued.
 */
export function applyChange(s: Services, h: ProjectHandle, p: Principal, ref: string, body: Static<typeof ApplyBody>, prefix: string) {
  const m = modelOrFail(h, ref, "id");
  const diff = readDiff(s, h, m, body);
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
