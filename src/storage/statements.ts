// Prepared statements per open project file, in a small LRU. bun:sqlite's `Database.query`
// caches every distinct SQL text for the life of the connection, and the read path builds its SQL
// per request shape (filters, sorts, limits), so a long-lived connection collected statements
// without bound; this keeps the most recently used ones (CAPA_SQLITE_STATEMENTS per connection)
// and finalizes the rest.
import type { Statement } from "bun:sqlite";
import { LRUCache } from "lru-cache";
import type { ProjectHandle } from "./pool.ts";

const KEY = "statements";

/** Statements kept per connection when the pool was given no bound. */
export const DEFAULT_STATEMENTS = 64;

/** Gives a handle its statement cache, keeping at most `max` statements. */
export function attachStatements(h: ProjectHandle, max: number): void {
  h.cache.set(KEY, new LRUCache<string, Statement>({ max, dispose: (st) => st.finalize() }));
}

/** The prepared statement for `sql` on a project's connection, prepared once while it stays in the LRU. */
export function statement(h: ProjectHandle, sql: string): Statement {
  let lru = h.cache.get(KEY) as LRUCache<string, Statement> | undefined;
  if (!lru) {
    attachStatements(h, DEFAULT_STATEMENTS);
    lru = h.cache.get(KEY) as LRUCache<string, Statement>;
  }
  let st = lru.get(sql);
  if (!st) {
    st = h.sqlite.prepare(sql);
    lru.set(sql, st);
  }
  return st;
}

/** The number of statements a handle keeps now (tests check the bound). */
export function statementCount(h: ProjectHandle): number {
  return (h.cache.get(KEY) as LRUCache<string, Statement> | undefined)?.size ?? 0;
}
