// The SQLite files of a data directory, named by their path relative to it. Replication and
// restore both work from this list, so a file the server uses is a file that is backed up.
import type { Database } from "bun:sqlite";

/** The control file's path inside the data directory. */
export const CONTROL_FILE = "control.sqlite";

/** A project file's path inside the data directory (the pool opens the same path). */
export function projectFile(projectId: string): string {
  return `projects/${projectId}.sqlite`;
}

/** The ids of every project the control file knows, in a stable order. */
export function projectIds(control: Database): string[] {
  return control
    .query<{ id: string }, []>("SELECT id FROM projects ORDER BY id")
    .all()
    .map((r) => r.id);
}

/** Every SQLite file of a data directory: the control file first, then each project's file. */
export function dataFiles(control: Database): string[] {
  return [CONTROL_FILE, ...projectIds(control).map(projectFile)];
}
