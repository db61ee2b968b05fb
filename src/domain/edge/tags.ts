// Tags and lifetimes of production answers at the edge (decisions.md 14). Every cacheable answer
// names what it shows in three headers, one per cache: Surrogate-Key (Fastly, space-separated),
// xkey (Varnish's xkey vmod, space-separated) and Cache-Tag (Cloudflare, comma-separated), with
// the tags `project:<id>`, `model:<ns>` per model read, `entry:<id>` per entry shown and
// `key:<keyId>`; GraphQL answers also carry `schema:<projectId>`, because their shape follows the
// project's schema, which any model change rebuilds. Surrogate-Control gives the edge its
// lifetime, never past the key's expiry.
//
// Header room: Varnish keeps a backend header of at most http_resp_hdr_len (8 KiB by default,
// name included) and all headers within http_resp_size (32 KiB); Fastly reads 16,384 bytes of
// Surrogate-Key and Cloudflare 16 KB of Cache-Tag. So each tag header holds at most 8,000 bytes,
// and the three together stay under Varnish's 32 KiB. When the entry tags do not fit, all of them
// are left out and the model tags stand in: every change that purges an entry also purges its
// model (publish, unpublish, delete, and media changes through edge/hooks.ts), so no purge misses
// the answer. An answer whose other tags do not fit cannot be purged at all and is not kept at
// the edge (Surrogate-Control: no-store); browsers still keep it for 60 s.
import type { EdgeSettings } from "./settings.ts";

export const projectTag = (projectId: string) => `project:${projectId}`;
export const modelTag = (namespace: string) => `model:${namespace}`;
export const entryTag = (entryId: string) => `entry:${entryId}`;
export const keyTag = (keyId: string) => `key:${keyId}`;
export const schemaTag = (projectId: string) => `schema:${projectId}`;

/** The most bytes of one tag header's value (see the file comment). */
export const TAG_HEADER_BYTES = 8000;
/** Room kept for the per-request `key:<uuid>` tag (and its separator). */
const KEY_TAG_ROOM = 1 + keyTag("00000000-0000-0000-0000-000000000000").length;

/** An answer's tags without the key's, joined once for the three headers. */
export interface AnswerTags {
  spaced: string;
  commas: string;
}

/**
 * The tags of an answer within the header budget: every tag when they fit, else without the entry
 * tags (the models stand in), else null (the answer cannot be purged, so the edge must not keep it).
 */
export function fitTags(projectId: string, models: readonly string[], entryIds: readonly string[], extra: string[] = []): AnswerTags | null {
  const budget = TAG_HEADER_BYTES - KEY_TAG_ROOM;
  const base = [projectTag(projectId), ...extra, ...models.map(modelTag)];
  const size = (tags: string[]) => tags.reduce((n, t) => n + t.length + 1, -1);
  const all = [...base, ...entryIds.map(entryTag)];
  const tags = size(all) <= budget ? all : size(base) <= budget ? base : null;
  return tags && { spaced: tags.join(" "), commas: tags.join(",") };
}

/** What the serving of one request adds to an answer's tags: its key's tag and the edge's lifetime. */
export interface EdgeServe {
  keyId: string;
  /** The Surrogate-Control value: `max-age=<s>`. */
  control: string;
  /** Cloudflare reads no Surrogate-Control: with a Cloudflare target the lifetime goes in Cloudflare-CDN-Cache-Control too. */
  cloudflare: boolean;
}

/**
 * The edge lifetime of a key's answers at `now`: CAPA_EDGE_TTL, cut to the seconds left before
 * the key expires, so no edge serves an answer to a key past its expiresAt.
 */
export function edgeServe(edge: EdgeSettings, keyId: string, expiresAt: string | null, now: number): EdgeServe {
  let ttl = edge.ttlSeconds;
  if (expiresAt !== null) ttl = Math.max(0, Math.min(ttl, Math.floor((Date.parse(expiresAt) - now) / 1000)));
  return { keyId, control: `max-age=${ttl}`, cloudflare: edge.vendor === "cloudflare" };
}

/** Adds the tag headers and Surrogate-Control of a cacheable answer to `headers`. */
export function addEdgeHeaders(headers: Record<string, string>, tags: AnswerTags | null, serve: EdgeServe): void {
  if (tags === null) {
    headers["surrogate-control"] = "no-store";
    if (serve.cloudflare) headers["cloudflare-cdn-cache-control"] = "no-store";
    return;
  }
  const key = keyTag(serve.keyId);
  const spaced = `${tags.spaced} ${key}`;
  headers["surrogate-key"] = spaced;
  headers.xkey = spaced;
  headers["cache-tag"] = `${tags.commas},${key}`;
  headers["surrogate-control"] = serve.control;
  if (serve.cloudflare) headers["cloudflare-cdn-cache-control"] = serve.control;
}
