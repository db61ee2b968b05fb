// Opening a SQLite file: pragmas for a read-heavy single-process server, then the committed
// drizzle-kit migrations of that kind of file.
import { constants, Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { dirname } from "node:path";
import * as controlSchema from "./control/schema.ts";
import * as projectSchema from "./project/schema.ts";
import { privateDir, privateFile } from "./permissions.ts";
import { MIGRATIONS } from "../infra/paths.ts";

export type ControlDb = BunSQLiteDatabase<typeof controlSchema>;
export type ProjectDrizzle = BunSQLiteDatabase<typeof projectSchema>;

/**
 * Applies the pragmas every Capa file uses. The per-connection page cache is bounded by
 * `cacheKiB` (CAPA_SQLITE_CACHE_KB) because each project file has a connection in the main
 * thread and in every read worker that read it. Memory-mapped reads are off unless
 * CAPA_SQLITE_MMAP_MB says otherwise: every connection maps the file separately and the process's
 * RSS counts each mapping's touched pages, so 256 MiB per connection made RSS grow with the number
 * of open files times connections (issue 16: 560 MiB file-backed under scripts/load.ts).
 */
export function applyPragmas(sqlite: Database, opts: FileOptions = {}): void {
  // The busy timeout first: every later pragma (WAL needs a lock) and the migration check then
  // wait for a lock held elsewhere (a writer, Litestream) instead of failing at once.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // Replication (docs/backup.md): Litestream must see every WAL frame, so with a replica Capa never
  // checkpoints (Litestream does, while it watches the file) and never deletes the WAL (the close
  // of the last connection otherwise checkpoints and removes it, and Litestream, finding no WAL,
  // starts a new generation with a full snapshot). Set before journal_mode, which opens the WAL.
  if (opts.replicated) {
    sqlite.fileControl(constants.SQLITE_FCNTL_PERSIST_WAL, 1);
    sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  }
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec(`PRAGMA cache_size = -${opts.cacheKiB ?? DEFAULT_CACHE_KIB}`);
  sqlite.exec(`PRAGMA mmap_size = ${opts.mmapBytes ?? 0}`);
  sqlite.exec("PRAGMA temp_store = MEMORY");
}

/** The page cache of a connection when no setting says otherwise, in KiB (config.ts has the default of CAPA_SQLITE_CACHE_KB). */
const DEFAULT_CACHE_KIB = 256;

/**
 * How a file is used: `replicated` when Litestream replicates it (CAPA_REPLICA_URL set);
 * `cacheKiB` and `mmapBytes` bound the connection's memory (CAPA_SQLITE_CACHE_KB, CAPA_SQLITE_MMAP_MB).
 */
export interface FileOptions {
  replicated?: boolean;
  cacheKiB?: number;
  mmapBytes?: number;
}

/** Opens (creating if needed, 0600 in a 0700 folder) the control file and migrates it. */
export function openControl(path: string, opts: FileOptions = {}): { sqlite: Database; db: ControlDb } {
  privateDir(dirname(path));
  privateFile(path);
  const sqlite = new Database(path, { create: true, strict: true });
  applyPragmas(sqlite, opts);
  const db = drizzle({ client: sqlite, schema: controlSchema });
  migrate(db, { migrationsFolder: MIGRATIONS.control });
  return { sqlite, db };
}

/** Opens (creating if needed, 0600 in a 0700 folder) a project file and migrates it. */
export function openProjectFile(path: string, opts: FileOptions = {}): { sqlite: Database; db: ProjectDrizzle } {
  privateDir(dirname(path));
  privateFile(path);
  const sqlite = new Database(path, { create: true, strict: true });
  applyPragmas(sqlite, opts);
  const db = drizzle({ client: sqlite, schema: projectSchema });
  migrate(db, { migrationsFolder: MIGRATIONS.project });
  return { sqlite, db };
}

/** Throws unless the control file answers a query (what /healthz calls "storage"). */
export function probeControl(sqlite: Database): void {
  sqlite.query("SELECT 1 FROM projects LIMIT 1").all();
}
