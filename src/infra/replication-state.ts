// What the replication supervisor remembers between passes and across restarts: per data file,
// a signature of its WAL (size and modification time), and the set of "settled" files, those whose
// every write is in the replica and that no Litestream child watches (see replication.ts).
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeConfig } from "./litestream.ts";

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
