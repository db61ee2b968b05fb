// The media library's long-lived parts for one app: the store, the variant cache, the render queue
// (every decode of an upload or a variant runs in it) and the variant service, opened once (the stores open asynchronously, so the first request that needs them waits
// for the opening) and shared by the upload routes and the public file route.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import type { Clock } from "../../infra/clock.ts";
import { localStoreRoot, openMediaStore, type MediaStore } from "../../infra/media-store/index.ts";
import { RenderQueue } from "../../infra/render-queue.ts";
import { VariantCache } from "../../infra/variant-cache.ts";
import { VariantService } from "./variants.ts";

/** What the media routes use. */
export interface MediaParts {
  store: MediaStore;
  queue: RenderQueue;
  variants: VariantService;
  cache: VariantCache;
  /** Where uploads stream their temp files: inside the local store's folder, so a put is a hard link. */
  tmpDir: string;
}

/** Opens the media parts on first use; `ready()` answers the same parts every time. */
export class MediaRuntime {
  private opening: Promise<MediaParts> | null = null;
  /** Projects that may have pending backups; null until the first backup tick scans every project. */
  backupsDue: Set<string> | null = null;

  constructor(
    private readonly config: Config,
    private readonly clock: Clock,
  ) {}

  /** The opened parts (opening them on the first call). */
  ready(): Promise<MediaParts> {
    this.opening ??= this.open();
    return this.opening;
  }

  private async open(): Promise<MediaParts> {
    const m = this.config.media;
    const store = await openMediaStore({ store: m.store, dataDir: this.config.dataDir, s3Endpoint: m.s3Endpoint, s3Region: m.s3Region });
    // The local store empties its own .tmp at open; uploads use a sibling folder it never clears under them.
    const tmpDir = join(localStoreRoot(this.config.dataDir), ".uploads");
    // One process owns a data directory: what is there at open is what a crash left mid-upload.
    await rm(tmpDir, { recursive: true, force: true });
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    const cache = await VariantCache.open(join(this.config.dataDir, "variants"), m.variantCacheBytes);
    const queue = new RenderQueue({ slots: m.renderSlots, budgetBytes: m.decodeBudget, clock: this.clock });
    const variants = new VariantService({ cache, clock: this.clock, maxPixels: m.maxPixels, perClient: m.perClient, queue });
    return { store, queue, variants, cache, tmpDir };
  }
}
