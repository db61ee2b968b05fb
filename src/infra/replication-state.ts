// What the replication supervisor reads of each file's WAL and of Litestream's shadow WAL: a
// signature (size and modification time), whether the shadow WAL caught up with it, whether a
// WAL restart is due and whether Litestream saw one; and the hand-over before a shard's child
// stops, which makes due restarts happen while it watches. (The settled files are in
// replication-settled.ts.)
import { Database } from "bun:sqlite";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { endianness } from "node:os";
import { applyPragmas } from "../storage/sqlite.ts";
import { closeHandle } from "../storage/pool.ts";
import { join } from "node:path";
import { metaDir } from "./litestream.ts";
import type { Logger } from "./log.ts";

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

/**
 * Whether the next write to a file will restart its WAL: its wal-index (the -shm file) says every
 * frame was checkpointed (nBackfill equals mxFrame), which Litestream's snapshot leaves behind. A
 * restart Litestream does not see (its child is down) makes its successor start a new generation.
 * Layout: the WAL-index header's mxFrame at byte 16, the checkpoint info's nBackfill at byte 96,
 * both in the machine's byte order (https://sqlite.org/walformat.html).
 */
export function restartPending(dataDir: string, rel: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(join(dataDir, `${rel}-shm`), "r");
    const buf = Buffer.alloc(100);
    if (readSync(fd, buf, 0, 100, 0) < 100) return false;
    const le = endianness() === "LE";
    const mxFrame = le ? buf.readUInt32LE(16) : buf.readUInt32BE(16);
    return mxFrame > 0 && (le ? buf.readUInt32LE(96) : buf.readUInt32BE(96)) === mxFrame;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Makes a pending WAL restart happen now, while the file's Litestream child runs and sees it: one
 * write that changes nothing (the schema's user version set to itself), on a connection opened as
 * Capa opens replicated files.
 */
export function restartNow(dataDir: string, rel: string): void {
  const db = new Database(join(dataDir, rel), { create: false });
  try {
    applyPragmas(db, { replicated: true });
    const v = db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
    db.exec(`PRAGMA user_version = ${Number(v)}`);
  } finally {
    closeHandle(db);
  }
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    return null;
  }
}

/**
 * Litestream's place in a file's WAL history as "<generation>/<index>", or null before it took the
 * file on. The shadow WAL gets a new index folder each time Litestream sees the WAL restart, so
 * a change of this value after a restart says the restart was seen (a file time cannot: the
 * restart and the shadow's last copy often fall in the same clock tick of the file system).
 */
export function shadowIndex(dataDir: string, rel: string): string | null {
  const meta = metaDir(join(dataDir, rel));
  try {
    const gen = readFileSync(join(meta, "generation"), "utf8").trim();
    if (!gen) return null;
    const names = readdirSync(join(meta, "generations", gen, "wal")).filter((n) => /^[0-9a-f]{8}$/.test(n));
    return `${gen}/${names.sort().at(-1) ?? ""}`;
  } catch {
    return null;
  }
}

/**
 * Brings forward the WAL restarts that are pending (restartPending) of files a running Litestream
 * child watches: otherwise the first write after that child stops would restart the WAL unseen.
 * Returns the files restarted, with their shadowIndex before the restart (waitRestartsSeen).
 */
export function restartPendingWals(dataDir: string, files: string[], log: Logger): Map<string, string | null> {
  const restarted = new Map<string, string | null>();
  for (const rel of files) {
    if (!restartPending(dataDir, rel)) continue;
    const before = shadowIndex(dataDir, rel);
    const header = walHeader(dataDir, rel);
    try {
      restartNow(dataDir, rel);
      // A reader holding an older snapshot (Litestream's own read transaction often does) makes
      // the write append instead: nothing restarted, nothing to wait for.
      if (walHeader(dataDir, rel) !== header) restarted.set(rel, before);
    } catch (e) {
      log.warn("replication: WAL restart failed", { file: rel, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return restarted;
}

/** The first 32 bytes of a file's WAL (its salts change at each restart), hex; "" without a WAL. */
function walHeader(dataDir: string, rel: string): string {
  let fd: number | null = null;
  try {
    fd = openSync(join(dataDir, `${rel}-wal`), "r");
    const buf = Buffer.alloc(32);
    return buf.subarray(0, readSync(fd, buf, 0, 32, 0)).toString("hex");
  } catch {
    return "";
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * What a shard does before its child is replaced, once the child has looked at its files: it makes
 * each due WAL restart happen and waits (at most `ms`) until the child has seen it, then waits
 * (at most `ms`) until the child has shipped every file's last write (`covered`). A restart left
 * due would otherwise be made by the first write while no child watches, and the next child would
 * start a new generation for that file.
 */
export async function handOver(dataDir: string, files: string[], ms: number, log: Logger, covered: (rel: string) => boolean): Promise<void> {
  await waitRestartsSeen(dataDir, restartPendingWals(dataDir, files, log), ms, log);
  await waitSynced(files, ms, log, covered);
}

/** Waits (at most `ms`) until the running child has seen each restart of restartPendingWals. */
async function waitRestartsSeen(dataDir: string, restarted: Map<string, string | null>, ms: number, log: Logger): Promise<void> {
  const until = performance.now() + ms;
  let pending = [...restarted].filter(([rel, before]) => shadowIndex(dataDir, rel) === before);
  while (pending.length > 0 && performance.now() < until) {
    await Bun.sleep(50);
    pending = pending.filter(([rel, before]) => shadowIndex(dataDir, rel) === before);
  }
  if (pending.length > 0) log.warn("litestream restarted before it saw a WAL restart", { files: pending.map(([rel]) => rel) });
}

/**
 * Waits (at most `ms`) until `covered` holds for each file: the running child has shipped (or at
 * least copied) the last write. Litestream 0.3's final sync at exit was seen to race its own
 * replica goroutine and to miss a WAL restart made just before; a child stopped with nothing left
 * to ship does neither.
 */
export async function waitSynced(files: string[], ms: number, log: Logger, covered: (rel: string) => boolean): Promise<void> {
  const until = performance.now() + ms;
  let pending = files.filter((rel) => !covered(rel));
  while (pending.length > 0 && performance.now() < until) {
    await Bun.sleep(50);
    pending = pending.filter((rel) => !covered(rel));
  }
  if (pending.length > 0) log.warn("litestream restarted before it synced", { files: pending.length });
}
