// What a read asks SQLite, for the tests that check query plans (keyset pages, field sorts,
// locale chains): a project handle whose statements are recorded, and the plan of one of them.
import type { ProjectHandle } from "../src/storage/pool.ts";

/** One statement a read ran, with its parameters. */
export interface Recorded {
  sql: string;
  params: unknown[];
}

/** `ph` with its SQLite connection wrapped so every `query(...).all/get` (and its parameters) is recorded. */
export function recording(ph: ProjectHandle): { handle: ProjectHandle; log: Recorded[] } {
  const log: Recorded[] = [];
  const db = ph.sqlite;
  const query = (sql: string) => {
    const st = db.query(sql);
    const rec =
      (fn: "all" | "get") =>
      (...params: unknown[]) => {
        log.push({ sql, params });
        return (st[fn] as (...a: unknown[]) => unknown)(...params);
      };
    return { all: rec("all"), get: rec("get") };
  };
  // Methods are bound to the real connection: bun:sqlite keeps its state in private fields.
  const bound = (t: object, p: string | symbol) => {
    const v = Reflect.get(t, p, t);
    return typeof v === "function" ? v.bind(t) : v;
  };
  const sqlite = new Proxy(db, { get: (t, p) => (p === "query" ? query : bound(t, p)) });
  return { handle: new Proxy(ph, { get: (t, p) => (p === "sqlite" ? sqlite : bound(t, p)) }), log };
}

/** The plan of a recorded statement, one detail line per step. */
export function planOf(ph: ProjectHandle, q: Recorded): string[] {
  // Finalized at once: a cached EXPLAIN statement stays busy after all() and would hold a read
  // snapshot open, so the next lazily made index would fail with SQLITE_BUSY_SNAPSHOT.
  const st = ph.sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`);
  try {
    return (st.all(...(q.params as never[])) as { detail: string }[]).map((r) => r.detail);
  } finally {
    st.finalize();
  }
}
