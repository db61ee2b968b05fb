// Which files hold purge rows, per target, so the purger opens only those: how many rows, the
// oldest one's time (the purge lag /healthz and /metrics show) and when the next falls due. The
// first look reads every file once (that is how rows written before a restart are found) and
// drops rows no purge can matter for any more; after that, commits note their rows and each call
// re-reads the files it settled.
import type { Services } from "../../services.ts";
import { projectsOnDisk } from "../scheduling/wake.ts";
import { CONTROL } from "./outbox.ts";
import { dropMoot, pendingOf, purgeFile, type Pending, type PurgeFile } from "./queue.ts";

const NONE: Pending = { rows: 0, oldestAt: Number.POSITIVE_INFINITY, dueAt: Number.POSITIVE_INFINITY };

export class PendingIndex {
  /** Per file (CONTROL or a project id), per target. Null until the first look. */
  private files: Map<string, Map<string, Pending>> | null = null;

  constructor(
    private readonly services: () => Services,
    private readonly targets: string[],
  ) {}

  private get s(): Services {
    return this.services();
  }

  /** Whether the first look has been taken. */
  get loaded(): boolean {
    return this.files !== null;
  }

  /** The first look: every file's pending rows, after dropping those older than `expiredBefore` or of unknown targets. */
  load(expiredBefore: number): void {
    if (this.files) return;
    this.files = new Map();
    for (const id of [CONTROL, ...projectsOnDisk(this.s)]) {
      const f = purgeFile(this.s, id);
      if (!f) continue;
      // Most files hold nothing: only one that holds a moot row is written to.
      const moot = [...pendingOf(f)].some(([target, p]) => !this.targets.includes(target) || p.oldestAt < expiredBefore);
      if (moot) this.dropMoot(f, expiredBefore);
      this.refresh(id);
    }
  }

  /** Drops a file's rows no purge can matter for any more, saying so in the log. */
  dropMoot(f: PurgeFile, expiredBefore: number): void {
    const dropped = dropMoot(f, this.targets, expiredBefore);
    if (dropped.unknown > 0) this.s.log.warn("edge purges of targets no longer in CAPA_EDGE_PURGE dropped", { file: f.id, rows: dropped.unknown });
    if (dropped.expired > 0)
      this.s.log.warn("edge purges older than CAPA_EDGE_TTL dropped: the edge has expired their answers", { file: f.id, rows: dropped.expired });
  }

  /** Notes a row per target just written into `fileId` at `now` (a commit's). */
  note(fileId: string, now: number): void {
    if (!this.files) return;
    const byTarget = this.files.get(fileId) ?? new Map<string, Pending>();
    for (const t of this.targets) {
      const p = byTarget.get(t) ?? NONE;
      byTarget.set(t, { rows: p.rows + 1, oldestAt: Math.min(p.oldestAt, now), dueAt: Math.min(p.dueAt, now) });
    }
    this.files.set(fileId, byTarget);
  }

  /** Re-reads what one file holds. */
  refresh(fileId: string): void {
    if (!this.files) return;
    const f = purgeFile(this.s, fileId);
    const pending = f ? pendingOf(f) : new Map<string, Pending>();
    if (pending.size === 0) this.files.delete(fileId);
    else this.files.set(fileId, pending);
  }

  /** What every file holds for a target, together. */
  of(target: string): Pending {
    let { rows, oldestAt, dueAt } = NONE;
    for (const byTarget of this.files?.values() ?? []) {
      const p = byTarget.get(target);
      if (!p) continue;
      rows += p.rows;
      oldestAt = Math.min(oldestAt, p.oldestAt);
      dueAt = Math.min(dueAt, p.dueAt);
    }
    return { rows, oldestAt, dueAt };
  }

  /** The files with a row of `target` due at `now`, the one with the oldest row first. */
  dueFiles(target: string, now: number): { id: string; pending: Pending }[] {
    return [...(this.files ?? [])]
      .map(([id, byTarget]) => ({ id, pending: byTarget.get(target) }))
      .filter((x): x is { id: string; pending: Pending } => x.pending !== undefined && x.pending.dueAt <= now)
      .sort((a, b) => a.pending.oldestAt - b.pending.oldestAt);
  }
}
