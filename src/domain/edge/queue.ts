// Reading and settling the edge purge outbox of one file (edge/outbox.ts writes it): what is
// pending per target, the due rows of a target, and what a call's outcome does to them. Settling
// runs in a unit of work of the file, so it never interleaves with a change's transaction.
import type { Database } from "bun:sqlite";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { write, writeControl } from "../unit-of-work.ts";
import { CONTROL } from "./outbox.ts";

/** A file that holds purge rows: the control file or a project's. */
export interface PurgeFile {
  id: string;
  sqlite: Database;
  /** Runs `fn` in a unit of work of the file. */
  unit<T>(fn: () => T): T;
}

/** The file named `id` (CONTROL or a project id), or null when a project's file is gone. */
export function purgeFile(s: Services, id: string): PurgeFile | null {
  if (id === CONTROL) return { id, sqlite: s.control.sqlite, unit: (fn) => writeControl(s, () => fn()) };
  if (!s.projects.exists(id)) return null;
  const h = s.projects.get(id);
  return { id, sqlite: h.sqlite, unit: (fn) => write(s, h, fn) };
}

/** What a file holds for one target: how many rows, the oldest one's time, and when the next falls due (epoch ms). */
export interface Pending {
  rows: number;
  oldestAt: number;
  dueAt: number;
}

/** The pending rows of a file, per target. */
export function pendingOf(f: PurgeFile): Map<string, Pending> {
  const rows = f.sqlite
    .query("SELECT target, count(*) AS n, min(created_at) AS oldest, min(next_attempt_at) AS due FROM edge_purges GROUP BY target")
    .all() as { target: string; n: number; oldest: string; due: string }[];
  return new Map(rows.map((r) => [r.target, { rows: r.n, oldestAt: Date.parse(r.oldest), dueAt: Date.parse(r.due) }]));
}

/** A due row of a target: its tags, and when it was written. */
export interface DueRow {
  seq: number;
  tags: string[];
  createdAt: number;
  attempts: number;
}

/** A target's rows due at `now`, oldest first. */
export function dueRows(f: PurgeFile, target: string, now: number, limit: number): DueRow[] {
  const rows = f.sqlite
    .query("SELECT seq, tags, created_at, attempts FROM edge_purges WHERE target = ? AND next_attempt_at <= ? ORDER BY seq LIMIT ?")
    .all(target, iso(now), limit) as { seq: number; tags: string; created_at: string; attempts: number }[];
  return rows.map((r) => ({ seq: r.seq, tags: JSON.parse(r.tags) as string[], createdAt: Date.parse(r.created_at), attempts: r.attempts }));
}

/** A sent call's rows: those it covered whole go; a row it covered in part keeps only the tags still to send. */
export function settleSent(f: PurgeFile, whole: number[], partial: { seq: number; rest: string[] } | null): void {
  f.unit(() => {
    const del = f.sqlite.query("DELETE FROM edge_purges WHERE seq = ?");
    for (const seq of whole) del.run(seq);
    if (partial) f.sqlite.query("UPDATE edge_purges SET tags = ? WHERE seq = ?").run(JSON.stringify(partial.rest), partial.seq);
  });
}

/** A failed call's rows wait until `nextAt`, with one more attempt and the error recorded. */
export function settleFailed(f: PurgeFile, seqs: number[], nextAt: number, error: string): void {
  f.unit(() => {
    const upd = f.sqlite.query("UPDATE edge_purges SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE seq = ?");
    for (const seq of seqs) upd.run(iso(nextAt), error, seq);
  });
}

/**
 * Drops rows no purge can matter for any more: those of a target no longer configured, and those
 * older than the edge's lifetime (whatever they would purge has expired at the edge by itself).
 * Answers how many of each went.
 */
export function dropMoot(f: PurgeFile, targets: string[], expiredBefore: number): { unknown: number; expired: number } {
  return f.unit(() => {
    const unknown = f.sqlite.query(`DELETE FROM edge_purges WHERE target NOT IN (SELECT value FROM json_each(?))`).run(JSON.stringify(targets)).changes;
    const expired = f.sqlite.query("DELETE FROM edge_purges WHERE created_at < ?").run(iso(expiredBefore)).changes;
    return { unknown, expired };
  });
}
