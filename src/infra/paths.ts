// Where the server finds its files on disk. This file sits two folders below the repository
// root (src/infra/), and so does the server bundle that `npm start` runs (dist/server/, built by
// scripts/build-server.ts), so one expression gives the root from either.
import { join } from "node:path";

/** Defined (true) by scripts/build-server.ts in the bundle; absent when the sources run. */
declare const CAPA_BUNDLED: boolean | undefined;

/** The repository root: node_modules, admin/dist and the committed migrations are under it. */
export const ROOT = join(import.meta.dir, "..", "..");

/** The read pool's worker script: the bundle's own copy beside it, or the source file. */
export const READ_WORKER = typeof CAPA_BUNDLED !== "undefined" ? join(import.meta.dir, "read-worker.js") : join(ROOT, "src", "domain", "reads", "worker.ts");

/** The committed drizzle-kit migrations of each kind of file (read at run time, not bundled). */
export const MIGRATIONS = {
  control: join(ROOT, "src", "storage", "control", "migrations"),
  project: join(ROOT, "src", "storage", "project", "migrations"),
};
