// The life of an applied field change after apply (interface.md, States and transitions: Field
// change): cancel until the model starts moving, resume a failed or cancelled change, the
// model's history newest first, the change in progress, and one change with its failed values.
import type { Static } from "@sinclair/typebox";
import type { ResumeBody } from "./bodies.ts";
import { desc, eq, sql } from "drizzle-orm";
import { fieldChanges, fieldChangeFailures } from "../../storage/project/schema.ts";
import { AppError, badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, modelOrFail } from "../models/catalog.ts";
import { readDiff, sameOps, type Diff } from "./diff.ts";
import { clearStaging } from "./copies.ts";
import { keepBothFields, targetOf } from "./decisions.ts";
import { activeChange, changeOrFail, changeRecord, planOf, type FieldChangeRow } from "./record.ts";
import { write } from "../unit-of-work.ts";

/** `POST /v2/field-changes/:id/cancel`: allowed until the model starts moving; what was staged is dropped. */
export function cancelChange(s: Services, h: ProjectHandle, id: string, prefix: string) {
  const row = changeOrFail(h, id);
  if (!["planned", "queued", "converting", "failed"].includes(row.state)) {
    const why = row.state === "moving" ? "the model is moving to its new shape" : `the change is ${row.state}`;
    fail("field_change_not_cancellable", { message: `This field change can no longer be cancelled: ${why}.`, extra: { state: row.state } });
  }
  const now = iso(s.clock.now());
  write(s, h, () => {
    clearStaging(h, row.id);
    h.db
      .update(fieldChanges)
      .set({ state: "cancelled", cursorCreatedAt: null, cursorId: null, done: 0, updatedAt: now, finishedAt: now })
      .where(eq(fieldChanges.id, row.id))
      .run();
  });
  return changeRecord(h, changeOrFail(h, row.id), prefix);
}

/**
 * `POST /v2/field-changes/:id/resume { onFailure? }`: a failed or cancelled change is queued
 * again. Entries whose values failed are converted afresh (they may have been fixed); a model
 * that changed meanwhile restarts the change when its ops are still the same, else `plan_stale`.
 */
export function resumeChange(s: Services, h: ProjectHandle, id: string, body: Static<typeof ResumeBody>, prefix: string) {
  const row = changeOrFail(h, id);
  if (row.state !== "failed" && row.state !== "cancelled") {
    fail("field_change_not_resumable", {
      message: `Only a failed or cancelled field change can be resumed; this one is ${row.state}.`,
      extra: { state: row.state },
    });
  }
  const m = allModels(h).byId.get(row.modelId);
  if (!m) fail("plan_stale", { message: "The model of this change was deleted." });
  let plan = planOf(row);
  if (!plan.decisions) fail("field_change_not_resumable", { message: "This change was never applied; apply its plan instead.", extra: { state: row.state } });
  if (body.onFailure !== undefined) {
    for (const op of plan.ops) if (plan.decisions[op.id]?.choice === "convert" && op.kind === "change") plan.decisions[op.id]!.onFailure = body.onFailure;
  }
  const patch: Partial<FieldChangeRow> = { state: "queued", error: null, finishedAt: null, updatedAt: iso(s.clock.now()) };
  let restart = row.state === "cancelled";
  if (m.version !== row.baseVersion) {
    let diff: Diff;
    try {
      diff = readDiff(s, h, m, { editFields: plan.editFields, removeIds: plan.removeIds });
    } catch (e) {
      if (e instanceof AppError)
        fail("plan_stale", { message: "The model changed since this change was planned, and the change no longer applies; make a new plan." });
      throw e;
    }
    if (!sameOps(diff.ops, plan.ops)) fail("plan_stale", { message: "The model changed since this change was planned; make a new plan." });
    const keepBoth = keepBothFields(s, m, diff.ops, plan.decisions, plan.keepBoth);
    plan = { ...plan, editFields: diff.editFields, ops: diff.ops, keepBoth, targetFields: targetOf(diff, keepBoth) };
    Object.assign(patch, { baseVersion: m.version, planHash: diff.planHash });
    restart = true;
  }
  patch.plan = JSON.stringify(plan);
  write(s, h, (tx) => {
    if (restart) {
      clearStaging(h, row.id);
      Object.assign(patch, { cursorCreatedAt: null, cursorId: null, done: 0 });
    } else {
      const failed = h.sqlite.query("SELECT DISTINCT entry_id AS id FROM field_change_failures WHERE change_id = ?").all(row.id) as { id: string }[];
      clearStaging(h, row.id, { entryIds: failed.map((f) => f.id) });
    }
    h.db.update(fieldChanges).set(patch).where(eq(fieldChanges.id, row.id)).run();
    tx.afterCommit(() => s.wake.fieldChanges.note(h.id));
  });
  return changeRecord(h, changeOrFail(h, row.id), prefix);
}

/** `GET /v2/models/:id/field-changes`: the model's changes, newest first, by page. */
export function listChanges(h: ProjectHandle, ref: string, q: { limit?: unknown; page?: unknown }, prefix: string) {
  const m = modelOrFail(h, ref, "id");
  const limit = q.limit === undefined ? 50 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) badField("limit", "limit must be a whole number from 1 to 200");
  const page = q.page === undefined ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1) badField("page", "page must be a whole number from 1");
  const where = eq(fieldChanges.modelId, m.id);
  const total = h.db.select({ n: sql<number>`count(*)` }).from(fieldChanges).where(where).get()!.n;
  const rows = h.db
    .select()
    .from(fieldChanges)
    .where(where)
    .orderBy(desc(fieldChanges.createdAt), desc(fieldChanges.id))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  return { data: rows.map((r) => changeRecord(h, r, prefix)), page, limit, total };
}

/** `GET /v2/models/:id/field-changes/current`: the change in progress, or null (204). */
export function currentChange(h: ProjectHandle, ref: string, prefix: string) {
  const m = modelOrFail(h, ref, "id");
  const row = activeChange(h, m.id);
  return row ? changeRecord(h, row, prefix) : null;
}

const FAILURES_PAGE = 1000;

/** `GET /v2/field-changes/:id`: one change with the values that failed to convert (1,000 a page). */
export function getChange(h: ProjectHandle, id: string, q: { failuresPage?: unknown }, prefix: string) {
  const row = changeOrFail(h, id);
  const page = q.failuresPage === undefined ? 1 : Number(q.failuresPage);
  if (!Number.isInteger(page) || page < 1) badField("failuresPage", "failuresPage must be a whole number from 1");
  const names = new Map<string, string>();
  for (const op of planOf(row).ops) names.set(op.fieldId, op.namespace);
  const rows = h.db
    .select()
    .from(fieldChangeFailures)
    .where(eq(fieldChangeFailures.changeId, row.id))
    .orderBy(fieldChangeFailures.entryId, fieldChangeFailures.fieldId, fieldChangeFailures.copy)
    .limit(FAILURES_PAGE)
    .offset((page - 1) * FAILURES_PAGE)
    .all();
  const record = changeRecord(h, row, prefix);
  return {
    ...record,
    failures: {
      total: record.progress.failed,
      page,
      limit: FAILURES_PAGE,
      data: rows.map((f) => ({
        entryId: f.entryId,
        fieldId: f.fieldId,
        namespace: names.get(f.fieldId) ?? null,
        copy: f.copy,
        value: JSON.parse(f.value),
        reason: f.reason,
      })),
    },
  };
}
