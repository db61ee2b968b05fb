// What the replication supervisor (replication.ts) does with watched files that have gone quiet:
// it brings a due WAL restart forward while Litestream still watches, and it lets files go early
// when more are watched than the bound allows.
//
// The bound on files watched at once (CAPA_REPLICA_MAX_WATCHED). Litestream 0.3 keeps the memory
// of each file it watched, and of each busy spell, until its process restarts: 1 to 2 MB a
// written file on top of some 30 MB a process, and in a burst of creations every new project
// stays watched for the idle time (60 s) after its last write (517 MB for 201 files at once). Over the bound, the least recently written files that have been
// quiet for a short while leave their shards early, the same way idle files do (the shard's
// restart syncs them, then they settle), so the shards restart smaller. A file written in the
// last few seconds never leaves for the bound: when too few are quiet, the bound is exceeded and
// /healthz and /metrics show it, rather than a write left without a replicator.
import type { Logger } from "./log.ts";
import { restartPending, restartPendingWals, shadowCaughtUp, walSignature } from "./replication-state.ts";

/** How long a watched file stays unwritten before it counts as quiet: it may leave early for the bound, and a due WAL restart of it is brought forward. */
export const QUIET_MS = 5_000;

/** A watched project file, as the supervisor knows it. */
export interface WatchedFile {
  rel: string;
  /** The WAL signature last seen and when it last changed. */
  sig: string;
  at: number;
  /** Whether the file's shard runs a child that has had its first look at it (its restart's final sync then carries it). */
  watchedByChild: boolean;
}

/**
 * The files that leave early so that no more than `max` files stay watched: the least recently
 * written first, among those quiet for QUIET_MS whose child has copied their last write and
 * that have no WAL restart due (a restart made once no child watches would cost the file a new
 * generation; the supervisor brings it forward while it is watched, and the file may leave after).
 * `watched` counts every file the shards are to watch (the control file included).
 */
export function capLeavers(dataDir: string, now: number, max: number, watched: number, files: WatchedFile[]): string[] {
  const excess = watched - max;
  if (excess <= 0) return [];
  const quiet = files.filter((f) => f.watchedByChild && now - f.at >= QUIET_MS);
  // Oldest write first; the path breaks ties, so the choice does not depend on the map's order.
  quiet.sort((a, b) => a.at - b.at || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const out: string[] = [];
  for (const f of quiet) {
    if (out.length >= excess) break;
    // Written since the last look (its signature moved), or not yet shipped: not quiet after all.
    if (walSignature(dataDir, f.rel) !== f.sig || !shadowCaughtUp(dataDir, f.rel) || restartPending(dataDir, f.rel)) continue;
    out.push(f.rel);
  }
  return out;
}

/**
 * Makes due WAL restarts happen while Litestream watches (replication-state.ts, restartPending),
 * for files quiet for QUIET_MS whose last write the child has copied: a restart Litestream does
 * not see (its child crashed meanwhile) costs the file a new generation. Files being written are
 * left alone: their next write restarts the WAL under Litestream's eyes anyway, and restarting
 * their WAL meanwhile was seen to do more harm than good.
 */
export function bringRestartsForward(dataDir: string, now: number, files: WatchedFile[], log: Logger): void {
  const quiet = files.filter((f) => f.watchedByChild && now - f.at >= QUIET_MS && shadowCaughtUp(dataDir, f.rel));
  restartPendingWals(
    dataDir,
    quiet.map((f) => f.rel),
    log,
  );
}
