// The settled files of replication (replication.ts): project files whose every write is in the
// replica and that no Litestream child watches, each with the signature of its WAL when it
// settled. A changed signature means the file was written since, and it needs a shard again. The
// set is kept across restarts in `<data dir>/litestream/settled.json`, so a start watches only
// the files written since the last run settled them.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { metaDir, writeConfig } from "./litestream.ts";
import { walSignature } from "./replication-state.ts";

/** The state file, beside the shards' configurations. */
export function stateFile(dataDir: string): string {
  return join(dataDir, "litestream", "settled.json");
}

export class SettledFiles {
  private readonly sigs = new Map<string, string>();

  constructor(private readonly dataDir: string) {}

  get size(): number {
    return this.sigs.size;
  }

  /**
   * At start: keeps the files the last run recorded whose WAL has not changed since, and returns
   * the others among `files` (written since, or never settled), which need a shard.
   */
  adopt(files: string[]): string[] {
    const recorded = this.load();
    const others: string[] = [];
    for (const rel of files) {
      const sig = recorded.get(rel);
      if (sig !== undefined && sig === walSignature(this.dataDir, rel)) this.sigs.set(rel, sig);
      else others.push(rel);
    }
    this.save();
    return others;
  }

  /** Forgets the settled files of deleted projects with their Litestream state (no child holds it); true when any went. */
  forgetMissing(present: Set<string>): boolean {
    let gone = false;
    for (const rel of [...this.sigs.keys()]) {
      if (present.has(rel)) continue;
      this.sigs.delete(rel);
      rmSync(metaDir(join(this.dataDir, rel)), { recursive: true, force: true });
      gone = true;
    }
    return gone;
  }

  has(rel: string): boolean {
    return this.sigs.has(rel);
  }

  /** A settled file written since it settled is settled no more; true when that is so. */
  wokenUp(rel: string): boolean {
    const sig = this.sigs.get(rel);
    if (sig === undefined || sig === walSignature(this.dataDir, rel)) return false;
    this.sigs.delete(rel);
    return true;
  }

  /** Records a file as settled with the WAL signature it had when its last write reached the replica. */
  set(rel: string, sig: string): void {
    this.sigs.set(rel, sig);
  }

  /** Writes the set (atomically, like the configurations). */
  save(): void {
    const sorted = Object.fromEntries([...this.sigs.entries()].sort(([a], [b]) => a.localeCompare(b)));
    writeConfig(stateFile(this.dataDir), `${JSON.stringify({ settled: sorted }, null, 1)}\n`);
  }

  /** The set the last run recorded. */
  private load(): Map<string, string> {
    const path = stateFile(this.dataDir);
    const out = new Map<string, string>();
    if (!existsSync(path)) return out;
    try {
      const data = JSON.parse(readFileSync(path, "utf8")) as { settled?: Record<string, string> };
      for (const [rel, sig] of Object.entries(data.settled ?? {})) if (typeof sig === "string") out.set(rel, sig);
    } catch {
      // A damaged state file only costs a watch of every file until they settle again.
    }
    return out;
  }
}
