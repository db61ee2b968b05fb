// Image variants on demand (decisions.md section 10): each variant is made once and kept in the
// bounded disk cache. Concurrent requests for the same new variant share one render
// (single-flight). A new variant is charged by its cost, the source's pixels (issue 24): against
// its client's token bucket (one token per 12 megapixels of source), and in the render queue
// (infra/render-queue.ts), which is fair between clients, keeps renders within the decode budget,
// and answers 429 with an honest Retry-After when the render would wait more than a few seconds.
// Cached variants and requests joining a render in flight are never limited.
import { LRUCache } from "lru-cache";
import { availableParallelism } from "node:os";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../infra/clock.ts";
import type { MediaStore } from "../../infra/media-store/types.ts";
import { RenderQueue, RenderRefused } from "../../infra/render-queue.ts";
import type { CachedVariant, VariantCache } from "../../infra/variant-cache.ts";
import { checkRender, factsOf, worstRenderBytes } from "./decode-cost.ts";
import { renderVariant } from "./render.ts";
import { loadSharp } from "./sharp.ts";
import { type ResolvedTransform, variantKey } from "./transform.ts";
import type { ServableMedia } from "./types.ts";

/** A new variant costs one token of its client's bucket per this many source pixels (a 12 MP photo: one). */
export const TOKEN_PIXELS = 12_000_000;

/** How variants are made and limited. */
export interface VariantServiceOptions {
  cache: VariantCache;
  clock: Clock;
  /** Pixel limit of a source image (CAPA_MEDIA_MAX_PIXELS). */
  maxPixels: number;
  /** The queue renders run in, shared with uploads' probes; by default one of its own (below). */
  queue?: RenderQueue;
  /** Slots of a queue of its own; default the CPU count, at least 2. */
  concurrency?: number;
  /** Renders that may wait in a queue of its own; default 8 per slot. */
  maxQueue?: number;
  /** Decode budget of a queue of its own, in bytes; default 1 GiB. */
  decodeBudget?: number;
  /** Tokens of one client's bucket: `rate` a second, bursts up to `burst`. Default 2/s, 20. */
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
  readonly queue: RenderQueue;
  private readonly flights = new Map<string, Promise<VariantBody>>();
  // Token buckets per client, in an LRU: the file URL is public, so every IP on the internet may
  // be a client, and a plain map would grow without bound. A forgotten client starts full again;
  // the queue's bound and shares still cap what many clients together can start.
  private readonly buckets: LRUCache<string, { tokens: number; at: number }>;
  private readonly per: { rate: number; burst: number };

  constructor(private readonly opts: VariantServiceOptions) {
    this.queue =
      opts.queue ??
      new RenderQueue({
        slots: opts.concurrency ?? Math.max(2, availableParallelism()),
        budgetBytes: opts.decodeBudget ?? 1024 ** 3,
        clock: opts.clock,
        maxQueue: opts.maxQueue,
      });
    this.per = opts.perClient ?? { rate: 2, burst: 20 };
    this.buckets = new LRUCache({ max: opts.maxClients ?? 10_000 });
  }

  /** `client`'s bucket, refilled to now. */
  private bucket(client: string): { tokens: number; at: number } {
    const now = this.opts.clock.now();
    const { rate, burst } = this.per;
    const b = this.buckets.get(client) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    this.buckets.set(client, b);
    return b;
  }

  /** The tokens a new variant of `media` costs: one per TOKEN_PIXELS of source, at most a whole burst. */
  tokensOf(media: ServableMedia): number {
    const pixels = (media.width ?? 0) * (media.height ?? 0);
    return Math.min(this.per.burst, Math.max(1, Math.ceil(pixels / TOKEN_PIXELS)));
  }

  /** The cache key of a variant: the media id (so its variants drop together), its checksum and the variant. */
  static keyOf(media: ServableMedia, t: ResolvedTransform): string {
    return `${media.id}/${media.checksum.slice(0, 16)}_${variantKey(t)}`;
  }

  /**
   * The variant, from the cache, from a render in flight, or rendered now; throws 429
   * transform_rate_limited. An `exempt` variant (a grid thumbnail, thumbnails.ts) is never charged
   * to the client's bucket and waits its turn in the queue instead of being refused.
   */
  get(media: ServableMedia, store: MediaStore, t: ResolvedTransform, client: string, opts: { exempt?: boolean } = {}): Promise<VariantBody> {
    const key = VariantService.keyOf(media, t);
    const cached = this.opts.cache.get(key);
    if (cached) return Promise.resolve(cached);
    const flying = this.flights.get(key);
    if (flying) return flying;
    if (opts.exempt) {
      const flight = this.render(key, media, store, t, client, false).finally(() => this.flights.delete(key));
      this.flights.set(key, flight);
      return flight;
    }
    // Only the request that starts a render pays for it; those joining it wait for free.
    const tokens = this.tokensOf(media);
    const b = this.bucket(client);
    if (b.tokens < tokens) {
      const wait = Math.max(1, Math.ceil((tokens - b.tokens) / this.per.rate));
      throw new AppError("transform_rate_limited", {
        message: `Too many new image variants from this client; retry in ${wait} s.`,
        headers: { "retry-after": String(wait) },
      });
    }
    let flight: Promise<VariantBody>;
    try {
      flight = this.render(key, media, store, t, client);
    } catch (err) {
      if (!(err instanceof RenderRefused)) throw err;
      throw new AppError("transform_rate_limited", { message: err.message, headers: { "retry-after": String(err.retryAfterS) } });
    }
    // Admitted: now the tokens are spent.
    b.tokens -= tokens;
    flight = flight.finally(() => this.flights.delete(key));
    this.flights.set(key, flight);
    return flight;
  }

  /** Queues the render (throwing RenderRefused at once when the queue will not take it). */
  private render(key: string, media: ServableMedia, store: MediaStore, t: ResolvedTransform, client: string, admit = true): Promise<VariantBody> {
    const local = store.localPath !== undefined;
    const width = media.width ?? 0;
    const height = media.height ?? 0;
    // Until the header is read, the queue holds the most a file of this type and size could need.
    const reserve = width * height > 0 ? worstRenderBytes(media.mimeType, width, height, t) : Number.POSITIVE_INFINITY;
    const job = { client, pixels: width * height, bytes: reserve + (local ? 0 : media.size), kind: `render:${media.mimeType}` };
    return this.queue.run(
      job,
      async (slot) => {
        const input = local && (await store.exists(media.storageKey)) ? store.localPath!(media.storageKey) : await readAll(store, media);
        const sharp = await loadSharp();
        const meta = await sharp(typeof input === "string" ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength), { limitInputPixels: false })
          .metadata()
          .catch(() => null);
        const facts = meta && factsOf(meta);
        if (facts === null) throw new AppError("image_unreadable", { message: "The image cannot be decoded: its header is unreadable." });
        slot.shrink(checkRender(facts, t, this.queue.decodeLimit) + (typeof input === "string" ? 0 : input.byteLength));
        this.renders++;
        const out = await renderVariant(input, t, media.focalPoint, this.opts.maxPixels);
        return (await this.opts.cache.put(key, out.data)) ?? { data: out.data, size: out.data.byteLength };
      },
      { admit },
    );
  }
}

async function readAll(store: MediaStore, media: ServableMedia): Promise<Uint8Array> {
  const body = await store.get(media.storageKey);
  if (body === null) throw new AppError("not_found", { message: "The file's bytes are missing from the media store." });
  return new Uint8Array(await new Response(body).arrayBuffer());
}
