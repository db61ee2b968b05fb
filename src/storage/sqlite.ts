// Opening a SQLite file: pragmas for a read-heavy single-process server (storage/pragmas.ts),
// then the committed drizzle-kit migrations of that kind of file.
import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { dirname } from "node:path";
import * as controlSchema from "./control/schema.ts";
import * as projectSchema from "./project/schema.ts";
import { privateDir, privateFile } from "./permissions.ts";
import { MIGRATIONS } from "../infra/paths.ts";
import { applyPragmas, type FileOptions } from "./pragmas.ts";

export { applyPragmas, type FileOptions } from "./pragmas.ts";

export type ControlDb = BunSQLiteDatabase<typeof controlSchema>;
export type ProjectDrizzle = BunSQLiteDatabase<typeof projectSchema>;

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
