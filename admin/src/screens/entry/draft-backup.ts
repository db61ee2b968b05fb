// Never lose work (issue 26 item 6): while an entry has unsaved changes, they are copied to this
// tab's sessionStorage a moment after typing stops, and dropped once saved. A reload, a crashed
// tab brought back, or a conflict's Reload finds them and offers them back. sessionStorage holds
// field values only (never a token; the session lives in memory and an httpOnly cookie), and is
// seen by this tab alone. A copy too large for it (several MB of text) is skipped, not an error:
// the form still holds the changes, and the leave guards still ask.
import { plainValues } from "../../fields/pending-text.ts";

/** What is kept: the changed fields' values, the version they were edited on, and when. */
export interface Backup {
  at: string;
  version: number | null;
  values: Record<string, unknown>;
}

/** The key of an entry's backup in a project (`new:<model>` for an entry not yet created). */
export function backupKey(project: string, entry: string): string {
  return `capa:unsaved:${project}:${entry}`;
}

/** Keeps the changed fields' values; false when the browser refused (quota, private mode). */
export function writeBackup(key: string, values: Record<string, unknown>, changed: Set<string>, version: number | null): boolean {
  try {
    const picked = plainValues(Object.fromEntries([...changed].map((ns) => [ns, values[ns] ?? null])));
    sessionStorage.setItem(key, JSON.stringify({ at: new Date().toISOString(), version, values: picked } satisfies Backup));
    return true;
  } catch {
    return false;
  }
}

/** The backup under `key`, or null. */
export function readBackup(key: string): Backup | null {
  try {
    const raw = sessionStorage.getItem(key);
    const b = raw ? (JSON.parse(raw) as Backup) : null;
    return b && typeof b.values === "object" && b.values !== null ? b : null;
  } catch {
    return null;
  }
}

/** Forgets the backup under `key`. */
export function dropBackup(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Storage refused: nothing was kept either.
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The backed-up fields whose values differ from `data` (a backup of what was since saved says nothing). */
export function differing(b: Backup, data: Record<string, unknown>): string[] {
  return Object.keys(b.values).filter((ns) => !same(b.values[ns], data[ns]));
}
