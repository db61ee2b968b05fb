// When each project next has a scheduled action to run: a pending action's time, a failed
// action's automatic retry, or the moment a `running` claim counts as abandoned.
import { projects } from "../../storage/control/schema.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";

/** A `running` action older than this was left by a process that stopped; it is claimed again. */
export const STALE_CLAIM_MS = 5 * 60_000;

/** The earliest moment a project's actions need the runner, or null. */
export function nextActionDue(h: ProjectHandle): number | null {
  const r = h.sqlite
    .query(
      `SELECT (SELECT min(run_at) FROM scheduled_actions WHERE status = 'pending') AS pending,
              (SELECT min(next_attempt_at) FROM scheduled_actions WHERE status = 'failed' AND next_attempt_at IS NOT NULL) AS retry,
              (SELECT min(claimed_at) FROM scheduled_actions WHERE status = 'running') AS running`,
    )
    .get() as { pending: string | null; retry: string | null; running: string | null };
  const times: number[] = [];
  if (r.pending !== null) times.push(Date.parse(r.pending));
  if (r.retry !== null) times.push(Date.parse(r.retry));
  // A running claim needs the runner only once it counts as abandoned.
  if (r.running !== null) times.push(Date.parse(r.running) + STALE_CLAIM_MS);
  return times.length ? Math.min(...times) : null;
}

/** Every project whose file exists: what a wake table scans once at start-up. */
export function projectsOnDisk(s: Services): string[] {
  return s.control.db
    .select({ id: projects.id })
    .from(projects)
    .all()
    .map((r) => r.id)
    .filter((id) => s.projects.exists(id));
}
