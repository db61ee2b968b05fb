// Opens the media store CAPA_MEDIA_STORE names: `local` (default, under the data directory) or
// `s3://bucket/prefix`.
import { join } from "node:path";
import { openLocalStore } from "./local.ts";
import { openS3Store, parseS3Url } from "./s3.ts";
import type { MediaStore } from "./types.ts";

export { openLocalStore } from "./local.ts";
export { openS3Store, parseS3Url, type S3StoreOptions } from "./s3.ts";
export { assertKey, mediaStorageKey, type ByteRange, type MediaStore, type PutSource } from "./types.ts";

/** The settings the store needs (from config.ts). */
export interface MediaStoreConfig {
  /** `local` or `s3://bucket/prefix`. */
  store: string;
  dataDir: string;
  s3Endpoint?: string | null;
  s3Region?: string | null;
  /** Credentials; when absent Bun's client reads S3_ACCESS_KEY_ID / AWS_ACCESS_KEY_ID (and the secrets) itself. */
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
}

/** The folder of the local store: `<dataDir>/media`. */
export function localStoreRoot(dataDir: string): string {
  return join(dataDir, "media");
}

/** Opens the configured store; throws on a value that is neither `local` nor an s3 URL. */
export async function openMediaStore(cfg: MediaStoreConfig): Promise<MediaStore> {
  if (cfg.store === "local") return openLocalStore(localStoreRoot(cfg.dataDir));
  const s3 = parseS3Url(cfg.store);
  if (!s3) throw new Error(`CAPA_MEDIA_STORE must be local or s3://bucket/prefix, got "${cfg.store}"`);
  return openS3Store({ ...s3, endpoint: cfg.s3Endpoint, region: cfg.s3Region, accessKeyId: cfg.s3AccessKeyId, secretAccessKey: cfg.s3SecretAccessKey });
}
