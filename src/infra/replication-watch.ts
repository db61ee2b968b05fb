// Which project files the shards are to watch (the supervisor, replication.ts, starts and restarts
// the shards to match): each watched file's shard and when its WAL last changed, and the files let
// go by a shard whose restart, and so the final sync that carries their last write, is still to
// come. Kept apart from the supervisor so that the rules on top of it (idle, the bound on watched
// files in replication-quiet.ts) read as decisions over a plain list.
import type { WatchedFile } from "./replication-quiet.ts";
import { walSignature } from "./replication-state.ts";

/** Whether a shard's running child watches a file now. */
export type ChildWatches = (rel: string, shard: string) => boolean;

export class WatchList {
  /** Watched project files and the shard each belongs in. */
  private readonly assigned = new Map<string, string>();
  /** Files let go by a shard whose restart is pending, with their WAL signature at that moment. */
  private readonly leaving = new Map<string, { shard: string; sig: string }>();
  /** Per watched file: the WAL signature last seen and when it last changed. */
  private readonly activity = new Map<string, { sig: string; at: number }>();

  constructor(private readonly dataDir: string) {}

  /** Project files the shards are to watch (files on their way out not counted). */
  get size(): number {
    return this.assigned.size;
  }

  /** The watched files. */
  rels(): string[] {
    return [...this.assigned.keys()];
  }

  /** Whether a file is watched or on its way out: a shard holds it either way. */
  holds(rel: string): boolean {
    return this.assigned.has(rel) || this.leaving.has(rel);
  }

  shardOf(rel: string): string | undefined {
    return this.assigned.get(rel);
  }

  /** Watched files per shard. */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const s of this.assigned.values()) out.set(s, (out.get(s) ?? 0) + 1);
    return out;
  }

  /** The files a shard should watch now, sorted as its configuration lists them. */
  desired(name: string): string[] {
    const out: string[] = [];
    for (const [rel, s] of this.assigned) if (s === name) out.push(rel);
    return out.sort();
  }

  /** Puts a file on a shard's list; it counts as written now. */
  add(rel: string, shard: string, now: number): void {
    this.assigned.set(rel, shard);
    this.activity.set(rel, { sig: walSignature(this.dataDir, rel), at: now });
  }

  /** Forgets files that are gone (deleted projects). */
  keepOnly(present: Set<string>): void {
    for (const rel of [...this.assigned.keys()]) if (!present.has(rel)) this.assigned.delete(rel);
    for (const rel of [...this.leaving.keys()]) if (!present.has(rel)) this.leaving.delete(rel);
  }

  /** Reads each watched file's WAL signature: one that moved since the last look was written now. */
  observe(now: number): void {
    for (const rel of this.assigned.keys()) {
      const sig = walSignature(this.dataDir, rel);
      if (this.activity.get(rel)?.sig !== sig) this.activity.set(rel, { sig, at: now });
    }
  }

  /** The watched files with their last write, as of the last observe. */
  files(childWatches: ChildWatches): WatchedFile[] {
    return [...this.assigned].flatMap(([rel, shard]) => {
      const seen = this.activity.get(rel);
      return seen ? [{ rel, sig: seen.sig, at: seen.at, watchedByChild: childWatches(rel, shard) }] : [];
    });
  }

  /** Takes a file off its shard's list; the shard's next restart syncs it (takeLeaving). */
  letGo(rel: string): void {
    const shard = this.assigned.get(rel);
    const seen = this.activity.get(rel);
    if (shard === undefined || !seen) return;
    this.assigned.delete(rel);
    this.activity.delete(rel);
    this.leaving.set(rel, { shard, sig: seen.sig });
  }

  /** The files a shard let go, with their signature then, for its restart to settle (or watch again). */
  takeLeaving(shard: string): { rel: string; sig: string }[] {
    const out: { rel: string; sig: string }[] = [];
    for (const [rel, l] of [...this.leaving]) {
      if (l.shard !== shard) continue;
      this.leaving.delete(rel);
      out.push({ rel, sig: l.sig });
    }
    return out;
  }
}
