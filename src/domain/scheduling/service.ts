// Scheduling publish and unpublish actions: create (one action per target, grouped by a batch),
// reschedule, cancel and retry, plus the project's default time zone. Each public function owns
// its transaction; the runner (runner.ts) moves actions on from `pending`.
import { and, eq, inArray, sql } from "drizzle-orm";
import { entries, entryVersions, scheduledActions } from "../../storage/project/schema.ts";
import { projects } from "../../storage/control/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { requireScope, type Principal } from "../access/principal.ts";
import { findModel } from "../models/catalog.ts";
import { isUuid } from "../models/fields.ts";
import { getProject } from "../projects/service.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { parseZone, resolveTime, type Resolved } from "./resolve-time.ts";
import { actionRecord, actionRow, batchRows, countByStatus, type ActionRow } from "./queries.ts";
import { write } from "../unit-of-work.ts";

/** Targets per request (interface.md, Limits: scheduled-action targets per request). */
export const MAX_TARGETS = 500;

type Target = { type: "instance" | "model"; id: string };

/** Statuses that still act later and so count as a target's active action; `running` cannot be cancelled. */
const REPLACEABLE = sql`(${scheduledActions.status} = 'pending' OR (${scheduledActions.status} = 'failed' AND ${scheduledActions.nextAttemptAt} IS NOT NULL))`;

function checkKeys(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) badField(k, `${k} is not a field of this request; send ${allowed.join(", ")}`);
}

function checkAction(v: unknown): "publish" | "unpublish" {
  if (v !== "publish" && v !== "unpublish") badField("action", "action must be publish or unpublish");
  return v;
}

/** Checks the target list: 1 to 500 distinct entries or models of this project. */
function checkTargets(h: ProjectHandle, v: unknown): Target[] {
  if (!Array.isArray(v) || v.length < 1 || v.length > MAX_TARGETS) {
    badField("targets", `targets must list 1 to ${MAX_TARGETS} items of { type, id }${Array.isArray(v) ? `; it lists ${v.length}` : ""}`);
  }
  const out: Target[] = [];
  const seen = new Set<string>();
  v.forEach((t: unknown, i) => {
    const path = `targets[${i}]`;
    if (t === null || typeof t !== "object" || Array.isArray(t)) badField(path, `${path} must be an object { type, id }`);
    const { type, id } = t as Record<string, unknown>;
    if (type !== "instance" && type !== "model") badField(`${path}.type`, `${path}.type must be instance (an entry) or model`);
    if (typeof id !== "string" || id.length === 0) badField(`${path}.id`, `${path}.id must be an entry id or a model id`);
    let resolved: string;
    if (type === "instance") {
      // Each project is its own file, so an entry of another project is simply not found here.
      const row = isUuid(id) ? (h.sqlite.query("SELECT id FROM entries WHERE id = ?").get(id.toLowerCase()) as { id: string } | null) : null;
      if (!row) badField(`${path}.id`, `${path}.id ${id} is not an entry of this project`);
      resolved = row.id;
    } else {
      const m = findModel(h, id);
      if (!m) badField(`${path}.id`, `${path}.id ${id} is not a model of this project`);
      resolved = m.id;
    }
    const k = `${type}:${resolved}`;
    if (seen.has(k)) badField(`${path}.id`, `${path} names ${id} a second time`);
    seen.add(k);
    out.push({ type, id: resolved });
  });
  return out;
}

/** The zone a request means: the one it sends, or the project's publishing time zone. */
function zoneOf(s: Services, projectId: string, v: unknown): unknown {
  if (v !== undefined && v !== null) return v;
  const dflt = getProject(s, projectId)?.timezone;
  if (!dflt) badField("timezone", "timezone is required: this project has no default publishing time zone");
  return dflt;
}

/**
 * Inserts one pending action per target in the caller's transaction, cancelling each target's
 * active action of the same kind (listed in `replaced`). `except` is left alone (a retried original).
 */
function insertActions(
  s: Services,
  h: ProjectHandle,
  actor: string,
  action: string,
  targets: Target[],
  versionId: string | null,
  when: { wallTime: string; timezone: string; resolved: Resolved },
  retryOf: string | null,
) {
  const now = iso(s.clock.now());
  const batchId = s.ids.uuid();
  const created: ActionRow[] = [];
  const replaced: string[] = [];
  for (const t of targets) {
    const id = s.ids.uuid();
    const old = h.db
      .select({ id: scheduledActions.id })
      .from(scheduledActions)
      .where(and(eq(scheduledActions.targetId, t.id), eq(scheduledActions.action, action), REPLACEABLE))
      .all()
      .map((r) => r.id)
      .filter((x) => x !== retryOf);
    if (old.length) {
      h.db
        .update(scheduledActions)
        .set({ status: "cancelled", replacedBy: id, nextAttemptAt: null, updatedAt: now, finishedAt: now })
        .where(inArray(scheduledActions.id, old))
        .run();
      replaced.push(...old);
    }
    const row: ActionRow = {
      id,
      batchId,
      action,
      targetType: t.type,
      targetId: t.id,
      versionId,
      wallTime: when.wallTime,
      timezone: when.timezone,
      runAt: when.resolved.at,
      offset: when.resolved.offset,
      note: when.resolved.note ?? null,
      status: "pending",
      attempts: 0,
      nextAttemptAt: null,
      claimedAt: null,
      claimToken: null,
      lastError: null,
      lastFailedAt: null,
      replaced: JSON.stringify(old),
      replacedBy: null,
      retryOf,
      createdAt: now,
      createdBy: actor,
      updatedAt: now,
      finishedAt: null,
    };
    h.db.insert(scheduledActions).values(row).run();
    created.push(row);
  }
  return { batchId, created, replaced };
}

