// Backups of media files (decisions.md section 10): with CAPA_REPLICA_URL set, an upload writes a
// `media_backups` row in its own transaction, and the media-backup job copies the bytes to the
// replica under `<replica>/media/<projectId>/<mediaId>` (beside Litestream's `control.sqlite/` and
// `projects/`), retrying with backoff until done. `restoreMedia` brings every recorded file back
// from there and checks its sha256, for `capa restore`.
import { and, eq, lte } from "drizzle-orm";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Database } from "bun:sqlite";
import { iso } from "../../infra/clock.ts";
import { localStoreRoot, openLocalStore } from "../../infra/media-store/index.ts";
import type { MediaStore } from "../../infra/media-store/types.ts";
import type { Services } from "../../services.ts";
import { mediaBackups } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";

/** Where media backups go: the replica of CAPA_REPLICA_URL (a folder or an S3 bucket and prefix). */
export interface MediaReplica {
  put(key: string, body: Blob | ReadableStream<Uint8Array>): Promise<void>;
  /** The bytes under `key`, or null. */
  get(key: string): Promise<Blob | null>;
}

/** The replica settings of the configuration. */
export interface ReplicaTarget {
  replicaUrl: string;
  replicaEndpoint?: string | null;
  replicaRegion?: string | null;
}

/** The media replica of a replica URL: `file:` a folder, `s3:` a bucket (Bun's S3 client). */
export function mediaReplica(t: ReplicaTarget): MediaReplica {
  if (t.replicaUrl.startsWith("file:")) {
    const root = join(fileURLToPath(t.replicaUrl), "media");
    return {
      async put(key, body) {
        const final = join(root, key);
        const tmp = `${final}.${crypto.randomUUID()}.part`;
        await mkdir(dirname(final), { recursive: true });
        try {
          if (body instanceof Blob) await Bun.write(tmp, body);
          else await Bun.write(tmp, new Response(body));
          await rename(tmp, final);
        } catch (err) {
          await rm(tmp, { force: true });
          throw err;
        }
      },
      async get(key) {
        const f = Bun.file(join(root, key));
        return (await f.exists()) ? f : null;
      },
    };
  }
  const u = new URL(t.replicaUrl);
  const prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, "");
  const client = new Bun.S3Client({ bucket: u.host, endpoint: t.replicaEndpoint ?? undefined, region: t.replicaRegion ?? undefined });
  const keyOf = (key: string) => (prefix ? `${prefix}/media/${key}` : `media/${key}`);
  return {
    async put(key, body) {
      await client.write(keyOf(key), body instanceof Blob ? body : new Response(body));
    },
    async get(key) {
      const f = client.file(keyOf(key));
      return (await f.exists()) ? f : null;
    },
  };
}

/** Queues the backup of a new file, in the upload's transaction. */
export function queueBackup(s: Services, h: ProjectHandle, mediaId: string, storageKey: string): void {
  const now = iso(s.clock.now());
  h.db.insert(mediaBackups).values({ mediaId, storageKey, state: "pending", nextAttemptAt: now, createdAt: now }).run();
}

/** The wait before attempt `n + 1`: 1 s doubling to at most 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.min(attempts, 20));
}

/** Files copied per project per tick. */
const BATCH = 20;

/**
 * Copies a project's due backups to the replica; answers how many stay pending. A failure keeps
 * the row pending with its error and a later attempt; a file whose record was deleted meanwhile
 * has no bytes any more and its row goes.
 */
export async function backupProject(s: Services, h: ProjectHandle, store: MediaStore, replica: MediaReplica): Promise<number> {
  const now = s.clock.now();
  const due = h.db
    .select()
    .from(mediaBackups)
    .where(and(eq(mediaBackups.state, "pending"), lte(mediaBackups.nextAttemptAt, iso(now))))
    .limit(BATCH)
    .all();
  for (const row of due) {
    try {
      const body = await store.get(row.storageKey);
      if (body === null) {
        write(s, h, () => h.db.delete(mediaBackups).where(eq(mediaBackups.mediaId, row.mediaId)).run());
        continue;
      }
      await replica.put(row.storageKey, body);
      write(s, h, () =>
        h.db
          .update(mediaBackups)
          .set({ state: "done", doneAt: iso(s.clock.now()), lastError: null })
          .where(eq(mediaBackups.mediaId, row.mediaId))
          .run(),
      );
    } catch (err) {
      const attempts = row.attempts + 1;
      write(s, h, () =>
        h.db
          .update(mediaBackups)
          .set({ attempts, nextAttemptAt: iso(now + backoffMs(attempts)), lastError: String(err).slice(0, 500) })
          .where(eq(mediaBackups.mediaId, row.mediaId))
          .run(),
      );
    }
  }
  return (h.sqlite.query("SELECT count(*) AS n FROM media_backups WHERE state = 'pending'").get() as { n: number }).n;
}

/** Brings back every recorded file of a restored project file into `store`; throws naming the first missing or altered file. */
export async function restoreMedia(projectFile: string, projectId: string, store: MediaStore, replica: MediaReplica): Promise<number> {
  const db = new Database(projectFile, { readonly: true });
  let rows: { id: string; storage_key: string; checksum: string }[];
  try {
    rows = db.query("SELECT id, storage_key, checksum FROM media").all() as typeof rows;
  } finally {
    db.close();
  }
  for (const r of rows) {
    const blob = await replica.get(r.storage_key);
    if (blob === null) throw new Error(`the replica holds no copy of media file ${r.id} of project ${projectId}`);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const sum = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    if (sum !== r.checksum) throw new Error(`the replica's copy of media file ${r.id} of project ${projectId} does not match its checksum`);
    await store.put(r.storage_key, bytes);
  }
  return rows.length;
}

/**
 * `capa restore`: the media files of every restored project file (`projects/<id>.sqlite`, relative
 * to the data directory) back into the local store; answers how many files came back.
 */
export async function restoreProjectsMedia(t: ReplicaTarget, dataDir: string, restored: string[]): Promise<number> {
  const store = await openLocalStore(localStoreRoot(dataDir));
  const replica = mediaReplica(t);
  let n = 0;
  for (const rel of restored) {
    const m = /^projects\/([^/]+)\.sqlite$/.exec(rel);
    if (m) n += await restoreMedia(join(dataDir, rel), m[1]!, store, replica);
  }
  return n;
}

/**
 * Whether a project file has backups pending, read through a connection of its own (read-only,
 * closed at once) so a start-up scan neither keeps every project open in the pool nor wakes its
 * replication; a file without the table (not migrated yet) has none.
 */
export function hasPendingBackups(projectFile: string): boolean {
  let db: Database | null = null;
  try {
    db = new Database(projectFile, { readonly: true });
    return db.query("SELECT 1 FROM media_backups WHERE state = 'pending' LIMIT 1").get() !== null;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}
