// Image variants on demand (decisions.md section 10): each variant is made once and kept in the
// bounded disk cache. Concurrent requests for the same new variant share one render
// (single-flight); renders run under a semaphore sized to the CPU count with a bounded queue; and
// each client may start only so many new renders (a token bucket), so a burst of new variants
// answers 429 before it can starve anyone's reads. Cached variants are never limited.
import { availableParallelism } from "node:os";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../infra/clock.ts";
import { RateLimiter } from "../../infra/limits.ts";
import type { MediaStore } from "../../infra/media-store/types.ts";
import { QueueFull, Semaphore } from "../../infra/semaphore.ts";
import type { CachedVariant, VariantCache } from "../../infra/variant-cache.ts";
import { renderVariant } from "./render.ts";
import { type ResolvedTransform, variantKey } from "./transform.ts";
import type { ServableMedia } from "./types.ts";

/** How variants are made and limited. */
export interface VariantServiceOptions {
  cache: VariantCache;
  clock: Clock;
  /** Pixel limit of a source image (CAPA_MEDIA_MAX_PIXELS). */
  maxPixels: number;
  /** Renders at once; default the CPU count. */
  concurrency?: number;
  /** Renders that may wait for a slot; past it a new variant answers 429. Default 8 per slot. */
  maxQueue?: number;
  /** New variants one client may start: `rate` a second, bursts up to `burst`. Default 2/s, 20. */
  perClient?: { rate: number; burst: number };
}

/** A variant ready to send: a cache file, or bytes when the variant is too large to cache. */
export type VariantBody = CachedVariant | { data: Uint8Array; size: number };

/** Makes and caches image variants; one per process, shared by every project. */
export class VariantService {
  /** Renders started since the process began (tests and metrics count them). */
  renders = 0;
  readonly semaphore: Semaphore;
  private readonly flights = new Map<string, Promise<VariantBody>>();
  private readonly limiter: RateLimiter;

  constructor(private readonly opts: VariantServiceOptions) {
    const size = opts.concurrency ?? availableParallelism();
    this.semaphore = new Semaphore(size, opts.maxQueue ?? size * 8);
    const per = opts.perClient ?? { rate: 2, burst: 20 };
    this.limiter = new RateLimiter(per.rate, per.burst);
  }

  /** The cache key of a variant: the media id (so its variants drop together), its checksum and the variant. */
  static keyOf(media: ServableMedia, t: ResolvedTransform): string {
    return `${media.id}/${media.checksum.slice(0, 16)}_${variantKey(t)}`;
  }

  /** The variant, from the cache, from a render in flight, or rendered now; throws 429 transform_rate_limited. */
  get(media: ServableMedia, store: MediaStore, t: ResolvedTransform, client: string): Promise<VariantBody> {
    const key = VariantService.keyOf(media, t);
    const cached = this.opts.cache.get(key);
    if (cached) return Promise.resolve(cached);
    const flying = this.flights.get(key);
    if (flying) return flying;
    // Only the request that starts a render pays for it; those joining it wait for free.
    const decision = this.limiter.take(client, this.opts.clock.now());
    if (!decision.ok) {
      throw new AppError("transform_rate_limited", {
        message: `Too many new image variants from this client; retry in ${decision.retryAfter} s.`,
        headers: { "retry-after": String(decision.retryAfter) },
      });
    }
    const flight = this.render(key, media, store, t).finally(() => this.flights.delete(key));
    this.flights.set(key, flight);
    return flight;
  }

  private async render(key: string, media: ServableMedia, store: MediaStore, t: ResolvedTransform): Promise<VariantBody> {
    try {
      return await this.semaphore.run(async () => {
        const input = store.localPath && (await store.exists(media.storageKey)) ? store.localPath(media.storageKey) : await readAll(store, media);
        this.renders++;
        const out = await renderVariant(input, t, media.focalPoint, this.opts.maxPixels);
        return (await this.opts.cache.put(key, out.data)) ?? { data: out.data, size: out.data.byteLength };
      });
    } catch (err) {
      if (err instanceof QueueFull) {
        throw new AppError("transform_rate_limited", {
          message: "The server is busy making other image variants.",
          headers: { "retry-after": "1" },
        });
      }
      throw err;
    }
  }
}

async function readAll(store: MediaStore, media: ServableMedia): Promise<Uint8Array> {
  const body = await store.get(media.storageKey);
  if (body === null) throw new AppError("not_found", { message: "The file's bytes are missing from the media store." });
  return new Uint8Array(await new Response(body).arrayBuffer());
}
