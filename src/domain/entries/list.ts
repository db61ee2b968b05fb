// The management list of entries: filters (model, status, text), the order, and keyset paging
// by the `next` cursor (with `page` kept for older callers).
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { entries } from "../../storage/project/schema.ts";
import { badField } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, modelOrFail } from "../models/catalog.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";
import { isUuid } from "../models/fields.ts";
import { entryRecord, type EntryRow } from "./service.ts";
import type { EntryStatus } from "./status.ts";

const STATUS_SQL: Record<EntryStatus, ReturnType<typeof sql>> = {
  draft: sql`${entries.publishedVersionId} IS NULL`,
  published: sql`${entries.publishedVersionId} IS NOT NULL AND ${entries.publishedVersion} = ${entries.draftVersion}`,
  changed: sql`${entries.publishedVersionId} IS NOT NULL AND ${entries.publishedVersion} <> ${entries.draftVersion}`,
};

/** The orders of the management list: a timestamp column, newest or oldest first, then id. */
const SORTS = { createdAt: entries.createdAt, updatedAt: entries.updatedAt } as const;
type SortName = keyof typeof SORTS;

function checkSort(v: unknown): { name: SortName; descending: boolean } {
  if (v === undefined) return { name: "createdAt", descending: true };
  const m = typeof v === "string" ? /^(-?)(createdAt|updatedAt)$/.exec(v) : null;
  if (!m) badField("sort", "sort must be createdAt, -createdAt, updatedAt or -updatedAt");
  return { name: m[2] as SortName, descending: m[1] === "-" };
}

/** A keyset cursor: the order and the (sort value, id) of the last entry of a page, opaque to clients. */
function encodeCursor(sort: string, r: EntryRow, name: SortName): string {
  return Buffer.from(JSON.stringify([sort, r[name], r.id])).toString("base64url");
}

function decodeCursor(v: unknown, sort: string): [string, string] {
  const bad = (why: string) => badField("after", why);
  const generic = "after must be the `next` cursor of a previous page";
  if (typeof v !== "string" || v.length === 0 || v.length > 300) bad(generic);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(v as string, "base64url").toString("utf8"));
  } catch {
    bad(generic);
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== "string" || typeof parsed[1] !== "string" || !isUuid(parsed[2])) bad(generic);
  const p = parsed as [string, string, string];
  if (p[0] !== sort) bad(`after is a cursor of the order ${p[0]}; send the same sort as the page it came from`);
  return [p[1], p[2]];
}

/** Who saved each entry's current draft (`user:<id>` or `api_key:<id>`), by draft version id. */
function draftAuthors(h: ProjectHandle, rows: EntryRow[]): Map<string, string | null> {
  if (rows.length === 0) return new Map();
  const found = h.sqlite
    .query("SELECT id, created_by AS by FROM entry_versions WHERE id IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify(rows.map((r) => r.draftVersionId))) as { id: string; by: string | null }[];
  return new Map(found.map((f) => [f.id, f.by]));
}

/**
 * Lists entries for management (drafts included), newest first or in the `sort` order
 * (createdAt or updatedAt, `-` for descending). Pages by keyset with `after` (the `next` cursor
 * of the previous page; stays fast at any depth on the (model, createdAt|updatedAt, id)
 * indexes) or, for older callers, by `page`. `q` keeps entries whose draft holds the text.
 * Each item carries `updatedBy`, who saved its current draft.
 */
export function listEntries(
  h: ProjectHandle,
  q: { model?: unknown; status?: unknown; limit?: unknown; page?: unknown; after?: unknown; q?: unknown; sort?: unknown },
  loc?: EntryLocale,
) {
  // Entries in the trash have their own list (trash.ts).
  const conds = [isNull(entries.deletedAt)];
  if (q.model !== undefined) conds.push(eq(entries.modelId, modelOrFail(h, q.model).id));
  if (q.status !== undefined) {
    if (typeof q.status !== "string" || !Object.hasOwn(STATUS_SQL, q.status)) badField("status", "status must be draft, published or changed");
    // An entry with localized fields has the status of the locale listed (decisions.md 13); a
    // locale it holds nothing in and never published is a draft there.
    const code = loc?.code ?? allModels(h).locales.default;
    const localeStatus = sql`COALESCE(json_extract(${entries.localeState}, ${`$."${code}".status`}), 'draft')`;
    const plain = STATUS_SQL[q.status as EntryStatus];
    conds.push(allModels(h).localized ? sql`(CASE WHEN ${entries.localeState} IS NULL THEN (${plain}) ELSE ${localeStatus} = ${q.status} END)` : plain);
  }
  if (q.q !== undefined) {
    if (typeof q.q !== "string" || q.q.length > 200) badField("q", "q must be a text of up to 200 characters");
    // Any text value of the draft holds the words (LIKE: ASCII case-insensitive, wildcards escaped).
    const needle = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (q.q !== "") {
      // A localized field's text is searched in the locale listed (its slot of the object it stores).
      const code = loc?.code ?? allModels(h).locales.default;
      const text = sql`EXISTS (SELECT 1 FROM json_each(${entries.draftData}) AS v WHERE v.type = 'text' AND v.value LIKE ${needle} ESCAPE '\\')`;
      if (!allModels(h).localized) conds.push(text);
      else
        conds.push(sql`(${text} OR (${entries.localeState} IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(${entries.draftData}) AS v, json_each(v.value) AS w
          WHERE v.type = 'object' AND w.key = ${code} AND w.type = 'text' AND w.value LIKE ${needle} ESCAPE '\\')))`);
    }
  }
  const limit = q.limit === undefined ? 25 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) badField("limit", "limit must be a whole number from 1 to 200");
  if (q.after !== undefined && q.page !== undefined) badField("after", "after and page cannot be combined; follow `next` from the previous page");
  const page = q.page === undefined ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1) badField("page", "page must be a whole number from 1");
  const where = conds.length ? and(...conds) : undefined;
  const total = h.db.select({ n: sql<number>`count(*)` }).from(entries).where(where).get()!.n;
  const sort = checkSort(q.sort);
  const sortKey = `${sort.descending ? "-" : ""}${sort.name}`;
  const col = SORTS[sort.name];
  const keyset = q.after === undefined ? null : decodeCursor(q.after, sortKey);
  const past = sort.descending ? sql`<` : sql`>`;
  const pageWhere = keyset ? and(where, sql`(${col}, ${entries.id}) ${past} (${keyset[0]}, ${keyset[1]})`) : where;
  const dir = sort.descending ? desc : asc;
  const rows = h.db
    .select()
    .from(entries)
    .where(pageWhere)
    .orderBy(dir(col), dir(entries.id))
    .limit(limit + 1)
    .offset(keyset ? 0 : (page - 1) * limit)
    .all();
  const more = rows.length > limit;
  if (more) rows.pop();
  const authors = draftAuthors(h, rows);
  const data = rows.map((r) => ({ ...entryRecord(h, r, loc), updatedBy: authors.get(r.draftVersionId) ?? null }));
  const next = more ? encodeCursor(sortKey, rows[rows.length - 1]!, sort.name) : null;
  return keyset ? { data, limit, total, next } : { data, page, limit, total, next };
}
