// Which projects have bulk batches still to work through (see infra/wake.ts).
import type { ProjectHandle } from "../../storage/pool.ts";

/** 0 (due at once) when a project has an unfinished batch, else null. */
export function nextBatchDue(h: ProjectHandle): number | null {
  return h.sqlite.query("SELECT 1 FROM bulk_batches WHERE status <> 'done' LIMIT 1").get() ? 0 : null;
}
