// Writing the media library (decisions.md section 10): records from ingested files, edits and
// deletes, each in one unit of work with its event (`media.uploaded`, `media.updated`,
// `media.deleted`; data `{ mediaId, filename, kind, size, folder }`). Stored bytes are removed only
// after the delete commits, so a rolled-back delete never loses a file.
import { eq, sql } from "drizzle-orm";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { media, mediaBackups } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actorFrom } from "../events/outbox.ts";
import { type Tx, write } from "../unit-of-work.ts";
import { queueBackup } from "./backup.ts";
import { checkFilename } from "./filename.ts";
import type { Static } from "@sinclair/typebox";
import type { UpdateMediaBody } from "./bodies.ts";
import { parseFocalPoint } from "./focal-point.ts";
import { folderExists } from "./folders.ts";
import type { IngestedFile } from "./ingest.ts";
import { MAX_FIELD_BYTES, type UploadFields } from "./intake.ts";
import { findByChecksum, mediaOrFail, type MediaRow, recordOf } from "./records.ts";
import type { MediaRecord } from "./types.ts";
import { mediaUsage } from "./usage.ts";
import { purgeMediaUsers } from "../edge/changes.ts";

/** The event types of the media library, as webhook endpoints subscribe to them. */
export const MEDIA_EVENTS = ["media.uploaded", "media.updated", "media.deleted"] as const;

function emitMedia(s: Services, tx: Tx, type: (typeof MEDIA_EVENTS)[number], actor: string, row: MediaRow): void {
  tx.emit({
    type,
    actor: actorFrom(actor),
    data: { mediaId: row.id, filename: row.filename, kind: row.kind, size: row.size, folder: row.folderId },
    links: { self: `${s.config.apiUrl}/v2/agent/media/${row.id}` },
  });
}

/** Checks a folder reference of a body (null or an existing folder), naming `folder`. */
function checkFolder(h: ProjectHandle, v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== "string" || !folderExists(h, v)) badField("folder", `folder names no media folder of this project: ${JSON.stringify(v)}`);
  return v;
}

function checkText(name: string, v: unknown): string {
  if (typeof v !== "string" || new TextEncoder().encode(v).byteLength > MAX_FIELD_BYTES) {
    badField(name, `${name} must be text of at most ${MAX_FIELD_BYTES} bytes`);
  }
  return v;
}

/**
 * Refuses an upload whose bytes the library holds already (same SHA-256), offering the file it
 * has: `409 duplicate_file` with `existing` (the first such file's record) and `file` (the name
 * sent). `?duplicate=true` keeps a second copy. Files repeated within one upload are not compared.
 */
function refuseDuplicates(s: Services, h: ProjectHandle, files: IngestedFile[]): void {
  for (const f of files) {
    const existing = findByChecksum(h, f.checksum);
    if (!existing) continue;
    const same = existing.filename === f.filename ? "" : ` as "${existing.filename}"`;
    fail("duplicate_file", {
      message: `"${f.filename}" is in the library already${same} (uploaded ${existing.createdAt.slice(0, 10)}): use that file, or upload again with ?duplicate=true to keep a second copy.`,
      extra: { file: f.filename, existing: recordOf(s, h.id, existing) },
    });
  }
}

/**
 * Writes the records of an upload's stored files, one `media.uploaded` event each, in one unit.
 * Throws (writing nothing) when a field is refused or, unless `allowDuplicates`, when the library
 * holds the same bytes already; the caller then discards the stored bytes.
 */
