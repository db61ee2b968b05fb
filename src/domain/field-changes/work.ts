// Which projects have field-change work, so the job that ticks every second opens only those
// files. The first run after start-up asks every project once (that is how a change queued or
// moving before a restart is found); after that, the routes that queue work note the project.
import { projects } from "../../storage/control/schema.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";

const tracked = new WeakMap<Services, Set<string>>();

/** Whether a project file holds a change to work on (being counted, queued, converting or moving). */
export function hasWork(h: ProjectHandle): boolean {
  return (
    h.sqlite
      .query(
        `SELECT 1 AS x FROM field_changes WHERE state IN ('queued', 'converting', 'moving')
       OR (state = 'planned' AND json_extract(counts, '$.ready') = 0) LIMIT 1`,
      )
      .get() !== null
  );
}

/** Notes that a project has work (after a plan, apply or resume). */
export function noteWork(s: Services, projectId: string): void {
  tracked.get(s)?.add(projectId);
}

/** The projects with work; the first call scans every project on disk. */
export function projectsWithWork(s: Services): Set<string> {
  let set = tracked.get(s);
  if (!set) {
    set = new Set();
    for (const { id } of s.control.db.select({ id: projects.id }).from(projects).all()) {
      if (s.projects.exists(id) && hasWork(s.projects.get(id))) set.add(id);
    }
    tracked.set(s, set);
  }
  return set;
}
