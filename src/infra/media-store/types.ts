// The one interface both media stores implement (decisions.md section 10, "Storage"): bytes under
// a key, written whole and atomically, read whole or by byte range. Keys are id-addressed
// (`<projectId>/<mediaId>`): a file's bytes never change under its key, a replaced file gets a new
// id and so a new URL, and deleting a record deletes exactly its bytes (no reference counting as
// content addressing would need).

/** An inclusive byte range, as HTTP Range speaks of it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What `put` stores: a file on local disk (linked or copied), or bytes in memory or in a stream. */
export type PutSource = { path: string } | Blob | Uint8Array | ReadableStream<Uint8Array>;

/** A media store: `local` (a folder) or `s3` (a bucket and prefix). */
export interface MediaStore {
  /** `local` or `s3`, for logs and metrics. */
  readonly driver: "local" | "s3";
  /** Stores the bytes under `key`; readers see the old bytes or the new, never a part. */
  put(key: string, source: PutSource): Promise<void>;
  /** The bytes (or the range of them), or null when nothing is stored under `key`. */
  get(key: string, range?: ByteRange): Promise<Blob | ReadableStream<Uint8Array> | null>;
  /** The stored size, or null when nothing is stored under `key`. */
  head(key: string): Promise<{ size: number } | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the bytes; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The local driver's path of a key (sharp and sendfile read it directly); absent on s3. */
  localPath?(key: string): string;
}

// Each segment starts with a letter or digit, so "." and ".." can never be one.
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$/;

/** Throws unless `key` is a safe store key; stores call it on every key (defence in depth). */
export function assertKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Not a valid media store key: ${JSON.stringify(key)}`);
  return key;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The store key of a media record's bytes; null when either id could name a path outside the store. */
export function mediaStorageKey(projectId: string, mediaId: string): string | null {
  if (!ID.test(projectId) || !ID.test(mediaId)) return null;
  return `${projectId}/${mediaId}`;
}
