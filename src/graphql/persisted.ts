// decisions.md section 5: automatic persisted queries as Apollo clients send them
// (`extensions.persistedQuery = { version: 1, sha256Hash }`), stored per project in the
// project's own file. A hash that is not stored answers PersistedQueryNotFound; a client then
// sends the text with its hash once, which registers it.
import { createHash } from "node:crypto";
import { fail } from "../errors.ts";
import type { ProjectHandle } from "../storage/pool.ts";

/** At most this many documents per project; the least recently used go first. */
const MAX_STORED = 10_000;
const DAY = 86_400_000;

export interface PersistedRef {
  hash: string;
}

/** The SHA-256 of a document's text, lower-case hex (what Apollo's link sends). */
export function queryHash(query: string): string {
  return createHash("sha256").update(query).digest("hex");
}

/** Reads `extensions.persistedQuery`; null when the request does not use it. */
export function persistedRef(extensions: Record<string, unknown> | null): PersistedRef | null {
  const pq = extensions?.persistedQuery;
  if (pq === undefined || pq === null) return null;
  const o = pq as { version?: unknown; sha256Hash?: unknown };
  if (typeof pq !== "object" || o.version !== 1 || typeof o.sha256Hash !== "string" || !/^[0-9a-fA-F]{64}$/.test(o.sha256Hash)) {
    fail("invalid_parameter", {
      message: "extensions.persistedQuery must be { version: 1, sha256Hash: <64 hex characters> }.",
      param: "extensions.persistedQuery",
      hint: "Send the SHA-256 of the query text as sha256Hash, with version 1.",
    });
  }
  return { hash: o.sha256Hash.toLowerCase() };
}

/** The stored text of a hash, or PersistedQueryNotFound. */
export function lookupPersisted(h: ProjectHandle, hash: string, now: number): string {
  const row = h.sqlite.query("SELECT query, last_used_at AS used FROM graphql_persisted_queries WHERE hash = ?").get(hash) as {
    query: string;
    used: string;
  } | null;
  if (!row) fail("persisted_query_not_found", { message: "PersistedQueryNotFound", hint: "Send the query text with its sha256Hash once to register it." });
  // The use time only orders eviction, so it is written at most once a day per document.
  if (Date.parse(row.used) < now - DAY) {
    h.sqlite.query("UPDATE graphql_persisted_queries SET last_used_at = ? WHERE hash = ?").run(new Date(now).toISOString(), hash);
  }
  return row.query;
}

/** Checks that a sent text matches its hash. */
export function checkHash(query: string, ref: PersistedRef): void {
  const actual = queryHash(query);
  if (actual !== ref.hash) {
    fail("invalid_parameter", {
      message: `The query's SHA-256 is ${actual}, not the sha256Hash sent.`,
      param: "extensions.persistedQuery.sha256Hash",
      hint: "Hash the exact query text sent (UTF-8) with SHA-256, in hex.",
    });
  }
}

/** Registers a document (valid against the schema) under its hash. */
export function storePersisted(h: ProjectHandle, hash: string, query: string, now: number): void {
  const at = new Date(now).toISOString();
  const r = h.sqlite
    .query("INSERT OR IGNORE INTO graphql_persisted_queries (hash, query, created_at, last_used_at) VALUES (?, ?, ?, ?)")
    .run(hash, query, at, at);
  if (r.changes === 0) return;
  const n = (h.sqlite.query("SELECT count(*) AS n FROM graphql_persisted_queries").get() as { n: number }).n;
  if (n > MAX_STORED) {
    h.sqlite
      .query("DELETE FROM graphql_persisted_queries WHERE hash IN (SELECT hash FROM graphql_persisted_queries ORDER BY last_used_at LIMIT ?)")
      .run(n - MAX_STORED);
  }
}
