// CORS (decisions.md 12): front ends read /api from the browser, so the read host answers
// preflights and lets any origin read its answers; a key's origin list still decides whether a
// read is served (403 origin_refused, which the page can then read). Keys travel in a header,
// never a cookie, so no answer ever carries Access-Control-Allow-Credentials. Management (/v2)
// stays same-origin unless an origin is listed in CAPA_MANAGEMENT_ORIGINS. Public media answers
// `*` (media-files.ts and domain/media/serve.ts), so an <img crossorigin> can be drawn and read.

import { GRAPHQL_ALLOW } from "../graphql/error-render.ts";

/** The request headers a page may send to /api. */
export const API_ALLOW_HEADERS = "x-api-key, content-type, svc-version, svc-contract, svc-page, svc-path, svc-schema, if-none-match";

/** The answer headers a page may read from /api. */
export const API_EXPOSE_HEADERS =
  "ETag, Svc-Version, Svc-Contract, Svc-Key-Id, X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";

/** The methods of the /api read routes (a 405 there carries them in Allow). */
export const API_READ_ALLOW = "GET, HEAD, OPTIONS";

/** The methods a preflight to /api grants. */
const API_ALLOW_METHODS = "GET, HEAD, POST, OPTIONS";

/** The methods and headers a preflight to /v2 grants a listed management origin. */
const V2_ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const V2_ALLOW_HEADERS = "authorization, content-type, x-svc-project, if-match, idempotency-key, x-api-key";
const V2_EXPOSE_HEADERS = "X-Request-Id, Retry-After";

/** How long a browser may keep a preflight's answer, in seconds. */
const MAX_AGE = "600";

/**
 * The Origin header when it is a serialized origin (RFC 6454: `scheme://host[:port]`, http or
 * https, no path, no user), else null. `null` (sandboxed frames, file: pages) and anything
 * malformed get no CORS headers: a browser then lets no page read the answer.
 */
export function corsOrigin(header: string | null): string | null {
  if (header === null || header.length > 300 || !/^https?:\/\/[^/?#@\s]+$/i.test(header)) return null;
  let u: URL;
  try {
    u = new URL(header);
  } catch {
    return null;
  }
  // The URL parser lower-cases and drops a default port; a browser sends the origin that way already.
  return u.origin === header.toLowerCase() || u.origin === header ? header : null;
}

/**
 * corsOrigin with its verdicts kept: a site sends the same few origins on every read, so the hot
 * path parses no URL. One per app; bounded, it starts over past 1,024 origins.
 */
export class CorsOrigins {
  private readonly verdicts = new Map<string, string | null>();

  of(header: string | null): string | null {
    if (header === null) return null;
    const known = this.verdicts.get(header);
    if (known !== undefined) return known;
    const v = corsOrigin(header);
    if (this.verdicts.size >= 1024) this.verdicts.clear();
    this.verdicts.set(header, v);
    return v;
  }
}

/** The headers that let a page on `origin` read an /api answer. */
export function apiCorsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": API_EXPOSE_HEADERS };
}

/** The Allow of an /api path: GraphQL also takes POST. */
export function apiAllow(pathname: string): string {
  return pathname === "/api/graphql" ? GRAPHQL_ALLOW : API_READ_ALLOW;
}

/**
 * The answer to `OPTIONS /api/...`: a preflight (with an acceptable Origin) is granted the fixed
 * lists; the browser itself refuses a method or header outside them. Without Origin it is a
 * plain OPTIONS: 204 with Allow. No key is needed (a preflight carries none).
 */
export function apiPreflight(pathname: string, origin: string | null): Response {
  const headers: Record<string, string> = { allow: apiAllow(pathname), vary: "Origin", "cache-control": "no-store" };
  if (origin !== null) {
    Object.assign(headers, {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": API_ALLOW_METHODS,
      "access-control-allow-headers": API_ALLOW_HEADERS,
      "access-control-max-age": MAX_AGE,
    });
  }
  return new Response(null, { status: 204, headers });
}

/** The headers that let a listed management origin read a /v2 answer. */
export function managementCorsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": V2_EXPOSE_HEADERS, vary: "Origin" };
}

/** The answer to a preflight to /v2 from a listed management origin. */
export function managementPreflight(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": V2_ALLOW_METHODS,
      "access-control-allow-headers": V2_ALLOW_HEADERS,
      "access-control-max-age": MAX_AGE,
      vary: "Origin",
      "cache-control": "no-store",
    },
  });
}
