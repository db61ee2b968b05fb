// The list of `GET /v2/media` (decisions.md section 10, issue 27 lists): the `folder`, `kind` and
// `q` filters, a `sort` (uploaded, name or size, either way), keyset pages whose cursor carries the
// sort key and the row's `seq` (the tie-break, so equal names or sizes still page exactly), and
// `total`, one COUNT over the same filter. Each sort reads an index in its order (media_seq,
// media_name_seq, media_size_seq and their folder twins), so a deep page costs what page 1 costs.
import { and, type SQL, eq, isNull, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { badField } from "../../errors.ts";
import { media } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { MediaRow } from "./records.ts";
import { MEDIA_KINDS } from "./types.ts";

/** The default and largest page of `GET /v2/media`. */
export const LIST_DEFAULT = 50;
const LIST_MAX = 100;

/** The sorts of the list; `-` is descending. `createdAt` is upload order (`seq`). */
export const MEDIA_SORTS = ["-createdAt", "createdAt", "name", "-name", "size", "-size"] as const;
export type MediaSort = (typeof MEDIA_SORTS)[number];

/** The list query of `GET /v2/media`. */
export interface ListQuery {
  folder?: string;
  kind?: string;
  q?: string;
  limit?: string;
  after?: string;
  sort?: string;
}

/** One page: its rows, the cursor of the next (null on the last) and how many match in all. */
export interface MediaRowsPage {
  rows: MediaRow[];
  next: string | null;
  total: number;
}

// The sort key of each sort: names compare without case (the index is on the same expression).
const NAME = sql`${media.filename} COLLATE NOCASE`;
const keyOf: Record<"name" | "size", { expr: SQL; of(r: MediaRow): string | number }> = {
  name: { expr: NAME, of: (r) => r.filename },
  size: { expr: sql`${media.size}`, of: (r) => r.size },
};

/** Escapes LIKE's wildcards so `q` matches literally. */
function likeLiteral(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column LIKE pattern ESCAPE '\'`, case-insensitive for ASCII as SQLite's LIKE is. */
function likeEscaped(column: SQLiteColumn, pattern: string): SQL {
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

function parseSort(v: string | undefined): MediaSort {
  if (v === undefined || v === "") return "-createdAt";
  if (!(MEDIA_SORTS as readonly string[]).includes(v)) {
    badField("sort", `sort must be one of: ${MEDIA_SORTS.join(", ")} (newest first, oldest first, name A to Z, name Z to A, smallest first, largest first)`);
  }
  return v as MediaSort;
}

const BAD_AFTER = "after must be the next cursor of a previous page";

/**
 * A cursor: the last row's `seq` for the upload-order sorts (as before sorts came), else
 * base64url JSON `[sort, key, seq]`, so a cursor of another sort is refused rather than misread.
 */
function cursorOf(sort: MediaSort, row: MediaRow): string {
  if (sort === "createdAt" || sort === "-createdAt") return String(row.seq);
  const key = keyOf[sort.replace("-", "") as "name" | "size"].of(row);
  return Buffer.from(JSON.stringify([sort, key, row.seq])).toString("base64url");
}

/** The condition that starts a page after the cursor `after` of `sort`. */
function afterCondition(sort: MediaSort, after: string): SQL {
  const desc = sort.startsWith("-");
  if (sort === "createdAt" || sort === "-createdAt") {
    if (!/^\d{1,15}$/.test(after)) badField("after", BAD_AFTER);
    return desc ? sql`${media.seq} < ${Number(after)}` : sql`${media.seq} > ${Number(after)}`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(after, "base64url").toString());
  } catch {
    badField("after", BAD_AFTER);
  }
  const base = sort.replace("-", "") as "name" | "size";
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[2] !== "number" || !Number.isSafeInteger(parsed[2])) badField("after", BAD_AFTER);
  if (parsed[0] !== sort) badField("after", `after is the cursor of another sort; send the sort of the page it came from (${sort} here)`);
  if (typeof parsed[1] !== (base === "name" ? "string" : "number")) badField("after", BAD_AFTER);
  // key >= v (<= descending) is one range on the (key, seq) index, for the name's expression too
  // (a row value on an expression is not); the rest drops the ties up to the cursor's row.
  const key = keyOf[base].expr;
  const [v, seq] = [parsed[1], parsed[2]];
  return desc ? sql`${key} <= ${v} AND (${key} < ${v} OR ${media.seq} < ${seq})` : sql`${key} >= ${v} AND (${key} > ${v} OR ${media.seq} > ${seq})`;
}

function orderOf(sort: MediaSort): SQL[] {
  const dir = sort.startsWith("-") ? sql`DESC` : sql`ASC`;
  if (sort === "createdAt" || sort === "-createdAt") return [sql`${media.seq} ${dir}`];
  const key = keyOf[sort.replace("-", "") as "name" | "size"].expr;
  return [sql`${key} ${dir}`, sql`${media.seq} ${dir}`];
}

/** The filter of a query (folder, kind, text), without the cursor: the page's and the count's. */
function filterOf(q: ListQuery): SQL[] {
  const where: SQL[] = [];
  if (q.folder !== undefined) where.push(q.folder === "" ? isNull(media.folderId) : eq(media.folderId, q.folder));
  if (q.kind !== undefined) {
    if (!(MEDIA_KINDS as readonly string[]).includes(q.kind)) badField("kind", `kind must be one of: ${MEDIA_KINDS.join(", ")}`);
    where.push(eq(media.kind, q.kind));
  }
  if (q.q !== undefined && q.q !== "") {
    const pattern = likeLiteral(q.q);
    // drizzle's like() has no ESCAPE clause; the raw condition adds it.
    where.push(or(likeEscaped(media.filename, pattern), likeEscaped(media.title, pattern), likeEscaped(media.alt, pattern))!);
  }
  return where;
}

/** The statements of one page (the page's, limit + 1 rows, and the count's), before they run. */
export function mediaPageStatements(h: ProjectHandle, q: ListQuery) {
  let limit = LIST_DEFAULT;
  if (q.limit !== undefined) {
    if (!/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > LIST_MAX) badField("limit", `limit must be a whole number from 1 to ${LIST_MAX}`);
    limit = Number(q.limit);
  }
  const sort = parseSort(q.sort);
  const filter = filterOf(q);
  const where = q.after === undefined ? filter : [...filter, afterCondition(sort, q.after)];
  const page = h.db
    .select()
    .from(media)
    .where(where.length ? and(...where) : undefined)
    .orderBy(...orderOf(sort))
    .limit(limit + 1);
  const count = h.db
    .select({ n: sql<number>`count(*)` })
    .from(media)
    .where(filter.length ? and(...filter) : undefined);
  return { page, count, limit, sort };
}

/** The rows of one page of the library, with `next` and `total`. */
export function listMediaRows(h: ProjectHandle, q: ListQuery): MediaRowsPage {
  const st = mediaPageStatements(h, q);
  const rows = st.page.all();
  const more = rows.length > st.limit;
  const page = more ? rows.slice(0, st.limit) : rows;
  return { rows: page, next: more ? cursorOf(st.sort, page[page.length - 1]!) : null, total: st.count.get()!.n };
}
