// Writing new actions: one pending action per target, all in one batch, each replacing (as
// cancelled, with replacedBy) the target's active action of the same kind, so a target never has
// two actions of one kind waiting. Runs inside the caller's unit of work.
import { and, eq, inArray, sql } from "drizzle-orm";
import { scheduledActions } from "../../storage/project/schema.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Target } from "./checks.ts";
import type { ActionRow } from "./queries.ts";
import type { Resolved } from "./resolve-time.ts";

/** Statuses that still act later and so count as a target's active action; `running` cannot be cancelled. */
const REPLACEABLE = sql`(${scheduledActions.status} = 'pending' OR (${scheduledActions.status} = 'failed' AND ${scheduledActions.nextAttemptAt} IS NOT NULL))`;

/**
 * Inserts one pending action per target in the caller's transaction, cancelling each target's
 * active action of the same kind (listed in `replaced`). `retryOf` (the failed original a retry replaces)
 * is left alone.
 */
export function insertActions(
  s: Services,
  h: ProjectHandle,
  actor: string,
  action: string,
  targets: Target[],
  versionId: string | null,
  when: { wallTime: string; timezone: string; resolved: Resolved },
  retryOf: string | null,
  /** The locales the action publishes or unpublishes (decisions.md 13), or null for the default. */
  locales: string[] | null = null,
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
      locales: locales === null ? null : JSON.stringify(locales),
      lastErrors: null,
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
