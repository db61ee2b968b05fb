// How a read worker opens a project file: Capa's pragmas, without drizzle and without the
// migrations. The main thread opens (so creates and migrates) a project's file before it hands any
// read of it to a worker: the REST route looks the model up and GraphQL builds its schema on the
// main thread's handle first. A worker that loaded drizzle, the schema and the migrator and read
// the migration files on every open paid about 3 MiB of memory each for nothing (issue 25).
import { Database } from "bun:sqlite";
import { applyPragmas, type FileOptions } from "./pragmas.ts";
import type { ProjectDrizzle } from "./sqlite.ts";

/** A worker's file has no drizzle handle; a read that reached for one is a bug, said plainly. */
const NO_DRIZZLE = new Proxy(
  {},
  {
    get() {
      throw new Error("A read worker opens files without drizzle: the read path must use the handle's sqlite connection (storage/read-file.ts).");
    },
  },
) as ProjectDrizzle;

/** Opens an existing project file for reads (never creates one: the main thread made it). */
export function openForReads(path: string, opts: FileOptions = {}): { sqlite: Database; db: ProjectDrizzle } {
  const sqlite = new Database(path, { create: false, readwrite: true, strict: true });
  applyPragmas(sqlite, opts);
  return { sqlite, db: NO_DRIZZLE };
}
