// One upload from request to stored bytes, short of the database: receive the parts (intake.ts),
// sniff and probe each file, and put it in the store under a fresh id. Any failure removes every
// byte this upload stored and every temp file, so a refused upload leaves nothing behind. The
// caller writes the records (in its own transaction) and, should that fail, calls `discardStored`.
import type { Ids } from "../../infra/clock.ts";
import type { RenderQueue } from "../../infra/render-queue.ts";
import { mediaStorageKey, type MediaStore } from "../../infra/media-store/types.ts";
import { type IntakeOptions, receiveUpload, type UploadFields } from "./intake.ts";
import { probeFile } from "./probe.ts";
import { sniffFile } from "./sniff.ts";
import type { MediaKind } from "./types.ts";

/** A stored file with every fact the record of decisions.md section 10 takes from the bytes. */
export interface IngestedFile {
  id: string;
  filename: string;
  kind: MediaKind;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  placeholder: string | null;
  /** sha256 hex. */
  checksum: string;
  storageKey: string;
}

/** What ingesting needs. */
export interface IngestDeps extends IntakeOptions {
  store: MediaStore;
  ids: Ids;
  projectId: string;
  /** CAPA_MEDIA_MAX_PIXELS. */
  maxPixels: number;
  /** The render queue every decode runs in. */
  queue: RenderQueue;
  /** Who uploads (`user:<id>` or `api_key:<id>`), for the queue's fairness. */
  client: string;
}

/** Receives, checks and stores every file of an upload; throws the AppError of the first part at fault. */
export async function ingestUpload(request: Request, deps: IngestDeps): Promise<{ files: IngestedFile[]; fields: UploadFields }> {
  const upload = await receiveUpload(request, deps);
  const stored: IngestedFile[] = [];
  try {
    for (const f of upload.files) {
      const label = `file part ${f.part} (${JSON.stringify(f.filename)})`;
      const sniffed = await sniffFile(f.path);
      const probed = await probeFile(f.path, sniffed, { maxPixels: deps.maxPixels, queue: deps.queue, client: deps.client, label });
      const id = deps.ids.uuid();
      const storageKey = mediaStorageKey(deps.projectId, id);
      if (storageKey === null) throw new Error(`Not a storable project or media id: ${deps.projectId} ${id}`);
      await deps.store.put(storageKey, { path: f.path });
      stored.push({ id, filename: f.filename, ...sniffed, size: f.size, ...probed, checksum: f.sha256, storageKey });
    }
    return { files: stored, fields: upload.fields };
  } catch (err) {
    await discardStored(deps.store, stored);
    throw err;
  } finally {
    await upload.discard();
  }
}

/** Deletes the stored bytes of ingested files (their records were never written). */
export async function discardStored(store: MediaStore, files: Pick<IngestedFile, "storageKey">[]): Promise<void> {
  await Promise.all(files.map((f) => store.delete(f.storageKey).catch(() => {})));
}
