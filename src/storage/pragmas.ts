// The pragmas of every Capa connection and how a file is used, apart from drizzle and the
// migrations (storage/sqlite.ts), so a read worker opens files without loading either
// (domain/reads/worker.ts).
import { constants, type Database } from "bun:sqlite";

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
