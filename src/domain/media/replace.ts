// Replacing a file's bytes (decisions.md 15: `PUT /v2/media/:id/file`). The record keeps its id,
// alt, title, folder and focal point, so every entry that references it follows; it takes the new
// file's name and facts (kind, type, size, dimensions, checksum, placeholder) and a new revision,
// which gives it a new URL (url.ts `fileSegment`): the old URL, cached as immutable anywhere, now
// answers 404 and never shows other bytes. `media.updated` fires. A file referenced by an
// image-only field (an `image` field, or a list of them) can only be replaced by an image: the
// refusal names the entries. Bytes are put under a new storage key first; the old bytes and
// variants go only after the record commits, so a refused or rolled-back replace loses nothing.
import { eq } from "drizzle-orm";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { media, mediaBackups } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actorFrom } from "../events/outbox.ts";
import { purgeMediaUsers } from "../edge/changes.ts";
import { write } from "../unit-of-work.ts";
import { queueBackup } from "./backup.ts";
import type { IngestedFile } from "./ingest.ts";
import { mediaOrFail, type MediaRow, recordOf } from "./records.ts";
import type { MediaRecord } from "./types.ts";
import { imageOnly, mediaUsage } from "./usage.ts";

/** What a replace did: the record, and the storage key whose bytes the caller removes once this returns. */
export interface Replaced {
  record: MediaRecord;
  /** The old bytes after a replace; the new copy when the bytes were the same already. */
  discardKey: string;
  changed: boolean;
}

/** Writes the new facts of a record whose bytes were stored as `file` (ingest.ts). */
export function replaceFile(s: Services, h: ProjectHandle, actor: string, id: string, file: IngestedFile): Replaced {
  return write(s, h, (tx) => {
    const row = mediaOrFail(h, id);
    // The same bytes again (a retried request): nothing changes, no event, the same URL.
    if (row.checksum === file.checksum && row.size === file.size && row.filename === file.filename) {
      return { record: recordOf(s, h.id, row), discardKey: file.storageKey, changed: false };
    }
    if (file.kind !== "image") {
      const users = mediaUsage(h, row.id, imageOnly);
      if (users.length > 0) {
        const n = users.length;
        fail("file_kind_in_use", {
          message: `${row.filename} is used by an image field of ${n} entr${n === 1 ? "y" : "ies"} (${users
            .slice(0, 3)
            .map((u) => u.title ?? u.id)
            .join(", ")}${n > 3 ? ", ..." : ""}), so it can only be replaced by an image; this file is ${file.kind} (${file.mimeType}).`,
          extra: { kind: file.kind, entries: users },
        });
      }
    }
    const next: MediaRow = {
      ...row,
      filename: file.filename,
      kind: file.kind,
      mimeType: file.mimeType,
      size: file.size,
      width: file.width,
      height: file.height,
      duration: file.duration,
      checksum: file.checksum,
      placeholder: file.placeholder,
      storageKey: file.storageKey,
      revision: row.revision + 1,
      updatedAt: iso(s.clock.now()),
    };
    const { id: _id, seq: _seq, ...set } = next;
    h.db.update(media).set(set).where(eq(media.id, row.id)).run();
    if (s.config.replicaUrl !== null) {
      // The backup promise follows the new bytes.
      h.db.delete(mediaBackups).where(eq(mediaBackups.mediaId, row.id)).run();
      queueBackup(s, h, row.id, next.storageKey);
    }
    tx.emit({
      type: "media.updated",
      actor: actorFrom(actor),
      data: { mediaId: next.id, filename: next.filename, kind: next.kind, size: next.size, folder: next.folderId },
      links: { self: `${s.config.apiUrl}/v2/agent/media/${next.id}` },
    });
    // Reads resolve url, type and dimensions from the record: cached answers and the edge's go.
    tx.contentChanged();
    purgeMediaUsers(tx, mediaUsage(h, row.id));
    return { record: recordOf(s, h.id, next), discardKey: row.storageKey, changed: true };
  });
}