export function createRecords(
  s: Services,
  h: ProjectHandle,
  actor: string,
  files: IngestedFile[],
  fields: UploadFields,
  allowDuplicates = true,
): MediaRecord[] {
  return write(s, h, (tx) => {
    // An empty folder field means the root, as leaving it out does.
    const folderId = fields.folder === undefined || fields.folder === "" ? null : checkFolder(h, fields.folder);
    if (!allowDuplicates) refuseDuplicates(s, h, files);
    const now = iso(s.clock.now());
    let seq = (h.sqlite.query("SELECT coalesce(max(seq), 0) AS n FROM media").get() as { n: number }).n;
    return files.map((f) => {
      const row: MediaRow = {
        id: f.id,
        seq: ++seq,
        filename: f.filename,
        kind: f.kind,
        mimeType: f.mimeType,
        size: f.size,
        width: f.width,
        height: f.height,
        duration: f.duration,
        alt: fields.alt ?? "",
        title: fields.title ?? "",
        folderId,
        focalPoint: null,
        checksum: f.checksum,
        placeholder: f.placeholder,
        storageKey: f.storageKey,
        createdAt: now,
        updatedAt: now,
        createdBy: actor,
        revision: 0,
      };
      h.db.insert(media).values(row).run();
      // With a replica, the promise to back the file up commits with its record.
      if (s.config.replicaUrl !== null) queueBackup(s, h, row.id, row.storageKey);
      emitMedia(s, tx, "media.uploaded", actor, row);
      return recordOf(s, h.id, row);
    });
  });
}

/** Edits `{ alt?, title?, folder?, focalPoint?, filename? }` of a record (media.updated); the body's model checks their shapes. */
export function updateMedia(s: Services, h: ProjectHandle, actor: string, id: string, body: Static<typeof UpdateMediaBody>): MediaRecord {
  return write(s, h, (tx) => {
    const row = mediaOrFail(h, id);
    const next: MediaRow = { ...row, updatedAt: iso(s.clock.now()) };
    if (body.alt !== undefined) next.alt = checkText("alt", body.alt);
    if (body.title !== undefined) next.title = checkText("title", body.title);
    if (body.folder !== undefined) next.folderId = checkFolder(h, body.folder);
    if (body.focalPoint !== undefined) {
      const p = parseFocalPoint(body.focalPoint);
      next.focalPoint = p === null ? null : JSON.stringify(p);
    }
    if (body.filename !== undefined) next.filename = checkFilename(body.filename, "this file");
    const { id: _id, seq: _seq, ...set } = next;
    h.db.update(media).set(set).where(eq(media.id, id)).run();
    emitMedia(s, tx, "media.updated", actor, next);
    // Entry reads resolve alt, url and size from the record: cached answers must go. The edge drops
    // the answers of the entries that show the file when what they show of it changed.
    tx.contentChanged();
    if (next.alt !== row.alt || next.filename !== row.filename) purgeMediaUsers(tx, mediaUsage(h, id));
    return recordOf(s, h.id, next);
  });
}

/**
 * Deletes a record (media.deleted); 409 media_in_use naming the entries while any references it,
 * unless `force`. Answers the deleted row, whose bytes the caller removes once this returns (the
 * unit has committed then, so a rolled-back delete never loses a file).
 */
export function deleteMedia(s: Services, h: ProjectHandle, actor: string, id: string, force: boolean): MediaRow {
  return write(s, h, (tx) => {
    const row = mediaOrFail(h, id);
    const entries = mediaUsage(h, id);
    if (!force) {
      if (entries.length > 0) {
        fail("media_in_use", {
          message: `The file is used by ${entries.length} entr${entries.length === 1 ? "y" : "ies"}; remove it there first or delete with ?force=true.`,
          extra: { entries },
        });
      }
    }
    h.db.delete(media).where(eq(media.id, id)).run();
    h.db.delete(mediaBackups).where(eq(mediaBackups.mediaId, id)).run();
    emitMedia(s, tx, "media.deleted", actor, row);
    tx.contentChanged();
    purgeMediaUsers(tx, entries);
    return row;
  });
}

/** How many records the library holds (tests and metrics). */
export function countMedia(h: ProjectHandle): number {
  return h.db.select({ n: sql<number>`count(*)` }).from(media).get()!.n;
}
