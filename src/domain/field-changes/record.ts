// A field change as stored (its row, and the `plan` and `counts` columns it holds as JSON) and
// as every route answers it: the record with the ops, their decisions, the counts and progress.
// Plan, apply, the lifecycle and the runner all read changes through these.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { fieldChanges, fieldChangeFailures } from "../../storage/project/schema.ts";
import { fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actorFrom } from "../events/outbox.ts";
import { allModels } from "../models/catalog.ts";
import type { FieldDef } from "../models/fields.ts";
import type { Op } from "./diff.ts";
import { countedOps, type OpCounts } from "./plan.ts";
import type { Decision } from "./stage.ts";

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

/** The change of a model in progress (queued, converting or moving), if any. */
export function activeChange(h: ProjectHandle, modelId: string): FieldChangeRow | undefined {
  return h.db
    .select()
    .from(fieldChanges)
    .where(and(eq(fieldChanges.modelId, modelId), inArray(fieldChanges.state, [...ACTIVE])))
    .orderBy(desc(fieldChanges.createdAt))
    .get();
}

/** A change of this project, or 404. */
export function changeOrFail(h: ProjectHandle, id: unknown): FieldChangeRow {
  const row = typeof id === "string" ? h.db.select().from(fieldChanges).where(eq(fieldChanges.id, id)).get() : undefined;
  if (!row) fail("not_found", { message: "No such field change.", extra: { field: "id" } });
  return row;
}
