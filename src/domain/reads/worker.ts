// A read-pool worker: its own SQLite connections to the project files (WAL lets readers run
// beside the writer), running entries reads off the main thread so reads use every core. Files
// are opened without drizzle or the migrations (storage/read-file.ts): the main thread has
// opened and migrated each file before any of its reads gets here.
import { ProjectPool } from "../../storage/pool.ts";
import { openForReads } from "../../storage/read-file.ts";
import type { FileOptions } from "../../storage/pragmas.ts";
import { runReadJob, type ReadJob } from "./job.ts";

declare const self: Worker;

type Message =
  | { type: "init"; dir: string; openMax: number; idleMs: number; fileOptions: FileOptions }
  | { type: "job"; seq: number; job: ReadJob }
  | { type: "models"; projectId: string }
  | { type: "drop"; projectId: string };

let pool: ProjectPool | null = null;

self.onmessage = (ev: MessageEvent<Message>) => {
  const m = ev.data;
  switch (m.type) {
    case "init":
      pool = new ProjectPool(m.dir, m.openMax, m.idleMs, m.fileOptions, openForReads);
      return;
    case "models":
      // Model definitions are cached per open file; a model change on the main thread drops them.
      pool?.peek(m.projectId)?.cache.delete("models");
      return;
    case "drop":
      pool?.close(m.projectId);
      return;
    case "job":
      try {
        postMessage({ seq: m.seq, outcome: runReadJob(pool!.get(m.job.projectId), m.job) });
      } catch (e) {
        postMessage({ seq: m.seq, crash: String(e instanceof Error ? e.stack : e) });
      }
  }
};
