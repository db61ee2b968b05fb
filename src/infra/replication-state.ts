// What the replication supervisor remembers between passes and across restarts: per data file,
// a signature of its WAL (size and modification time), and the set of "settled" files, those whose
// every write is in the replica and that no Litestream child watches (see replication.ts).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { metaDir, writeConfig } from "./litestream.ts";

/**
 * A signature of a file's WAL: any write changes it (the WAL grows or is rewritten in place, and
 * its modification time moves). Capa and Litestream never delete the WAL of a replicated file
 * (see storage/sqlite.ts), so "none" only means the file was never opened in WAL mode.
 */
export function walSignature(dataDir: string, rel: string): string {
  try {
    const st = statSync(join(dataDir, `${rel}-wal`), { throwIfNoEntry: false });
    return st ? `${st.size}:${st.mtimeMs}` : "none";
  } catch {
    return "none";
  }
}

/**
 * Whether Litestream's shadow WAL of a file is at least as new as the file's WAL, i.e. its child has
 * copied the last write. A file Litestream never took on (no generation yet) has nothing pending.
 */
export function shadowCaughtUp(dataDir: string, rel: string): boolean {
  const db = join(dataDir, rel);
  const meta = metaDir(db);
  let gen: string;
  try {
    gen = readFileSync(join(meta, "generation"), "utf8").trim();
  } catch {
    return true;
  }
  const wal = mtimeOf(`${db}-wal`);
  if (!gen || wal === null) return true;
  let newest = -Infinity;
  const dir = join(meta, "generations", gen, "wal");
  try {
    for (const n of readdirSync(dir)) newest = Math.max(newest, mtimeOf(join(dir, n)) ?? -Infinity);
  } catch {
    return false;
  }
  return newest >= wal;
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    return null;
  }
}

/** The state file, beside the shards' configurations. */
export function stateFile(dataDir: string): string {
  return join(dataDir, "litestream", "settled.json");
}

/** The settled files recorded by the last run, with their WAL signatures when they settled. */
export function loadSettled(dataDir: string): Map<string, string> {
  const path = stateFile(dataDir);
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

/** Writes the settled files (atomically, like the configurations). */
export function saveSettled(dataDir: string, settled: Map<string, string>): void {
  const sorted = Object.fromEntries([...settled.entries()].sort(([a], [b]) => a.localeCompare(b)));
  writeConfig(stateFile(dataDir), `${JSON.stringify({ settled: sorted }, null, 1)}\n`);
}
