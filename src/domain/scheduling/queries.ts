// Reading scheduled actions: one action, the list with its filters, a batch with counts per
// status, the failures summary, an entry's upcoming actions and the project's defaults.
import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { scheduledActions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { actorFrom } from "../events/outbox.ts";
import { getProject } from "../projects/service.ts";
import { isUuid } from "../models/fields.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { showTargets } from "./targets.ts";

export type ActionRow = typeof scheduledActions.$inferSelect;
export const STATUSES = ["pending", "running", "done", "failed", "dead", "cancelled"] as const;
export type ActionStatus = (typeof STATUSES)[number];

/** The failures summary looks this far back (interface.md, Limits: failures summary window). */
export const FAILURE_WINDOW_MS = 7 * 24 * 3600_000;

/** An action as the API shows it (interface.md, Scheduled action). */
export function actionRecord(r: ActionRow) {
  const resolved: { at: string; offset: string; note?: string } = { at: r.runAt, offset: r.offset };
  if (r.note) resolved.note = r.note;
  return {
    id: r.id,
    action: r.action,
    // One action per target; the list form is the one interface.md names.
    targets: [{ type: r.targetType, id: r.targetId }],
    wallTime: r.wallTime,
    timezone: r.timezone,
    versionId: r.versionId,
    // Present only on an action that names its locales, so every other record keeps its shape.
    ...(r.locales === null ? {} : { locales: JSON.parse(r.locales) as string[] }),
    batchId: r.batchId,
    resolved,
    replaced: JSON.parse(r.replaced) as string[],
    replacedBy: r.replacedBy,
    status: r.status as ActionStatus,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt,
    lastError: r.lastError,
    // The rules the target broke when the last run failed validation (entries/validation.ts).
    lastErrors: r.lastErrors === null ? null : (JSON.parse(r.lastErrors) as unknown[]),
    lastFailedAt: r.lastFailedAt,
    retryOf: r.retryOf,
    createdAt: r.createdAt,
    createdBy: actorFrom(r.createdBy),
    updatedAt: r.updatedAt,
    finishedAt: r.finishedAt,
  };
}

/** The row of an action, or 404. */
export function actionRow(h: ProjectHandle, id: unknown): ActionRow {
  if (!isUuid(id)) fail("not_found", { message: "Scheduled action ids are UUIDs.", extra: { field: "id" } });
  const row = h.db.select().from(scheduledActions).where(eq(scheduledActions.id, id.toLowerCase())).get();
  if (!row) fail("not_found", { message: "No such scheduled action." });
  return row;
}

export function getAction(h: ProjectHandle, id: unknown) {
  return actionRecord(actionRow(h, id));
}

/** The rows of a batch, or 404 when it has none. */
export function batchRows(h: ProjectHandle, batchId: unknown): ActionRow[] {
  if (!isUuid(batchId)) fail("not_found", { message: "Batch ids are UUIDs.", extra: { field: "batchId" } });
  const rows = h.db.select().from(scheduledActions).where(eq(scheduledActions.batchId, batchId.toLowerCase())).orderBy(asc(scheduledActions.id)).all();
  if (rows.length === 0) fail("not_found", { message: "No such batch of scheduled actions." });
  return rows;
}

/** Counts per status, every status present. */
export function countByStatus(rows: Pick<ActionRow, "status">[]): Record<ActionStatus, number> {
  const counts = Object.fromEntries(STATUSES.map((st) => [st, 0])) as Record<ActionStatus, number>;
  for (const r of rows) counts[r.status as ActionStatus]++;
  return counts;
}

/** A batch with its actions and a count per status. */
export function getBatch(h: ProjectHandle, batchId: unknown) {
  const rows = batchRows(h, batchId);
  return { batchId: rows[0]!.batchId, total: rows.length, counts: countByStatus(rows), actions: rows.map(actionRecord) };
}

function instant(v: unknown, field: string): string {
  if (typeof v !== "string" || Number.isNaN(Date.parse(v)) || !/^\d{4}-\d{2}-\d{2}/.test(v)) {
    badField(field, `${field} must be an ISO 8601 date or instant, e.g. 2026-11-21T12:00:00Z`);
  }
  return iso(Date.parse(v));
}

function wholeNumber(v: unknown, field: string, min: number, max: number, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== "string" || !/^\d+$/.test(v) || n < min || n > max) badField(field, `${field} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * Lists actions by run time with the filters of interface.md (status, targetId, batchId, from, to,
 * order, page, limit); `expand=target` adds each action's target in words (`targets.ts`).
 */
export function listActions(h: ProjectHandle, q: Record<string, string | undefined>) {
  const conds: SQL[] = [];
  if (q.status !== undefined) {
    const list = q.status.split(",").map((x) => x.trim());
    for (const st of list)
      if (!(STATUSES as readonly string[]).includes(st)) badField("status", `status must be one or more of ${STATUSES.join(", ")}, comma-separated`);
    conds.push(inArray(scheduledActions.status, list));
  }
  if (q.targetId !== undefined) conds.push(eq(scheduledActions.targetId, q.targetId.toLowerCase()));
  if (q.batchId !== undefined) conds.push(eq(scheduledActions.batchId, q.batchId.toLowerCase()));
  if (q.from !== undefined) conds.push(gte(scheduledActions.runAt, instant(q.from, "from")));
  if (q.to !== undefined) conds.push(lte(scheduledActions.runAt, instant(q.to, "to")));
  const order = q.order ?? "asc";
  if (order !== "asc" && order !== "desc") badField("order", "order must be asc or desc (by run time)");
  const limit = wholeNumber(q.limit, "limit", 1, 200, 50);
  const page = wholeNumber(q.page, "page", 1, 1_000_000, 1);
  if (q.expand !== undefined && q.expand !== "target") badField("expand", "expand must be target (each action's target in words)");
  const where = conds.length ? and(...conds) : undefined;
  const dir = order === "asc" ? asc : desc;
  const total = h.db.select({ n: sql<number>`count(*)` }).from(scheduledActions).where(where).get()!.n;
  const rows = h.db
    .select()
    .from(scheduledActions)
    .where(where)
    .orderBy(dir(scheduledActions.runAt), dir(scheduledActions.id))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  if (q.expand !== "target") return { data: rows.map(actionRecord), page, limit, total };
  const shown = showTargets(h, rows);
  return { data: rows.map((r, i) => ({ ...actionRecord(r), target: shown[i]! })), page, limit, total };
}

/**
 * Actions that failed in the last 7 days and got no answer: still failed or dead, not cancelled
 * and not retried. `latest` is the one that failed last.
 */
export function failures(s: Services, h: ProjectHandle) {
  const since = iso(s.clock.now() - FAILURE_WINDOW_MS);
  const where = sql`${scheduledActions.status} IN ('failed', 'dead') AND ${scheduledActions.lastFailedAt} >= ${since}
    AND NOT EXISTS (SELECT 1 FROM scheduled_actions r WHERE r.retry_of = ${scheduledActions.id})`;
  const count = h.db.select({ n: sql<number>`count(*)` }).from(scheduledActions).where(where).get()!.n;
  const latest = h.db.select().from(scheduledActions).where(where).orderBy(desc(scheduledActions.lastFailedAt), desc(scheduledActions.id)).limit(1).get();
  return { count, since, latest: latest ? actionRecord(latest) : null };
}

/** An entry's pending and running actions, its own and those on its whole model, soonest first. */
export function entryActions(h: ProjectHandle, entry: { id: string; modelId: string }) {
  const rows = h.db
    .select()
    .from(scheduledActions)
    .where(
      and(
        inArray(scheduledActions.status, ["pending", "running"]),
        or(
          and(eq(scheduledActions.targetType, "instance"), eq(scheduledActions.targetId, entry.id)),
          and(eq(scheduledActions.targetType, "model"), eq(scheduledActions.targetId, entry.modelId)),
        ),
      ),
    )
    .orderBy(asc(scheduledActions.runAt), asc(scheduledActions.id))
    .all();
  return { data: rows.map(actionRecord) };
}

/**
 * The project's publishing time zone. It is kept on the project's control row (`projects.timezone`),
 * beside the project's other settings, so it needs no project file to read.
 */
export function defaults(s: Services, projectId: string) {
  return { timezone: getProject(s, projectId)?.timezone ?? null };
}
