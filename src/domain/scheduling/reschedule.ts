// Moving pending actions to a new time, one or a whole batch. Only pending rows are touched: the
// runner may claim an action between the read and the update, and a claimed action keeps its time.
import { and, eq, inArray } from "drizzle-orm";
import { scheduledActions } from "../../storage/project/schema.ts";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Static } from "@sinclair/typebox";
import type { RescheduleBody } from "./bodies.ts";
import { actionRecord, actionRow, batchRows } from "./queries.ts";
import { resolveTime } from "./resolve-time.ts";

/** The new time of a reschedule: `wallTime` in the zone sent, or else in `zone`. */
function rescheduleBody(body: Static<typeof RescheduleBody>, zone: string, now: number) {
  const when = resolveTime(body.wallTime, body.timezone ?? zone, now);
  const { wallTime, timezone, ...resolved } = when;
  return { wallTime, timezone, resolved };
}

/** Sets the new time on those of `ids` still pending; returns how many it moved. */
function applyTime(s: Services, h: ProjectHandle, ids: string[], t: ReturnType<typeof rescheduleBody>): number {
  return h.db
    .update(scheduledActions)
    .set({
      wallTime: t.wallTime,
      timezone: t.timezone,
      runAt: t.resolved.at,
      offset: t.resolved.offset,
      note: t.resolved.note ?? null,
      updatedAt: iso(s.clock.now()),
    })
    .where(and(inArray(scheduledActions.id, ids), eq(scheduledActions.status, "pending")))
    .returning({ id: scheduledActions.id })
    .all().length;
}

/** `PATCH /v2/scheduled-actions/:id`: a new time for one pending action (its own zone unless one is sent). */
export function rescheduleAction(s: Services, h: ProjectHandle, id: unknown, body: Static<typeof RescheduleBody>) {
  const row = actionRow(h, id);
  if (row.status !== "pending")
    fail("action_not_pending", { message: `Only pending actions can be rescheduled; this one is ${row.status}.`, extra: { status: row.status } });
  const t = rescheduleBody(body, row.timezone, s.clock.now());
  // The runner may have claimed the action since it was read; the update only touches pending rows.
  if (applyTime(s, h, [row.id], t) === 0) fail("action_not_pending", { message: "The action started running; it can no longer be rescheduled." });
  s.wake.actions.note(h.id, Date.parse(t.resolved.at));
  return actionRecord(actionRow(h, row.id));
}

/** `PATCH /v2/scheduled-actions/batch/:batchId`: a new time for every pending action of a batch. */
export function rescheduleBatch(s: Services, h: ProjectHandle, batchId: unknown, body: Static<typeof RescheduleBody>) {
  const rows = batchRows(h, batchId);
  const pending = rows.filter((r) => r.status === "pending");
  if (pending.length === 0) fail("action_not_pending", { message: "This batch has no pending actions to reschedule." });
  const t = rescheduleBody(body, pending[0]!.timezone, s.clock.now());
  const ids = new Set(pending.map((r) => r.id));
  applyTime(s, h, [...ids], t);
  s.wake.actions.note(h.id, Date.parse(t.resolved.at));
  // An action the runner claimed in the meantime kept its time and is not listed.
  const moved = batchRows(h, rows[0]!.batchId).filter((r) => ids.has(r.id) && r.status === "pending");
  return { batchId: rows[0]!.batchId, resolved: t.resolved, actions: moved.map(actionRecord) };
}
