// The edge purge outbox (decisions.md 14): a change whose answers an edge cache must drop writes,
// in its own transaction, one `edge_purges` row per purge target with the tags to purge. So a
// committed change always has its purge, a rolled-back one never, and a stop loses nothing: the
// purger (edge/purger.ts) finds the rows after a restart. Project changes write into the project
// file (through `tx.purge`, src/domain/unit-of-work.ts); key and project changes, which live in
// the control file, write into its own `edge_purges` (edge/changes.ts). Reading and settling rows
// is edge/queue.ts.
import type { Database } from "bun:sqlite";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";

/** The name of the control file among the files that hold purge rows (project files go by their id). */
export const CONTROL = "control";

/**
 * Writes one row per configured target with `tags`, inside the caller's open transaction on
 * `sqlite` (the file named `fileId`); `afterCommit` wakes the purger once the rows are durable.
 * Nothing is written when no target is configured.
 */
export function queuePurge(s: Services, fileId: string, sqlite: Database, tags: string[], afterCommit: (fn: () => void) => void): void {
  const targets = s.config.edge.targets;
  if (targets.length === 0 || tags.length === 0) return;
  const now = iso(s.clock.now());
  const json = JSON.stringify([...new Set(tags)]);
  const insert = sqlite.query("INSERT INTO edge_purges (target, tags, created_at, attempts, next_attempt_at) VALUES (?, ?, ?, 0, ?)");
  for (const t of targets) insert.run(t.id, json, now, now);
  afterCommit(() => s.edge.wake(fileId));
}
