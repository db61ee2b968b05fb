// Reading media records (decisions.md section 10): the row as the /v2 routes answer it, one record
// by id, and the list's records (its query is list.ts). Plain reads of the project file; the write
// side is library.ts.
import { eq } from "drizzle-orm";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { media } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { FocalPoint, MediaKind, MediaRecord, ServableMedia } from "./types.ts";
import { fileSegment, mediaUrl, parseFileSegment } from "./url.ts";
import { type ListQuery, listMediaRows } from "./list.ts";

export { listMediaRows } from "./list.ts";

/** A row of the media table. */
export type MediaRow = typeof media.$inferSelect;

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

/**
 * One page of the library (list.ts has the query: filters, sort, cursor and count). `folder=`
 * (empty) lists the root's files; `next` is the cursor of the following page (send it as
 * `after`), null on the last page; `total` counts every file that matches.
 */
export function listMedia(s: Services, h: ProjectHandle, q: ListQuery): { data: MediaRecord[]; next: string | null; total: number } {
  const page = listMediaRows(h, q);
  return { data: page.rows.map((r) => recordOf(s, h.id, r)), next: page.next, total: page.total };
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
