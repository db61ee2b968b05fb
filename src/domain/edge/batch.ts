// Filling one purge call: the tags of a target's due rows, oldest file first, merged and
// deduplicated, up to the vendor's per-call limits (edge/vendors.ts). A row that does not fit
// whole goes in part: the call covers its first tags and the row keeps the rest.
import type { Services } from "../../services.ts";
import type { PendingIndex } from "./pending.ts";
import { dueRows, purgeFile, type DueRow, type PurgeFile } from "./queue.ts";

/** Rows read per file while filling one call. */
const ROWS_PER_READ = 500;

/** One call being filled: its tags, and the rows it covers whole or in part. */
export interface Batch {
  tags: Set<string>;
  /** Bytes of the tags joined by spaces. */
  bytes: number;
  rows: { file: PurgeFile; seq: number }[];
  partial: { file: PurgeFile; seq: number; rest: string[] } | null;
}

/**
 * The next call to `target` at `now`. Rows older than `expiredBefore` are dropped on the way: a
 * target down for longer than the edge keeps anything missed nothing that is still there.
 */
export function fillBatch(s: Services, index: PendingIndex, target: string, now: number, limit: { tags: number; bytes: number }, expiredBefore: number): Batch {
  const batch: Batch = { tags: new Set(), bytes: -1, rows: [], partial: null };
  for (const { id, pending } of index.dueFiles(target, now)) {
    const f = purgeFile(s, id);
    if (!f) {
      index.refresh(id);
      continue;
    }
    if (pending.oldestAt < expiredBefore) {
      index.dropMoot(f, expiredBefore);
      index.refresh(id);
    }
    for (const row of dueRows(f, target, now, ROWS_PER_READ)) {
      if (!add(batch, f, row, limit)) return batch;
    }
  }
  return batch;
}

/** Adds a row's tags to a batch; false when the batch is full (the row then went in part or not at all). */
function add(batch: Batch, file: PurgeFile, row: DueRow, limit: { tags: number; bytes: number }): boolean {
  const rest: string[] = [];
  for (const t of row.tags) {
    if (batch.tags.has(t)) continue;
    if (rest.length === 0 && batch.tags.size < limit.tags && batch.bytes + 1 + t.length <= limit.bytes) {
      batch.tags.add(t);
      batch.bytes += 1 + t.length;
    } else rest.push(t);
  }
  if (rest.length === 0) {
    batch.rows.push({ file, seq: row.seq });
    return true;
  }
  // A row that added a tag is settled in part with this call; one that added nothing waits whole.
  if (rest.length < row.tags.length) batch.partial = { file, seq: row.seq, rest };
  return false;
}
