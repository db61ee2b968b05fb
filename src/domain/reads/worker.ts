// A read-pool worker: its own SQLite connections to the project files (WAL lets readers run
// beside the writer), running entries reads off the main thread so reads use every core.
import { Database } from "bun:sqlite";
import { ProjectPool } from "../../storage/pool.ts";
import { applyPragmas, type FileOptions } from "../../storage/pragmas.ts";
import { startHeapTrim } from "../../infra/heap-trim.ts";
import type { ProjectDrizzle } from "../../storage/sqlite.ts";
import { runReadJob, type ReadJob } from "./job.ts";

declare const self: Worker;

// How a worker opens a project file: Capa's pragmas, without drizzle and without the migrations.
// The main thread opens (so creates and migrates) a project's file before it hands any read of
// it to a worker: the REST route looks the model up and GraphQL builds its schema on the main
// thread's handle first. A worker that loaded drizzle, the schema and the migrator and read the
// migration files on every open paid about 3 MiB of memory each for nothing (issue 25).

/** A worker's file has no drizzle handle; a read that reached for one is a bug, said plainly. */
const NO_DRIZZLE = new Proxy(
  {},
  {
    get() {
      throw new Error("A read worker opens files without drizzle: the read path must use the handle's sqlite connection (domain/reads/worker.ts).");
    },
  },
) as ProjectDrizzle;

/** Opens an existing project file for reads (never creates one: the main thread made it). */
function openForReads(path: string, opts: FileOptions = {}): { sqlite: Database; db: ProjectDrizzle } {
  const sqlite = new Database(path, { create: false, readwrite: true, strict: true });
  applyPragmas(sqlite, opts);
  return { sqlite, db: NO_DRIZZLE };
}

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
      // A busy worker's heap grows with its throughput until collected (infra/heap-trim.ts).
      startHeapTrim();
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
