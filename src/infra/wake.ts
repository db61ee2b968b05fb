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
  constructor(private readonly projectIds: () => string[], private readonly nextDue: (projectId: string) => number | null) {}

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
    return [...this.due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]).map(([id]) => id);
  }

  /** Re-reads one project's next due time, after its work ran. */
  refresh(projectId: string): void {
    const at = this.nextDue(projectId);
    if (at === null) this.due.delete(projectId);
    else this.due.set(projectId, at);
  }

  /** Forgets a project (its file is gone). */
  forget(projectId: string): void {
    this.due.delete(projectId);
  }
}
