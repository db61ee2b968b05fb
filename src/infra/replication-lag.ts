// An estimate of how far a file replica is behind, from file times alone (no Litestream API).
//
// Litestream copies each database's WAL into a shadow WAL beside it (`.<file>-litestream`) and
// then ships the shadow WAL to the replica as segment files. A write is in the replica once the
// shadow WAL is newer than it and the replica's newest segment is newer than that shadow write.
// So per file: covered = min(shadow WAL time, replica segment time); the file is behind when its
// WAL was written after `covered`. The lag is the age of the oldest write seen behind and not
// yet covered, measured on each call; it is 0 when every file is covered. Times come from the
// file system, so the estimate is good to about one Litestream sync (1 s), which is what it is for:
// telling "caught up" from "stuck".
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileReplicaDir, metaDir } from "./litestream.ts";

function mtime(path: string): number | null {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    // ENOTDIR, EACCES: a replica path that is not what Litestream made is a replica not caught up.
    return null;
  }
}

function newest(dir: string): number | null {
  let best: number | null = null;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  for (const n of names) {
    const t = mtime(join(dir, n));
    if (t !== null && (best === null || t > best)) best = t;
  }
  return best;
}

export class LagMeter {
  /** Per file: the time of the oldest write seen behind the replica. */
  private readonly pending = new Map<string, number>();
  /** Per file: the WAL time last seen covered, so an unchanged file costs one stat. */
  private readonly covered = new Map<string, number>();
  private last: { at: number; value: number } | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly replicaUrl: string,
  ) {}

  /** Seconds the replica is behind for these files (relative paths), at `now` (wall clock, ms). */
  measure(files: string[], now: number): number {
    // Health checks and scrapes may come together; one pass of stats serves both.
    if (this.last && now - this.last.at < 200) return this.last.value;
    let worst = 0;
    const seen = new Set<string>();
    for (const rel of files) {
      seen.add(rel);
      const behind = this.behindSince(rel);
      if (behind !== null) worst = Math.max(worst, now - behind);
    }
    for (const k of this.pending.keys()) if (!seen.has(k)) this.pending.delete(k);
    for (const k of this.covered.keys()) if (!seen.has(k)) this.covered.delete(k);
    const value = Math.max(0, Math.round(worst) / 1000);
    this.last = { at: now, value };
    return value;
  }

  /** The time of the oldest write of one file not yet in the replica, or null when it is covered. */
  private behindSince(rel: string): number | null {
    const db = join(this.dataDir, rel);
    const wal = mtime(`${db}-wal`);
    if (wal === null) {
      // No WAL: nothing written since the last checkpoint that Litestream has not seen.
      this.pending.delete(rel);
      return null;
    }
    if (this.covered.get(rel) === wal) return null;
    const meta = metaDir(db);
    let gen: string | null = null;
    try {
      gen = readFileSync(join(meta, "generation"), "utf8").trim() || null;
    } catch {
      gen = null;
    }
    let covered = -Infinity;
    const replica = fileReplicaDir(this.replicaUrl, rel);
    if (gen && replica) {
      const shadow = newest(join(meta, "generations", gen, "wal"));
      // The replica's WAL folder changes when a segment is renamed into place, after its bytes are
      // written. (The snapshots folder changes when a snapshot starts, so it says nothing.)
      const shipped = mtime(join(replica, "generations", gen, "wal"));
      if (shadow !== null && shipped !== null) covered = Math.min(shadow, shipped);
    }
    if (wal <= covered) {
      this.pending.delete(rel);
      this.covered.set(rel, wal);
      return null;
    }
    this.covered.delete(rel);
    let since = this.pending.get(rel);
    // The write seen behind last time is in the replica now; the newest write is the one waiting.
    if (since === undefined || since <= covered) {
      since = wal;
      this.pending.set(rel, since);
    }
    return since;
  }
}
