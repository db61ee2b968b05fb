// Reading media records (decisions.md section 10): the row as the /v2 routes answer it, one record
// by id, and the list, newest first with a keyset cursor on `seq` and the `folder`, `kind` and `q`
// filters. Plain reads of the project file; the write side is library.ts.
import { and, desc, eq, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { badField, fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { media } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { MEDIA_KINDS, type FocalPoint, type MediaKind, type MediaRecord, type ServableMedia } from "./types.ts";
import { fileSegment, mediaUrl, parseFileSegment } from "./url.ts";

/** A row of the media table. */
export type MediaRow = typeof media.$inferSelect;

/** The default and largest page of `GET /v2/media`. */
export const LIST_DEFAULT = 50;
const LIST_MAX = 100;

/** The record of a row, with its absolute public URL. */
export function recordOf(s: Services, projectId: string, row: MediaRow): MediaRecord {
  return {
    id: row.id,
    filename: row.filename,
    kind: row.kind as MediaKind,
    mimeType: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    duration: row.duration,
    alt: row.alt,
    title: row.title,
    folder: row.folderId,
    focalPoint: row.focalPoint === null ? null : (JSON.parse(row.focalPoint) as FocalPoint),
    checksum: row.checksum,
    placeholder: row.placeholder,
    url: mediaUrl(s.config.mediaBaseUrl, projectId, fileSegment(row.id, row.revision), row.filename),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
  };
}

/** What the file route needs of a row. */
export function servableOf(row: MediaRow): ServableMedia {
  return {
    id: row.id,
    filename: row.filename,
    kind: row.kind as MediaKind,
    mimeType: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    checksum: row.checksum,
    focalPoint: row.focalPoint === null ? null : (JSON.parse(row.focalPoint) as FocalPoint),
    storageKey: row.storageKey,
  };
}

/** The row of a media id, or null. */
export function findMedia(h: ProjectHandle, id: string): MediaRow | null {
  return h.db.select().from(media).where(eq(media.id, id)).get() ?? null;
}

/** The oldest file of the library with these bytes (by SHA-256), or null. */
export function findByChecksum(h: ProjectHandle, checksum: string): MediaRow | null {
  return h.db.select().from(media).where(eq(media.checksum, checksum)).orderBy(media.seq).limit(1).get() ?? null;
}

/** The row of a media id; 404 not_found when there is none. */
export function mediaOrFail(h: ProjectHandle, id: string): MediaRow {
  const row = findMedia(h, id);
  if (!row) fail("not_found", { message: `No media file with id ${id} in this project.` });
  return row;
}

/** The list query of `GET /v2/media`. */
export interface ListQuery {
  folder?: string;
  kind?: string;
  q?: string;
  limit?: string;
  after?: string;
}

/** Escapes LIKE's wildcards so `q` matches literally. */
function likeLiteral(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of the library, newest first. `folder=` (empty) lists the root's files; `next` is the
 * cursor of the following page (send it as `after`), null on the last page.
 */
export function listMedia(s: Services, h: ProjectHandle, q: ListQuery): { data: MediaRecord[]; next: string | null } {
  const page = listMediaRows(h, q);
  return { data: page.rows.map((r) => recordOf(s, h.id, r)), next: page.next };
}

/** The rows of one page of the library (listMedia's query). */
export function listMediaRows(h: ProjectHandle, q: ListQuery): { rows: MediaRow[]; next: string | null } {
  let limit = LIST_DEFAULT;
  if (q.limit !== undefined) {
    if (!/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > LIST_MAX) badField("limit", `limit must be a whole number from 1 to ${LIST_MAX}`);
    limit = Number(q.limit);
  }
  const where: SQL[] = [];
  if (q.after !== undefined) {
    if (!/^\d{1,15}$/.test(q.after)) badField("after", "after must be the next cursor of a previous page");
    where.push(lt(media.seq, Number(q.after)));
  }
  if (q.folder !== undefined) where.push(q.folder === "" ? isNull(media.folderId) : eq(media.folderId, q.folder));
  if (q.kind !== undefined) {
    if (!(MEDIA_KINDS as readonly string[]).includes(q.kind)) badField("kind", `kind must be one of: ${MEDIA_KINDS.join(", ")}`);
    where.push(eq(media.kind, q.kind));
  }
  if (q.q !== undefined && q.q !== "") {
    const pattern = likeLiteral(q.q);
    // drizzle's like() has no ESCAPE clause; the raw condition below adds it.
    where.push(or(likeEscaped(media.filename, pattern), likeEscaped(media.title, pattern), likeEscaped(media.alt, pattern))!);
  }
  const rows = h.db
    .select()
    .from(media)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(media.seq))
    .limit(limit + 1)
    .all();
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, next: more ? String(page[page.length - 1]!.seq) : null };
}

/** `column LIKE pattern ESCAPE '\'`, case-insensitive for ASCII as SQLite's LIKE is. */
function likeEscaped(column: SQLiteColumn, pattern: string): SQL {
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * The file behind a public URL, or null (the route answers 404): the project must exist, the
 * record too, and the URL's name and revision must be the record's (a renamed or replaced file has
 * one URL, its new one).
 */
export function servableFile(s: Services, projectId: string, segment: string, filename: string): ServableMedia | null {
  if (!s.projects.exists(projectId)) return null;
  // The segment is the id, with `_<revision>` once the bytes were replaced: an older revision's URL is gone.
  const { mediaId, revision } = parseFileSegment(segment);
  const row = findMedia(s.projects.get(projectId), mediaId);
  if (!row || row.filename !== filename || row.revision !== revision) return null;
  return servableOf(row);
}
