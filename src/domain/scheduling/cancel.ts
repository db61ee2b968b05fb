// Cancelling actions, one or a batch's pending ones. A running action cannot be cancelled (its
// publish is already under way); the update's status condition decides, not an earlier read.
import { and, eq, inArray } from "drizzle-orm";
import { scheduledActions } from "../../storage/project/schema.ts";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actionRecord, actionRow, batchRows, countByStatus } from "./queries.ts";

/** `POST /v2/scheduled-actions/:id/cancel`: pending, failed and dead actions; a running one answers 409 already_running. */
export function cancelAction(s: Services, h: ProjectHandle, id: unknown) {
  const row = actionRow(h, id);
  const now = iso(s.clock.now());
  const changed = h.db
    .update(scheduledActions)
    .set({ status: "cancelled", nextAttemptAt: null, updatedAt: now, finishedAt: now })
    .where(and(eq(scheduledActions.id, row.id), inArray(scheduledActions.status, ["pending", "failed", "dead"])))
    .returning({ id: scheduledActions.id })
    .all().length;
  if (changed === 0) {
    const cur = actionRow(h, row.id);
    if (cur.status === "running") fail("already_running");
    fail("action_not_cancellable", { message: `A ${cur.status} action cannot be cancelled.`, extra: { status: cur.status } });
  }
  return actionRecord(actionRow(h, row.id));
}

/** `POST /v2/scheduled-actions/batch/:batchId/cancel`: cancels the batch's pending actions. */
export function cancelBatch(s: Services, h: ProjectHandle, batchId: unknown) {
  const rows = batchRows(h, batchId);
  const now = iso(s.clock.now());
  const cancelled = h.db
    .update(scheduledActions)
    .set({ status: "cancelled", updatedAt: now, finishedAt: now })
    .where(and(eq(scheduledActions.batchId, rows[0]!.batchId), eq(scheduledActions.status, "pending")))
    .returning({ id: scheduledActions.id })
    .all()
    .map((r) => r.id);
  const after = batchRows(h, rows[0]!.batchId);
  return { batchId: rows[0]!.batchId, cancelled, counts: countByStatus(after), actions: after.map(actionRecord) };
}
