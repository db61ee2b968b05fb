// The pool of open project files: opened lazily, kept in an LRU, closed when idle or evicted,
// so thousands of projects fit one VM in a bounded number of file handles.
import { LRUCache } from "lru-cache";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import type { Unit } from "../domain/unit-of-work.ts";
import type { FileOptions, ProjectDrizzle } from "./sqlite.ts";

/** An open project file. `cache` holds per-file prepared statements and derived data. */
export interface ProjectHandle {
  id: string;
  sqlite: Database;
  db: ProjectDrizzle;
  cache: Map<string, unknown>;
  /** The unit of work open on this file, while a write runs (src/domain/unit-of-work.ts). */
  unit?: Unit | null;
  /** Requests holding the file open: an evicted or idle handle is closed only once none does. */
  holds: number;
  /** Evicted while held: closed when the last holder lets go. */
  evicted: boolean;
}

/**
 * Closes a file for real. close(false) leaves the connection open as a zombie until every
 * prepared statement is garbage-collected (drizzle prepares per query), which kept evicted
 * files' handles open; close(true) finalizes and closes now.
 */
export function closeHandle(sqlite: Database): void {
  try {
    sqlite.close(true);
  } catch {
    sqlite.close(false);
  }
}

/** Opens a project file: storage/sqlite.ts's openProjectFile (create and migrate), or a read worker's opener (domain/reads/worker.ts). */
export type FileOpener = (path: string, opts: FileOptions) => { sqlite: Database; db: ProjectDrizzle };

export class ProjectPool {
  private readonly lru: LRUCache<string, ProjectHandle>;
  constructor(
    private readonly dir: string,
    max: number,
    idleMs: number,
    /** How files are opened: replication and the connection's memory bounds (storage/sqlite.ts). */
    private readonly fileOptions: FileOptions,
    /** Passed in, so the pool itself loads neither drizzle nor the migrator (a read worker needs neither). */
    private readonly open: FileOpener,
  ) {
    this.lru = new LRUCache<string, ProjectHandle>({
      max,
      ttl: idleMs,
      updateAgeOnGet: true,
      ttlAutopurge: true,
      dispose: (h) => {
        if (h.holds > 0) h.evicted = true;
        else closeHandle(h.sqlite);
      },
    });
  }

  /** The path of a project's file. */
  path(projectId: string): string {
    return join(this.dir, `${projectId}.sqlite`);
  }

  /** Returns the open handle of a project, opening (and creating) its file when needed. */
  get(projectId: string): ProjectHandle {
    let h = this.lru.get(projectId);
    if (!h) {
      const { sqlite, db } = this.open(this.path(projectId), this.fileOptions);
      h = { id: projectId, sqlite, db, cache: new Map(), holds: 0, evicted: false };
      this.lru.set(projectId, h);
    }
    return h;
  }

  /**
   * Opens a project for a request that may wait (for its body, a worker) before it is done: the
   * file stays open until `release`, whatever the idle timer or the LRU decide meanwhile.
   */
  hold(projectId: string): ProjectHandle {
    const h = this.get(projectId);
    h.holds++;
    return h;
  }

  /** Lets go of a handle taken with `hold`; closes it if it was evicted meanwhile. */
  release(h: ProjectHandle): void {
    h.holds--;
    if (h.holds === 0 && h.evicted) closeHandle(h.sqlite);
  }

  /** The open handle of a project, if it is open (does not open it). */
  peek(projectId: string): ProjectHandle | undefined {
    return this.lru.peek(projectId);
  }

  /** Listeners told when a project's file is removed (read-pool workers close their handles). */
  private readonly removed: ((projectId: string) => void)[] = [];
  onRemove(fn: (projectId: string) => void): void {
    this.removed.push(fn);
  }

  /** Whether a project's file exists on disk. */
  exists(projectId: string): boolean {
    return existsSync(this.path(projectId));
  }

  /** The number of files open now. */
  get openCount(): number {
    return this.lru.size;
  }

  /** Closes a project's file and deletes it with its WAL. */
  remove(projectId: string): void {
    this.lru.delete(projectId);
    for (const fn of this.removed) fn(projectId);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(this.path(projectId) + suffix, { force: true });
  }

  /** Closes one project's file, or every open file. */
  close(projectId?: string): void {
    if (projectId === undefined) this.lru.clear();
    else this.lru.delete(projectId);
  }
}
