// The bounded on-disk cache of image variants: one file per variant under `<dir>/<mediaId>/`, at
// most `maxBytes` in all, the least recently used evicted first. The index lives in memory (an
// lru-cache sized in bytes) and is rebuilt from the folder at start, oldest modification first,
// so a restart keeps the variants made before it. Folders are 0700 and files 0600, as everything
// in the data directory (docs/security.md).
import { LRUCache } from "lru-cache";
import { chmod, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DIR_MODE, FILE_MODE } from "../storage/permissions.ts";
import { assertKey } from "./media-store/types.ts";

/** A variant file in the cache. */
export interface CachedVariant {
  path: string;
  size: number;
}

/** Variant files on disk, bounded in bytes, evicting the least recently used. */
export class VariantCache {
  private readonly lru: LRUCache<string, CachedVariant>;
  /** File removals under way; awaited before a put or drop returns, so the disk matches the index. */
  private readonly removing = new Set<Promise<void>>();

  private constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {
    this.lru = new LRUCache<string, CachedVariant>({
      maxSize: maxBytes,
      sizeCalculation: (v) => Math.max(1, v.size),
      // An entry leaving the index takes its file with it; a replaced entry keeps the (same) path.
      dispose: (v, _key, reason) => {
        if (reason === "set") return;
        const p = rm(v.path, { force: true }).finally(() => this.removing.delete(p));
        this.removing.add(p);
      },
    });
  }

  /** Opens the cache in `dir`, indexing the variants already there. */
  static async open(dir: string, maxBytes: number): Promise<VariantCache> {
    const cache = new VariantCache(dir, maxBytes);
    await rm(join(dir, ".tmp"), { recursive: true, force: true });
    await mkdir(join(dir, ".tmp"), { recursive: true, mode: DIR_MODE });
    const found: { key: string; size: number; mtime: number }[] = [];
    for (const media of await readdir(dir)) {
      if (media === ".tmp") continue;
      for (const name of await readdir(join(dir, media)).catch(() => [] as string[])) {
        const s = await stat(join(dir, media, name)).catch(() => null);
        if (s?.isFile()) found.push({ key: `${media}/${name}`, size: s.size, mtime: s.mtimeMs });
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) cache.lru.set(f.key, { path: join(dir, f.key), size: f.size });
    return cache;
  }

  /** The cached variant of `key` (marking it recently used), or undefined. */
  get(key: string): CachedVariant | undefined {
    return this.lru.get(key);
  }

  /** Writes a variant atomically and indexes it; null when it alone is larger than the whole cache. */
  async put(key: string, data: Uint8Array): Promise<CachedVariant | null> {
    if (data.byteLength > this.maxBytes) return null;
    const path = join(this.dir, assertKey(key));
    const tmp = join(this.dir, ".tmp", crypto.randomUUID());
    await Bun.write(tmp, data);
    await chmod(tmp, FILE_MODE);
    await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
    await rename(tmp, path);
    const v = { path, size: data.byteLength };
    this.lru.set(key, v);
    await this.settle();
    return v;
  }

  /** Forgets and deletes every variant of a media file (it was replaced or deleted). */
  async dropMedia(mediaId: string): Promise<void> {
    const prefix = `${mediaId}/`;
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
    await this.settle();
    await rm(join(this.dir, assertKey(mediaId)), { recursive: true, force: true });
  }

  private async settle(): Promise<void> {
    await Promise.all([...this.removing]);
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** Variants held now. */
  get size(): number {
    return this.lru.size;
  }
}
