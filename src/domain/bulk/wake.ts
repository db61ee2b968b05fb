// Which projects have bulk batches still to work through (see infra/wake.ts).
import { WakeTable } from "../../infra/wake.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { projectsOnDisk } from "../scheduling/wake.ts";

/** 0 (due at once) when a project has an unfinished batch, else null. */
export function nextBatchDue(h: ProjectHandle): number | null {
  return h.sqlite.query("SELECT 1 FROM bulk_batches WHERE status <> 'done' LIMIT 1").get() ? 0 : null;
}

const tables = new WeakMap<Services, WakeTable>();

/** The wake table of bulk batches for one running app. */
export function batchesWake(s: Services): WakeTable {
  let t = tables.get(s);
  if (!t) {
    t = new WakeTable(
      () => projectsOnDisk(s),
      (id) => (s.projects.exists(id) ? nextBatchDue(s.projects.get(id)) : null),
    );
    tables.set(s, t);
  }
  return t;
}
