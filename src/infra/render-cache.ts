// The in-process LRU of rendered production answers. Each project has a generation number that
// every publish, unpublish, delete and model change bumps, so stale answers become unreachable
// at once and age out of the LRU.
import { LRUCache } from "lru-cache";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { addEdgeHeaders, fitTags, type AnswerTags, type EdgeServe } from "../domain/edge/tags.ts";

export interface CachedAnswer {
  body: Uint8Array;
  etag: string;
  /** The model namespaces and entry ids the answer holds (what Svc-Page records, and its tags). */
  readonly models: readonly string[];
  readonly entryIds: readonly string[];
  /** The tags the edge headers carry, within their size limit; null when they cannot all fit (domain/edge/tags.ts). */
  edge: AnswerTags | null;
  gzip?: Uint8Array;
  br?: Uint8Array;
}

export const COMPRESS_ABOVE = 8 * 1024;

export class RenderCache {
  private readonly lru: LRUCache<string, CachedAnswer>;
  private readonly generations = new Map<string, number>();
  hits = 0;
  misses = 0;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.lru = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (v) => v.body.byteLength + (v.gzip?.byteLength ?? 0) + (v.br?.byteLength ?? 0) + 256,
    });
  }

  /** The bytes the cache holds now, as counted against its bound (CAPA_RENDER_CACHE_MB). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** The cache key prefix of a project: its id and current generation. */
  prefix(projectId: string): string {
    return `${projectId}|${this.generations.get(projectId) ?? 0}|`;
  }

  /** Makes every cached answer of a project unreachable. */
  invalidate(projectId: string): void {
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
  }

  get(key: string): CachedAnswer | undefined {
    const v = this.lru.get(key);
    if (v) this.hits++;
    else this.misses++;
    return v;
  }

  set(key: string, v: CachedAnswer): void {
    this.lru.set(key, v);
  }
}

/**
 * A rendered answer of a project: its bytes, strong ETag and tags (project, `extra`, models,
 * entries); the key's tag is added per request.
 */
export function renderedAnswer(body: Uint8Array, projectId: string, models: string[], entryIds: string[], extra: string[] = []): CachedAnswer {
  return new Rendered(body, projectId, models, entryIds, extra);
}

/**
 * The ETag and tags are made when first asked for: an uncached development answer is sent
 * without them (serveAnswer uses them only for a cacheable one, Svc-Page only when named), and a
 * cached one asks once. Hashing 4 KB and fitting 50 entry tags was a tenth of the main thread's
 * work of such a read.
 */
class Rendered implements CachedAnswer {
  gzip?: Uint8Array;
  br?: Uint8Array;
  #etag: string | undefined;
  #edge: AnswerTags | null | undefined;

  constructor(
    readonly body: Uint8Array,
    private readonly projectId: string,
    readonly models: readonly string[],
    readonly entryIds: readonly string[],
    private readonly extra: string[],
  ) {}

  get etag(): string {
    this.#etag ??= etagOf(this.body);
    return this.#etag;
  }

  get edge(): AnswerTags | null {
    if (this.#edge === undefined) this.#edge = fitTags(this.projectId, this.models, this.entryIds, this.extra);
    return this.#edge;
  }
}

/**
 * The answer without its edge tags, for a read during which the project changed: the change's
 * purge may reach the edge before this answer does, so the edge must not keep it (its headers
 * say Surrogate-Control: no-store). The request still gets it, as Capa's own cache would have.
 */
export function unkept(answer: CachedAnswer): CachedAnswer {
  // Properties named one by one: a rendered answer's ETag and tags are getters, which a spread drops.
  return { body: answer.body, etag: answer.etag, models: answer.models, entryIds: answer.entryIds, edge: null, gzip: answer.gzip, br: answer.br };
}

/** The Vary of a keyed answer: Accept-Encoding joins when the body is large enough to be compressed. */
export function varyFor(answer: CachedAnswer, keyedVary: string): string {
  return answer.body.byteLength > COMPRESS_ABOVE ? `${keyedVary}, Accept-Encoding` : keyedVary;
}

/** A strong ETag of a body. */
export function etagOf(body: Uint8Array): string {
  return `"${Bun.hash(body).toString(16).padStart(16, "0")}${body.byteLength.toString(16)}"`;
}

/** Picks an encoding the caller accepts (brotli, then gzip) for a body over 8 KB; compresses once per answer. */
export function encodeFor(answer: CachedAnswer, acceptEncoding: string | null): { bytes: Uint8Array; encoding: string | null } {
  if (answer.body.byteLength <= COMPRESS_ABOVE || !acceptEncoding) return { bytes: answer.body, encoding: null };
  const ae = acceptEncoding.toLowerCase();
  if (/\bbr\b/.test(ae)) {
    answer.br ??= new Uint8Array(brotliCompressSync(answer.body));
    return { bytes: answer.br, encoding: "br" };
  }
  if (/\bgzip\b/.test(ae)) {
    answer.gzip ??= gzipSync(answer.body);
    return { bytes: answer.gzip, encoding: "gzip" };
  }
  return { bytes: answer.body, encoding: null };
}

/**
 * The answer to a request for a rendered answer: the encoding the caller accepts, and for a
 * cacheable answer (`edge` given) its strong ETag (each encoding is its own representation, so it
 * gets its own tag), the edge's tag headers and lifetime, and a 304 when If-None-Match names that
 * tag. If-None-Match compares weakly (RFC 9110 13.1.2): a CDN may hand the client W/"<tag>".
 * `headers` is completed in place.
 */
export function serveAnswer(request: Request, answer: CachedAnswer, headers: Record<string, string>, edge: EdgeServe | "browser" | null): Response {
  const enc = encodeFor(answer, request.headers.get("accept-encoding"));
  if (edge) {
    const etag = enc.encoding ? `${answer.etag.slice(0, -1)}-${enc.encoding}"` : answer.etag;
    headers.etag = etag;
    // "browser": an ETag and its 304 for a client's own cache, and nothing for an edge to keep.
    if (edge !== "browser") addEdgeHeaders(headers, answer.edge, edge);
    const inm = request.headers.get("if-none-match");
    const matches = (t: string) => t === "*" || t.replace(/^W\//, "") === etag;
    if (inm?.split(",").some((t) => matches(t.trim()))) return new Response(null, { status: 304, headers });
  }
  if (enc.encoding) headers["content-encoding"] = enc.encoding;
  return new Response(enc.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
}
