// Image variants on demand (decisions.md section 10): each variant is made once and kept in the
// bounded disk cache. Concurrent requests for the same new variant share one render
// (single-flight); renders run under a semaphore sized to the CPU count with a bounded queue; and
// each client may start only so many new renders (a token bucket), so a burst of new variants
// answers 429 before it can starve anyone's reads. Cached variants are never limited.
import { LRUCache } from "lru-cache";
import { availableParallelism } from "node:os";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../infra/clock.ts";
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
  /** Clients whose buckets are remembered (least recently seen forgotten first). Default 10,000. */
  maxClients?: number;
}

/** A variant ready to send: a cache file, or bytes when the variant is too large to cache. */
export type VariantBody = CachedVariant | { data: Uint8Array; size: number };

/** Makes and caches image variants; one per process, shared by every project. */
export class VariantService {
  /** Renders started since the process began (tests and metrics count them). */
  renders = 0;
  readonly semaphore: Semaphore;
  private readonly flights = new Map<string, Promise<VariantBody>>();
  // Token buckets per client, in an LRU: the file URL is public, so every IP on the internet may
  // be a client, and a plain map would grow without bound. A forgotten client starts full again;
  // the semaphore's bounded queue still caps what many clients together can start.
  private readonly buckets: LRUCache<string, { tokens: number; at: number }>;
  private readonly per: { rate: number; burst: number };

  constructor(private readonly opts: VariantServiceOptions) {
    const size = opts.concurrency ?? availableParallelism();
    this.semaphore = new Semaphore(size, opts.maxQueue ?? size * 8);
    this.per = opts.perClient ?? { rate: 2, burst: 20 };
    this.buckets = new LRUCache({ max: opts.maxClients ?? 10_000 });
  }

  /** Takes a token of `client`'s bucket: 0 when taken, else the seconds until one is there. */
  private take(client: string): number {
    const now = this.opts.clock.now();
    const { rate, burst } = this.per;
    const b = this.buckets.get(client) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    this.buckets.set(client, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / rate));
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
    const wait = this.take(client);
    if (wait > 0) {
      throw new AppError("transform_rate_limited", {
        message: `Too many new image variants from this client; retry in ${wait} s.`,
        headers: { "retry-after": String(wait) },
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
