// Is a write in the replica yet? For a new project, two things must be there for `capa restore`
// to bring it back: a snapshot of its file in the generation Litestream now writes, and the
// control file's row naming the project (restore follows the projects table). A file replica is
// read directly; an S3 replica is asked with `litestream snapshots` and `litestream wal`. The
// supervisor asks the same of a shard's files before and after their child stops.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplicaDir, metaDir, runLitestream } from "./litestream.ts";
import { LagMeter } from "./replication-lag.ts";
import type { StopOutcome } from "./replication-shard.ts";
import { shadowCaughtUp } from "./replication-state.ts";
import { CONTROL_FILE } from "../storage/files.ts";

/** The generation Litestream now writes for a data file, or null before its first sync. */
export function currentGeneration(dataDir: string, rel: string): string | null {
  try {
    return readFileSync(join(metaDir(join(dataDir, rel)), "generation"), "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** Whether a file replica holds a finished snapshot of `rel` in its current generation. */
export function fileSnapshotReady(dataDir: string, replicaUrl: string, rel: string): boolean {
  const gen = currentGeneration(dataDir, rel);
  const dir = fileReplicaDir(replicaUrl, rel);
  if (!gen || !dir) return false;
  try {
    // Litestream writes a snapshot to a temporary name and renames it when complete.
    return readdirSync(join(dir, "generations", gen, "snapshots")).some((n) => n.endsWith(".snapshot.lz4"));
  } catch {
    return false;
  }
}

/** Whether every write of a file made so far is in a file replica. */
export function fileCovered(dataDir: string, replicaUrl: string, rel: string): boolean {
  // A fresh meter: its memory of earlier passes would only blur this one question.
  return new LagMeter(dataDir, replicaUrl).measure([rel], Date.now()) === 0;
}

/** Whether a running child has shipped a file's last write (file replicas) or copied it (S3). */
export function childCaughtUp(dataDir: string, replicaUrl: string, rel: string): boolean {
  return replicaUrl.startsWith("file:") ? fileCovered(dataDir, replicaUrl, rel) : shadowCaughtUp(dataDir, rel);
}

/**
 * Whether a file's every write is in the replica after its child stopped: a clean exit says so;
 * for a file replica the replica's own files can also tell (an exit with an error at the final
 * sync is often Litestream racing itself over a segment that did get written).
 */
export function inReplicaAfterStop(dataDir: string, replicaUrl: string, rel: string, outcome: StopOutcome): boolean {
  if (outcome === "clean") return true;
  return outcome === "exited" && replicaUrl.startsWith("file:") && fileCovered(dataDir, replicaUrl, rel);
}

/** Whether every write of the control file made so far is in a file replica. */
export function fileControlCovered(dataDir: string, replicaUrl: string): boolean {
  return fileCovered(dataDir, replicaUrl, CONTROL_FILE);
}

/** Whether `litestream snapshots` lists a snapshot of `rel` in its current generation (any replica type). */
export async function listedSnapshotReady(dataDir: string, config: string, rel: string): Promise<boolean> {
  const gen = currentGeneration(dataDir, rel);
  if (!gen) return false;
  const r = await runLitestream(["snapshots", "-config", config, "-no-expand-env", join(dataDir, rel)]);
  return r.code === 0 && r.output.split("\n").some((line) => line.split(/\s+/).includes(gen));
}

/**
 * Whether `litestream wal` lists a WAL segment of the control file's current generation created a
 * sync interval after `since` (ms). Litestream ships what its shadow WAL holds about once a second,
 * so a segment created a second after a write carries it; the listing's times are whole seconds,
 * hence the two-second margin.
 */
export async function listedControlSegmentSince(dataDir: string, config: string, since: number): Promise<boolean> {
  const gen = currentGeneration(dataDir, CONTROL_FILE);
  if (!gen) return false;
  const r = await runLitestream(["wal", "-config", config, "-no-expand-env", join(dataDir, CONTROL_FILE)]);
  if (r.code !== 0) return false;
  return r.output.split("\n").some((line) => {
    const cols = line.trim().split(/\s+/);
    const created = Date.parse(cols[cols.length - 1] ?? "");
    return cols.includes(gen) && Number.isFinite(created) && created >= since + 2_000;
  });
}

/**
 * Polls until the replica holds a new project (a snapshot of its file in the current generation,
 * and the control file's row for it) or `deadline` (ms) passes; true when it does. A file replica
 * is read directly (every 50 ms); any other is asked through Litestream (every 500 ms) with the
 * configuration of the file's shard (null while it has none) and of the control shard.
 */
export async function waitHeld(x: {
  dataDir: string;
  replicaUrl: string;
  rel: string;
  since: number;
  deadline: number;
  shardConfig: () => string | null;
  controlConfig: string;
}): Promise<boolean> {
  const file = x.replicaUrl.startsWith("file:");
  for (;;) {
    let held: boolean;
    if (file) held = fileSnapshotReady(x.dataDir, x.replicaUrl, x.rel) && fileControlCovered(x.dataDir, x.replicaUrl);
    else {
      const config = x.shardConfig();
      held = config !== null && (await listedSnapshotReady(x.dataDir, config, x.rel)) && (await listedControlSegmentSince(x.dataDir, x.controlConfig, x.since));
    }
    if (held) return true;
    if (Date.now() >= x.deadline) return false;
    await Bun.sleep(file ? 50 : 500);
  }
}
