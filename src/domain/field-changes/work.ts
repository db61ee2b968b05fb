// Which projects have field-change work, so the job that ticks every second opens only those
// files. The first run after start-up asks every project once (that is how a change queued or
// moving before a restart is found); after that, the routes that queue work note the project.
import { projects } from "../../storage/control/schema.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";

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

/** The projects with field-change work, for one app; the first look scans every project on disk. */
export class FieldChangeWork {
  private set: Set<string> | null = null;
  /** `services` is called only after construction (the services hold this object). */
  constructor(private readonly services: () => Services) {}

  /** Notes that a project has work (after a plan, apply or resume). */
  note(projectId: string): void {
    this.set?.add(projectId);
  }

  /** The projects with work; the first call scans every project on disk. */
  projects(): Set<string> {
    if (!this.set) {
      const s = this.services();
      this.set = new Set();
      for (const { id } of s.control.db.select({ id: projects.id }).from(projects).all()) {
        if (s.projects.exists(id) && hasWork(s.projects.get(id))) this.set.add(id);
      }
    }
    return this.set;
  }
}
