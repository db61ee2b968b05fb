// Which projects have background work due, so a loop that ticks every second opens only the
// project files with something to do instead of every file of the server. The first tick after
// start-up asks every project once (that is how work written before a restart is found); after
// that, writers note new work and the loop re-reads a project's next due time after each run.

export class WakeTable {
  private readonly due = new Map<string, number>();
  private loaded = false;

  /**
   * `projectIds` lists every project on disk; `nextDue` answers when a project next has work
   * (epoch ms, or null for none).
   */
  constructor(
    private readonly projectIds: () => string[],
    private readonly nextDue: (projectId: string) => number | null,
  ) {}

  /** Records that a project has work due at `at` (epoch ms). */
  note(projectId: string, at: number): void {
    // Before the first scan there is nothing to update: the scan will find the work.
    if (!this.loaded) return;
    const cur = this.due.get(projectId);
    if (cur === undefined || at < cur) this.due.set(projectId, at);
  }

  /** The projects whose work is due at `now`, earliest first. */
  dueAt(now: number): string[] {
    if (!this.loaded) {
      for (const id of this.projectIds()) {
        const at = this.nextDue(id);
        if (at !== null) this.due.set(id, at);
      }
      this.loaded = true;
    }
    return [...this.due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .map(([id]) => id);
  }

  /** Re-reads one project's next due time, after its work ran. */
  refresh(projectId: string): void {
    const at = this.nextDue(projectId);
    if (at === null) this.due.delete(projectId);
    else this.due.set(projectId, at);
  }

  /**
   * Runs `work` for each project due at `now` and sums what it reports. A project whose file is
   * gone is forgotten; a project whose work throws is logged and skipped (the loop goes on); each
   * project's next due time is re-read after its run.
   */
  runDue(
    now: number,
    s: { projects: { exists(id: string): boolean }; log: { error(msg: string, f?: Record<string, unknown>): void } },
    what: string,
    work: (projectId: string) => number,
  ): number {
    let n = 0;
    for (const projectId of this.dueAt(now)) {
      if (!s.projects.exists(projectId)) {
        this.forget(projectId);
        continue;
      }
      try {
        n += work(projectId);
      } catch (e) {
        s.log.error(`${what} tick failed for a project`, { projectId, error: String(e instanceof Error ? e.stack : e) });
      } finally {
        this.refresh(projectId);
      }
    }
    return n;
  }

  /** Forgets a project (its file is gone). */
  forget(projectId: string): void {
    this.due.delete(projectId);
  }
}
