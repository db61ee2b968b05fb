// The runner: every second it claims the due actions of each project that has some and runs
// them. A claim flips `pending` to `running` with a fresh token in one write transaction, so two
// overlapping ticks (or two processes on one file) never both take an action; the publish and the
// move to `done` then commit together, and only while the claim is still the runner's own. A
// `running` action whose claim is older than five minutes was left by a process that stopped
// before its commit, so nothing of it was written: it is claimed and run again.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { entries, scheduledActions } from "../../storage/project/schema.ts";
import { AppError } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { write, type Tx } from "../unit-of-work.ts";
import { liveAsDrafted, publishEntry, unpublishEntry } from "../entries/publish.ts";
import { allModels } from "../models/catalog.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actionRecord, type ActionRow } from "./queries.ts";
import { STALE_CLAIM_MS } from "./wake.ts";
import { type Problem, validationErrors } from "../entries/validation.ts";

/** A failed action is tried again after these delays; the failure after the last one makes it dead. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000];

/** Actions claimed per round; a project with more due runs further rounds in the same tick. */
const CLAIM_LIMIT = 100;

/** Claims a project's due actions: pending ones whose time came, failed ones due a retry, abandoned running ones. */
export function claimDue(s: Services, h: ProjectHandle, now: number): ActionRow[] {
  const at = iso(now);
  const due = h.db
    .select({ id: scheduledActions.id })
    .from(scheduledActions)
    .where(sql`
    (${scheduledActions.status} = 'pending' AND ${scheduledActions.runAt} <= ${at})
    OR (${scheduledActions.status} = 'failed' AND ${scheduledActions.nextAttemptAt} <= ${at})
    OR (${scheduledActions.status} = 'running' AND ${scheduledActions.claimedAt} <= ${iso(now - STALE_CLAIM_MS)})`)
    .orderBy(scheduledActions.runAt, scheduledActions.id)
    .limit(CLAIM_LIMIT);
  return write(s, h, () =>
    h.db
      .update(scheduledActions)
      .set({
        status: "running",
        claimedAt: at,
        claimToken: s.ids.uuid(),
        attempts: sql`${scheduledActions.attempts} + 1`,
        nextAttemptAt: null,
        updatedAt: at,
      })
      .where(inArray(scheduledActions.id, due))
      .returning()
      .all(),
  );
}

/** Why an action failed: a sentence, and the rules its entries broke when publishing failed validation. */
interface Failure {
  message: string;
  /** `{ entryId, field, rule, message }` for each broken rule; null when no entry failed validation. */
  errors: (Problem & { entryId: string })[] | null;
}

/** Publishes or unpublishes what an action names; answers why when it could not. */
function perform(s: Services, h: ProjectHandle, a: ActionRow): Failure | null {
  const actor = `schedule:${a.id}`;
  const ids =
    a.targetType === "model"
      ? h.db
          .select({ id: entries.id })
          .from(entries)
          .where(and(eq(entries.modelId, a.targetId), isNull(entries.deletedAt)))
          .orderBy(entries.createdAt, entries.id)
          .all()
          .map((r) => r.id)
      : [a.targetId];
  if (a.targetType === "model" && !allModels(h).byId.has(a.targetId)) return { message: "The model no longer exists.", errors: null };
  const failed: string[] = [];
  let errors: Failure["errors"] = null;
  const locales = a.locales === null ? null : (JSON.parse(a.locales) as string[]);
  for (const id of ids) {
    const row = h.db.select().from(entries).where(eq(entries.id, id)).get();
    if (!row) {
      failed.push("The entry no longer exists.");
      continue;
    }
    try {
      const m = allModels(h).byId.get(row.modelId)!;
      if (a.action === "unpublish") unpublishEntry(s, h, actor, id, { scheduledActionId: a.id, locales });
      // A whole model publishes what is not live yet; one entry is published even when it is (its version may differ).
      else if (a.targetType === "instance" || !liveAsDrafted(h, m, row, locales))
        publishEntry(s, h, actor, id, a.versionId ?? undefined, { scheduledActionId: a.id, locales });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const broken = validationErrors(e);
      if (broken) errors = [...(errors ?? []), ...broken.map((p) => ({ entryId: id, ...p }))];
      failed.push(a.targetType === "model" ? `${id}: ${e.message}` : e.message);
    }
  }
  if (failed.length === 0) return null;
  if (a.targetType === "instance") return { message: failed[0]!, errors };
  return { message: `${failed.length} of ${ids.length} entries could not be ${a.action}ed; first: ${failed[0]}`, errors };
}

