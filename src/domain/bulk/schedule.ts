// Scheduling a selection (issue 27, "select all N that match"): the entries a bulk body names
// (service.ts `select`: ids, or a model with the list's where, q and status) each get one pending
// action, all in one batch at one resolved time, exactly as POST /v2/scheduled-actions makes them
// (scheduling/insert.ts: an entry's active action of the same kind is replaced). A dry run counts;
// `expectedCount` refuses a selection that moved. The batch is followed with
// GET /v2/scheduled-actions/batch/:batchId.
import type { Static } from "@sinclair/typebox";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { insertActions } from "../scheduling/insert.ts";
import { zoneOf } from "../scheduling/checks.ts";
import { resolveTime } from "../scheduling/resolve-time.ts";
import { write } from "../unit-of-work.ts";
import type { BulkScheduleBody } from "./bodies.ts";
import { select } from "./service.ts";
import { type EntryLocale, localesOf } from "../locales/entry-locale.ts";

/** `POST /v2/model-instances/bulk-schedule`. */
export function bulkSchedule(s: Services, h: ProjectHandle, actor: string, body: Static<typeof BulkScheduleBody>, loc?: EntryLocale) {
  const locales = localesOf(h, body.locales);
  const sel = select(h, body, loc);
  const count = sel.ids.length;
  // The time is checked before anything else is said, a dry run included: a bad time is the first thing to fix.
  const when = resolveTime(body.wallTime, zoneOf(s, h.id, body.timezone), s.clock.now());
  if (body.dryRun === true) return { dryRun: true as const, action: body.action, count, ids: sel.ids };
  if (body.expectedCount !== undefined && body.expectedCount !== count) {
    fail("selection_changed", {
      message: `The selection has ${count} entries, not the ${body.expectedCount} expected.`,
      extra: { expectedCount: body.expectedCount, count },
    });
  }
  if (count === 0) fail("nothing_selected", { message: "The selection holds no entries, so nothing was scheduled." });
  const targets = sel.ids.map((id) => ({ type: "instance" as const, id }));
  const out = write(s, h, (tx) => {
    tx.afterCommit(() => s.wake.actions.note(h.id, Date.parse(when.at)));
    return insertActions(s, h, actor, body.action, targets, null, { ...when, resolved: when }, null, locales);
  });
  const { wallTime: _w, timezone: _t, ...resolved } = when;
  return {
    action: body.action,
    count: out.created.length,
    batchId: out.batchId,
    resolved,
    replaced: out.replaced.length,
    batch: `/v2/scheduled-actions/batch/${out.batchId}`,
  };
}
