// File modes of the data directory (docs/security.md, "File permissions"): the directory and
// every folder Capa makes in it are 0700, every file 0600, because the files hold every
// project's content and control.sqlite holds the sealed secrets and password hashes. SQLite
// gives a database's -wal and -shm the mode of the database file, so creating that file 0600
// first is enough for all three. A start checks what is already there and warns about anything
// wider, since an operator may have made the folder or copied files in by hand.
import { closeSync, mkdirSync, openSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../infra/log.ts";

/** The mode of every folder Capa makes in the data directory. */
export const DIR_MODE = 0o700;
/** The mode of every file Capa makes in the data directory. */
export const FILE_MODE = 0o600;

/** Makes a folder (and missing parents) 0700; an existing one is left as it is (the start warns). */
export function privateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: DIR_MODE });
}

/** Creates an empty file 0600 unless it exists, so SQLite (and its -wal and -shm) inherit that mode. */
export function privateFile(path: string): void {
  closeSync(openSync(path, "a", FILE_MODE));
}

/** A path in the data directory whose mode lets others (group or world) in. */
export interface WideMode {
  path: string;
  /** The permission bits as four octal digits, e.g. "0644". */
  mode: string;
}

/** Every folder and file under `dataDir` (itself included) with group or world permission bits. */
export function wideModes(dataDir: string): WideMode[] {
  const out: WideMode[] = [];
  const stack = [dataDir];
  while (stack.length > 0) {
    const path = stack.pop()!;
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if ((st.mode & 0o077) !== 0) out.push({ path, mode: `0${(st.mode & 0o777).toString(8).padStart(3, "0")}` });
    if (st.isDirectory()) {
      try {
        for (const name of readdirSync(path)) stack.push(join(path, name));
      } catch {
        // A folder we cannot list is reported by its own mode above; nothing more to check inside.
      }
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** At most this many paths get a line of their own; the rest are counted in one more line. */
const MAX_LINES = 20;

/** Logs one warning line per path of the data directory that others can read or enter. */
export function warnWideModes(dataDir: string, log: Logger): WideMode[] {
  const wide = wideModes(dataDir);
  for (const w of wide.slice(0, MAX_LINES)) {
    log.warn("data directory path is open to other users; run: chmod -R go-rwx on the data directory", { path: w.path, mode: w.mode });
  }
  if (wide.length > MAX_LINES) log.warn("more data directory paths are open to other users", { more: wide.length - MAX_LINES });
  return wide;
}