/**
 * `POST /v2/scheduled-actions`: one pending action per target, all in one batch. A model target
 * (every entry of the model) also needs `model:publish`, which no key holds. Nothing is written
 * when any part of the request is refused.
 */
export function scheduleActions(s: Services, h: ProjectHandle, p: Principal, actor: string, body: Record<string, unknown>) {
  checkKeys(body, ["action", "targets", "wallTime", "timezone", "versionId"]);
  const action = checkAction(body.action);
  const targets = checkTargets(h, body.targets);
  if (targets.some((t) => t.type === "model")) requireScope(p, "model:publish");
  let versionId: string | null = null;
  if (body.versionId !== undefined && body.versionId !== null) {
    if (action !== "publish" || targets.length !== 1 || targets[0]!.type !== "instance") {
      badField("versionId", "versionId applies to publishing exactly one entry target");
    }
    if (!isUuid(body.versionId)) badField("versionId", "versionId must be a version id (UUID)");
    const v = h.db
      .select({ id: entryVersions.id })
      .from(entryVersions)
      .where(and(eq(entryVersions.id, body.versionId.toLowerCase()), eq(entryVersions.entryId, targets[0]!.id)))
      .get();
    if (!v) badField("versionId", "versionId is not a version of the target entry");
    versionId = v.id;
  }
  const when = resolveTime(body.wallTime, zoneOf(s, h.id, body.timezone), s.clock.now());
  const out = write(s, h, (tx) => {
    tx.afterCommit(() => s.wake.actions.note(h.id, Date.parse(when.at)));
    return insertActions(s, h, actor, action, targets, versionId, { ...when, resolved: when }, null);
  });
  const { wallTime: _w, timezone: _t, ...resolved } = when;
  return { batchId: out.batchId, resolved, actions: out.created.map(actionRecord), replaced: out.replaced };
}

function rescheduleBody(body: Record<string, unknown>, zone: string, now: number) {
  checkKeys(body, ["wallTime", "timezone"]);
  const when = resolveTime(body.wallTime, body.timezone ?? zone, now);
  const { wallTime, timezone, ...resolved } = when;
  return { wallTime, timezone, resolved };
}

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
export function rescheduleAction(s: Services, h: ProjectHandle, id: unknown, body: Record<string, unknown>) {
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
export function rescheduleBatch(s: Services, h: ProjectHandle, batchId: unknown, body: Record<string, unknown>) {
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

/**
 * `POST /v2/scheduled-actions/:id/retry`: a failed or dead action is tried again as a new action
 * (the original keeps its status; its own automatic retries stop). The new action runs at the
 * next runner tick, or at `wallTime` when one is sent.
 */
export function retryAction(s: Services, h: ProjectHandle, p: Principal, actor: string, id: unknown, body: Record<string, unknown>) {
  checkKeys(body, ["wallTime", "timezone"]);
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
    if (row.targetType === "instance" && !h.db.select({ id: entries.id }).from(entries).where(eq(entries.id, row.targetId)).get()) {
      badField("id", "The action's entry no longer exists");
    }
    return insertActions(s, h, actor, row.action, [{ type: row.targetType as Target["type"], id: row.targetId }], row.versionId, when, row.id);
  });
  return { batchId: out.batchId, resolved: when.resolved, actions: out.created.map(actionRecord), replaced: out.replaced };
}

/** `PUT /v2/scheduled-actions/defaults`: sets (or clears with null) the project's publishing time zone. */
export function setDefaults(s: Services, projectId: string, body: Record<string, unknown>) {
  checkKeys(body, ["timezone"]);
  if (!("timezone" in body)) badField("timezone", "timezone is required (an IANA zone name, or null to clear it)");
  const zone = body.timezone === null ? null : parseZone(body.timezone);
  s.control.db
    .update(projects)
    .set({ timezone: zone, updatedAt: iso(s.clock.now()) })
    .where(eq(projects.id, projectId))
    .run();
  return { timezone: zone };
}
