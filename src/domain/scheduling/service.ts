// Scheduling publish and unpublish actions: create (one action per target, grouped by a batch)
// and retry, plus the project's default time zone; reschedule.ts and cancel.ts change actions
// already made, checks.ts reads requests, insert.ts writes new actions. Each public function owns
// its transaction; the runner (runner.ts) moves actions on from `pending`.
import type { Static } from "@sinclair/typebox";
import { and, eq, isNull } from "drizzle-orm";
import { entries, entryVersions, scheduledActions } from "../../storage/project/schema.ts";
import { projects } from "../../storage/control/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { requireScope, type Principal } from "../access/principal.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { resolveTargets, zoneOf, type Target } from "./checks.ts";
import type { DefaultsBody, RetryBody, ScheduleBody } from "./bodies.ts";
import { insertActions } from "./insert.ts";
import { parseZone, resolveTime, type Resolved } from "./resolve-time.ts";
import { actionRecord, actionRow } from "./queries.ts";
import { write } from "../unit-of-work.ts";
import { localesOf } from "../locales/entry-locale.ts";

/**
 * `POST /v2/scheduled-actions`: one pending action per target, all in one batch. A model target
 * (every entry of the model) also needs `model:publish`, which no key holds. Nothing is written
 * when any part of the request is refused.
 */
export function scheduleActions(s: Services, h: ProjectHandle, p: Principal, actor: string, body: Static<typeof ScheduleBody>) {
  const action = body.action;
  const targets = resolveTargets(h, body.targets);
  if (targets.some((t) => t.type === "model")) requireScope(p, "model:publish");
  let versionId: string | null = null;
  if (body.versionId !== undefined && body.versionId !== null) {
    if (action !== "publish" || targets.length !== 1 || targets[0]!.type !== "instance") {
      badField("versionId", "versionId applies to publishing exactly one entry target");
    }
    const v = h.db
      .select({ id: entryVersions.id })
      .from(entryVersions)
      .where(and(eq(entryVersions.id, body.versionId.toLowerCase()), eq(entryVersions.entryId, targets[0]!.id)))
      .get();
    if (!v) badField("versionId", "versionId is not a version of the target entry");
    versionId = v.id;
  }
  const locales = localesOf(h, body.locales);
  const when = resolveTime(body.wallTime, zoneOf(s, h.id, body.timezone), s.clock.now());
  const out = write(s, h, (tx) => {
    tx.afterCommit(() => s.wake.actions.note(h.id, Date.parse(when.at)));
    return insertActions(s, h, actor, action, targets, versionId, { ...when, resolved: when }, null, locales);
  });
  const { wallTime: _w, timezone: _t, ...resolved } = when;
  return { batchId: out.batchId, resolved, actions: out.created.map(actionRecord), replaced: out.replaced };
}

/**
 * `POST /v2/scheduled-actions/:id/retry`: a failed or dead action is tried again as a new action
 * (the original keeps its status; its own automatic retries stop). The new action runs at the
 * next runner tick, or at `wallTime` when one is sent.
 */
export function retryAction(s: Services, h: ProjectHandle, p: Principal, actor: string, id: unknown, body: Static<typeof RetryBody>) {
  const row = actionRow(h, id);
  if (row.status !== "failed" && row.status !== "dead") {
    fail("action_not_retryable", { message: `Only failed or dead actions can be retried; this one is ${row.status}.`, extra: { status: row.status } });
  }
  if (row.targetType === "model") requireScope(p, "model:publish");
  const now = s.clock.now();
  let when: { wallTime: string; timezone: string; resolved: Resolved };
  if (body.wallTime !== undefined) {
    const r = resolveTime(body.wallTime, body.timezone ?? row.timezone, now);
    when = { wallTime: r.wallTime, timezone: r.timezone, resolved: { at: r.at, offset: r.offset, ...(r.note ? { note: r.note } : {}) } };
  } else {
    const zone = parseZone(row.timezone);
    const local = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone);
    when = { wallTime: local.toPlainDateTime().toString({ smallestUnit: "second" }), timezone: zone, resolved: { at: iso(now), offset: local.offset } };
  }
  const out = write(s, h, (tx) => {
    tx.afterCommit(() => s.wake.actions.note(h.id, Date.parse(when.resolved.at)));
    const cur = h.db.select({ status: scheduledActions.status }).from(scheduledActions).where(eq(scheduledActions.id, row.id)).get()!;
    if (cur.status !== "failed" && cur.status !== "dead")
      fail("action_not_retryable", { message: `Only failed or dead actions can be retried; this one is ${cur.status}.` });
    h.db.update(scheduledActions).set({ nextAttemptAt: null }).where(eq(scheduledActions.id, row.id)).run();
    if (
      row.targetType === "instance" &&
      !h.db
        .select({ id: entries.id })
        .from(entries)
        .where(and(eq(entries.id, row.targetId), isNull(entries.deletedAt)))
        .get()
    ) {
      badField("id", "The action's entry no longer exists");
    }
    const locales = row.locales === null ? null : (JSON.parse(row.locales) as string[]);
    return insertActions(s, h, actor, row.action, [{ type: row.targetType as Target["type"], id: row.targetId }], row.versionId, when, row.id, locales);
  });
  return { batchId: out.batchId, resolved: when.resolved, actions: out.created.map(actionRecord), replaced: out.replaced };
}

/** `PUT /v2/scheduled-actions/defaults`: sets (or clears with null) the project's publishing time zone. */
export function setDefaults(s: Services, projectId: string, body: Static<typeof DefaultsBody>) {
  const zone = body.timezone === null ? null : parseZone(body.timezone);
  s.control.db
    .update(projects)
    .set({ timezone: zone, updatedAt: iso(s.clock.now()) })
    .where(eq(projects.id, projectId))
    .run();
  return { timezone: zone };
}