/**
 * Moves a claimed action to failed (with its next retry) or, after the last retry, to dead with a
 * `schedule.failed` event. A failure of validation is a failure like any other (an editor may fix
 * the entry before the retry), with the broken rules kept in `lastErrors`, so the failed action
 * and its event say what to fix.
 */
function recordFailure(s: Services, tx: Tx, a: ActionRow, failure: Failure, now: number): void {
  const h = tx.h;
  const at = iso(now);
  const mine = and(eq(scheduledActions.id, a.id), eq(scheduledActions.status, "running"), eq(scheduledActions.claimToken, a.claimToken!));
  const delay = RETRY_DELAYS_MS[a.attempts - 1];
  const lastErrors = failure.errors ? JSON.stringify(failure.errors) : null;
  if (delay !== undefined) {
    h.db
      .update(scheduledActions)
      .set({ status: "failed", nextAttemptAt: iso(now + delay), lastError: failure.message, lastErrors, lastFailedAt: at, claimToken: null, updatedAt: at })
      .where(mine)
      .run();
    return;
  }
  const dead = h.db
    .update(scheduledActions)
    .set({ status: "dead", nextAttemptAt: null, lastError: failure.message, lastErrors, lastFailedAt: at, claimToken: null, updatedAt: at, finishedAt: at })
    .where(mine)
    .returning()
    .get();
  if (dead) {
    tx.emit({
      type: "schedule.failed",
      actor: { kind: "schedule", id: a.id },
      data: actionRecord(dead),
      links: { self: `${s.config.apiUrl}/v2/agent/scheduled-actions/${a.id}` },
    });
  }
}

/** Runs one claimed action: the change and the move to done (or failed) commit together, only while the claim holds. */
export function runClaimed(s: Services, h: ProjectHandle, a: ActionRow, now: number): void {
  const mine = and(eq(scheduledActions.id, a.id), eq(scheduledActions.status, "running"), eq(scheduledActions.claimToken, a.claimToken!));
  try {
    // The publish inside joins this unit: its cache notice goes out after this commit.
    write(s, h, (tx) => {
      // Another runner re-claimed it (this one was too slow) or it was finished: leave it alone.
      if (!h.db.select({ id: scheduledActions.id }).from(scheduledActions).where(mine).get()) return;
      const failure: Failure | null =
        a.attempts > RETRY_DELAYS_MS.length + 1 ? { message: "The action was interrupted too often and was given up.", errors: null } : perform(s, h, a);
      if (failure !== null) {
        recordFailure(s, tx, a, failure, now);
        return;
      }
      const at = iso(now);
      h.db.update(scheduledActions).set({ status: "done", lastError: null, claimToken: null, updatedAt: at, finishedAt: at }).where(mine).run();
    });
  } catch (e) {
    // Not a refusal of the change but a fault (the database, a bug): nothing of the change was
    // written, so the action fails and retries like any other failure.
    s.log.error("scheduled action failed", { projectId: h.id, actionId: a.id, error: String(e instanceof Error ? e.stack : e) });
    write(s, h, (tx) => recordFailure(s, tx, a, { message: "Internal error.", errors: null }, now));
  }
}

/** Claims and runs every due action of one project; answers how many ran. */
export function runProjectActions(s: Services, h: ProjectHandle, now: number): number {
  let n = 0;
  for (;;) {
    const claimed = claimDue(s, h, now);
    for (const a of claimed) runClaimed(s, h, a, now);
    n += claimed.length;
    if (claimed.length < CLAIM_LIMIT) return n;
  }
}

/** The runner's body: every project with due actions, each project's failure logged and skipped. */
export function runDueActions(s: Services, now: number): number {
  return s.wake.actions.runDue(now, s, "scheduler", (projectId) => runProjectActions(s, s.projects.get(projectId), now));
}
