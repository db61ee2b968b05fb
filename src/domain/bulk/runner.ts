// The batch loop: works through unfinished bulk batches in chunks of 50 entries. Each entry's
// publish (or unpublish) and the record that it was done commit in one transaction, and an entry
// already recorded is never touched again, so a batch resumed after a crash or restart finishes
// with no entry done twice. Batches are stored in the project file and found again at start-up.
import { and, asc, eq, isNull } from "drizzle-orm";
import { bulkBatches, bulkBatchItems } from "../../storage/project/schema.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { applyOne, INLINE_LIMIT, type BulkAction } from "./service.ts";
import { write } from "../unit-of-work.ts";

/** Chunks per tick across a project's batches, so one huge batch does not hold the loop for long. */
export const CHUNKS_PER_TICK = 20;

/** Works one chunk of a batch; answers false once the batch has nothing left. */
export function runChunk(s: Services, h: ProjectHandle, batchId: string, now: number): boolean {
  const b = h.db.select().from(bulkBatches).where(eq(bulkBatches.id, batchId)).get();
  if (!b || b.status === "done") return false;
  if (b.status === "queued")
    h.db
      .update(bulkBatches)
      .set({ status: "running", startedAt: iso(now) })
      .where(eq(bulkBatches.id, b.id))
      .run();
  const items = h.db
    .select()
    .from(bulkBatchItems)
    .where(and(eq(bulkBatchItems.batchId, b.id), isNull(bulkBatchItems.result)))
    .orderBy(asc(bulkBatchItems.position))
    .limit(INLINE_LIMIT)
    .all();
  for (const item of items) {
    // The publish inside joins this unit: its cache notice goes out after this commit.
    write(s, h, () => {
      const mine = and(eq(bulkBatchItems.batchId, b.id), eq(bulkBatchItems.position, item.position), isNull(bulkBatchItems.result));
      // Another runner did it in the meantime.
      if (!h.db.select({ p: bulkBatchItems.position }).from(bulkBatchItems).where(mine).get()) return;
      const r = applyOne(s, h, b.createdBy, b.action as BulkAction, item.entryId, b.locales === null ? null : (JSON.parse(b.locales) as string[]));
      h.db
        .update(bulkBatchItems)
        .set({ result: r.result, error: r.error ?? null, errors: r.errors ? JSON.stringify(r.errors) : null })
        .where(mine)
        .run();
    });
  }
  if (items.length < INLINE_LIMIT) {
    const left = h.db
      .select({ p: bulkBatchItems.position })
      .from(bulkBatchItems)
      .where(and(eq(bulkBatchItems.batchId, b.id), isNull(bulkBatchItems.result)))
      .limit(1)
      .get();
    if (!left) {
      h.db
        .update(bulkBatches)
        .set({ status: "done", finishedAt: iso(now) })
        .where(eq(bulkBatches.id, b.id))
        .run();
      return false;
    }
  }
  return true;
}

/** Works up to `maxChunks` chunks of one project's unfinished batches, oldest batch first. */
export function runProjectBatches(s: Services, h: ProjectHandle, now: number, maxChunks = CHUNKS_PER_TICK): number {
  let chunks = 0;
  const open = h.db
    .select({ id: bulkBatches.id })
    .from(bulkBatches)
    .where(isNull(bulkBatches.finishedAt))
    .orderBy(asc(bulkBatches.createdAt), asc(bulkBatches.id))
    .all();
  for (const { id } of open) {
    while (chunks < maxChunks) {
      chunks++;
      if (!runChunk(s, h, id, now)) break;
    }
    if (chunks >= maxChunks) break;
  }
  return chunks;
}

/** The batch loop's body: every project with unfinished batches; a project's failure is logged and skipped. */
export function runBulkBatches(s: Services, now: number, maxChunks = CHUNKS_PER_TICK): number {
  return s.wake.batches.runDue(now, s, "bulk batch", (projectId) => runProjectBatches(s, s.projects.get(projectId), now, maxChunks));
}
