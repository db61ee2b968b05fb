// `capa restore`: every SQLite file of a data directory back from the Litestream replica. The
// control file comes first; the projects it lists name the project files to fetch, so a project
// deleted before the backup point is not brought back. Files are restored into a staging folder
// inside the (empty) data directory and moved into place only when all of them restored and
// passed SQLite's quick_check, so a failed restore leaves the directory empty again.
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CONTROL_FILE, projectFile, projectIds } from "../storage/files.ts";
import { configYaml, lineMessage, runLitestream, writeConfig, type ReplicaSettings } from "./litestream.ts";
import { DIR_MODE, FILE_MODE, privateDir } from "../storage/permissions.ts";
import { KEY_FILE } from "./secret-box.ts";

/** A restore that cannot go on; the message is one line for the operator. */
export class RestoreError extends Error {}

export interface RestoreResult {
  /** Files restored, relative to the data directory. */
  files: string[];
  /** Projects listed in the control file that had no replica (created just before the backup point). */
  missing: string[];
  ms: number;
}

/** Project files fetched at once; each is one Litestream process. */
const PARALLEL = 4;

/** Refuses a data directory that holds anything but the key file. A missing one is created 0700, an empty one made 0700. */
function checkEmpty(dataDir: string): void {
  if (!existsSync(dataDir)) {
    privateDir(dataDir);
    return;
  }
  let entries: string[];
  try {
    entries = readdirSync(dataDir);
  } catch (e) {
    throw new RestoreError(`cannot read the data directory ${dataDir}: ${(e as Error).message}`);
  }
  // The key file is backed up apart from the replica and goes back first (docs/backup.md).
  entries = entries.filter((name) => name !== KEY_FILE);
  if (entries.length > 0) {
    throw new RestoreError(`the data directory ${dataDir} is not empty (${entries.length} entries); restore only into an empty directory`);
  }
  // An empty folder the operator made is about to hold everything: it is for Capa's user only.
  chmodSync(dataDir, DIR_MODE);
}

/** Restores one file from its replica to `out`; false when the replica holds no backup of it. */
async function restoreFile(config: string, dataDir: string, rel: string, out: string, required: boolean): Promise<boolean> {
  privateDir(dirname(out));
  const args = ["restore", "-config", config, "-no-expand-env", "-o", out];
  if (!required) args.push("-if-replica-exists");
  args.push(join(dataDir, rel));
  const r = await runLitestream(args);
  if (r.code !== 0) {
    const last = r.output.split("\n").filter(Boolean).pop() ?? `exit code ${r.code}`;
    if (/no (matching )?backups? found|no snapshots available|no generation/i.test(r.output)) {
      if (required) throw new RestoreError(`the replica holds no backup of ${rel}`);
      return false;
    }
    throw new RestoreError(`restoring ${rel} failed: ${lineMessage(last)}`);
  }
  // Litestream 0.3 leaves the -shm and -wal of its temporary file beside the result.
  for (const suffix of [".tmp-shm", ".tmp-wal"]) rmSync(out + suffix, { force: true });
  if (!existsSync(out)) return false;
  // Whatever mode Litestream gave it, a restored file is for Capa's user only, like a new one.
  chmodSync(out, FILE_MODE);
  return true;
}

/**
 * Opens a restored file and runs quick_check. Read-write on purpose: a read-only connection to a
 * WAL file leaves its -shm and -wal behind, while the last read-write connection removes them.
 */
function check(path: string, rel: string): void {
  let db: Database | null = null;
  try {
    db = new Database(path, { readwrite: true, create: false });
    const row = db.query<{ quick_check: string }, []>("PRAGMA quick_check").get();
    if (row?.quick_check !== "ok") throw new Error(row?.quick_check ?? "no answer");
  } catch (e) {
    throw new RestoreError(`the restored ${rel} failed its integrity check: ${(e as Error).message}`);
  } finally {
    db?.close();
  }
}

/** Restores control.sqlite and every project file it lists into an empty data directory. */
export async function restoreAll(replica: ReplicaSettings, dataDir: string): Promise<RestoreResult> {
  const started = performance.now();
  checkEmpty(dataDir);
  const staging = join(dataDir, ".restore");
  const confDir = mkdtempSync(join(tmpdir(), "capa-restore-"));
  const config = join(confDir, "litestream.yml");
  try {
    // The configuration names each file by its final path; -o sends it to the staging folder.
    writeConfig(config, configYaml(replica, dataDir, [CONTROL_FILE]));
    await restoreFile(config, dataDir, CONTROL_FILE, join(staging, CONTROL_FILE), true);
    check(join(staging, CONTROL_FILE), CONTROL_FILE);
    const control = new Database(join(staging, CONTROL_FILE), { readwrite: true, create: false });
    let ids: string[];
    try {
      ids = projectIds(control);
    } finally {
      control.close();
    }
    const projects = ids.map(projectFile);
    writeConfig(config, configYaml(replica, dataDir, [CONTROL_FILE, ...projects]));
    const restored = [CONTROL_FILE];
    const missing: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < projects.length) {
        const rel = projects[next++]!;
        const out = join(staging, rel);
        if (await restoreFile(config, dataDir, rel, out, false)) {
          check(out, rel);
          restored.push(rel);
        } else {
          missing.push(rel);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, projects.length) }, worker));
    // Everything restored and checked: move it into place.
    for (const name of readdirSync(staging)) renameSync(join(staging, name), join(dataDir, name));
    rmSync(staging, { recursive: true, force: true });
    return { files: restored.sort(), missing: missing.sort(), ms: Math.round(performance.now() - started) };
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e instanceof RestoreError ? e : new RestoreError(e instanceof Error ? e.message : String(e));
  } finally {
    rmSync(confDir, { recursive: true, force: true });
  }
}
