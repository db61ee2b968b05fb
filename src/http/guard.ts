// The root of the HTTP app: what every request passes before and after routing.
// - Before routing (onRequest): URL and headers past 16 KB answer a bare 431, a URL that cannot
//   be decoded a bare 400; writes under /api answer 405 on every host; host lists keep /v2 off read
//   hosts and /api off management hosts; with an edge secret, /api needs the edge's header; CORS
//   (below): /api answers preflights and lets the page read every answer, /v2 only for the
//   origins of CAPA_MANAGEMENT_ORIGINS.
// - Errors: an AppError is rendered in the shape of its surface (the /api envelope or the /v2
//   body); anything else is logged with the request id and answers 500 with no detail.
// - After the answer: one request log line and the request metrics.
// Body sizes are per route (src/http/v2/body.ts), so an upload route can stream far more than 1 MB.
import { Elysia } from "elysia";
import { AppError, apiErrorObject, v2Body, type ErrorCode } from "../errors.ts";
import type { Services } from "../services.ts";
import { LATEST_VERSION } from "../domain/versions.ts";
import { requestObserver, statusOf } from "./observe.ts";
import { errorJson, GRAPHQL_ALLOW, refusalBody } from "../graphql/error-render.ts";
import { graphqlContentType } from "./api/graphql-media.ts";

/** URL plus headers past this many bytes answer a bare 431, as the HTTP server does on a socket. */
export const MAX_HEAD_BYTES = 16 * 1024;

/** Whether a request is for the read API surface. */
function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** The size of the request line's target and headers, as the HTTP server would count them. */
function headBytes(request: Request, url: URL): number {
  let n = url.pathname.length + url.search.length;
  request.headers.forEach((v, k) => {
    n += k.length + v.length + 4;
  });
  return n;
}

/**
 * Renders an AppError in the shape of the surface the request was for: the /api envelope, a
 * GraphQL result (`errors`, no `data`) on /api/graphql, or the /v2 body.
 */
export function errorResponse(s: Services, request: Request, err: AppError): Response {
  const info = s.requests.of(request);
  info.status = err.status;
  const url = info.url;
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store", ...err.headers };
  // media-wire: the public file URL (/media/...) answers errors in the /api envelope too.
  if (isApiPath(url.pathname) || url.pathname.startsWith("/media/")) {
    // An invalid-version error states the newest version; others the version resolved so far.
    const version = err.code === "invalid_version" ? LATEST_VERSION : (info.version ?? LATEST_VERSION);
    Object.assign(headers, info.headers, err.headers);
    headers["svc-version"] = version;
    // interface.md: the envelope is for every /api route except GraphQL, whose whole-request
    // refusals are `errors` and no `data`, whatever check refused them.
    if (url.pathname === "/api/graphql") {
      headers["x-request-id"] = info.id;
      headers["content-type"] = graphqlContentType(request.headers.get("accept"));
      if (headers.vary) headers.vary = `${headers.vary}, Accept`;
      return new Response(JSON.stringify(refusalBody([errorJson(err, s.config.docsUrl)])), { status: err.status, headers });
    }
    if (url.pathname.startsWith("/media/")) headers["access-control-allow-origin"] = "*";
    const body = { error: apiErrorObject(err, s.config.docsUrl), meta: { version, contract: 1, requestId: info.id } };
    return new Response(JSON.stringify(body), { status: err.status, headers });
  }
  headers["x-request-id"] = info.id;
  return new Response(JSON.stringify(v2Body(err)), { status: err.status, headers });
}

// CORS (decisions.md 12): front ends read /api from the browser, so the read host answers
// preflights and lets any origin read its answers; a key's origin list still decides whether a
// read is served (403 origin_refused, which the page can then read). Keys travel in a header,
// never a cookie, so no answer ever carries Access-Control-Allow-Credentials. Management (/v2)
// stays same-origin unless an origin is listed in CAPA_MANAGEMENT_ORIGINS. Public media answers
// `*` (media-files.ts and domain/media/serve.ts), so an <img crossorigin> can be drawn and read.

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

/** The refusal of a request before routing, or undefined to let it through. */
function preRouting(s: Services, request: Request, set: { headers: Record<string, string | number> }, origins: CorsOrigins): Response | undefined {
  const config = s.config;
  const url = s.requests.of(request).url;
  if (headBytes(request, url) > MAX_HEAD_BYTES) return new Response(null, { status: 431 });
  try {
    decodeURIComponent(url.pathname + url.search);
  } catch {
    return new Response(null, { status: 400 });
  }
  const host = (request.headers.get("host") ?? url.host).toLowerCase();
  if (isApiPath(url.pathname)) {
    // Every /api answer to a page, errors included, is readable by it (decisions.md 12); the
    // routes' own Vary lists name Origin too.
    const info = s.requests.of(request);
    const origin = origins.of(request.headers.get("origin"));
    if (origin !== null) Object.assign(info.headers, apiCorsHeaders(origin), { vary: "Origin" });
    const method = request.method;
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS" && !(method === "POST" && url.pathname === "/api/graphql")) {
      return errorResponse(s, request, new AppError("mutations_not_enabled", { headers: { allow: apiAllow(url.pathname) } }));
    }
    if (config.managementHosts.includes(host)) return errorResponse(s, request, new AppError("route_not_found"));
    // With an edge secret set, every /api request must come through the edge (decisions.md 1), any path.
    if (config.edgeSecret !== null && request.headers.get("x-svc-edge") !== config.edgeSecret) {
      return errorResponse(s, request, new AppError("edge_only"));
    }
    if (method === "OPTIONS") return apiPreflight(url.pathname, origin);
  } else if (url.pathname.startsWith("/v2/")) {
    if (config.readHosts.includes(host)) return errorResponse(s, request, new AppError("route_not_found"));
    const origin = config.managementOrigins.length ? origins.of(request.headers.get("origin")) : null;
    if (origin !== null && config.managementOrigins.includes(origin)) {
      if (request.method === "OPTIONS") return managementPreflight(origin);
      Object.assign(set.headers, managementCorsHeaders(origin));
    }
  }
  return undefined;
}

/** The path pattern under which the root hands a request to the management routes (src/app.ts). */
export const MANAGEMENT_PATHS = "/v2/*";

/**
 * The answer to an error, for both route trees: an AppError is rendered in its surface's shape;
 * anything else is logged with the request id and answers 500 with no detail.
 */
function errorAnswer(s: Services, code: unknown, error: unknown, request: Request): Response {
  if (error instanceof AppError) return errorResponse(s, request, error);
  const asCode = (c: ErrorCode, opts?: ConstructorParameters<typeof AppError>[1]) => errorResponse(s, request, new AppError(c, opts));
  switch (code) {
    case "NOT_FOUND":
      return asCode("route_not_found");
    case "PARSE":
      return asCode("invalid_json");
    case "VALIDATION": {
      const first = (error as { all?: { path?: string; summary?: string; message?: string }[] }).all?.[0];
      const field = (first?.path ?? "").replace(/^\//, "").replace(/\//g, ".") || "body";
      const why = first?.summary ?? first?.message ?? "is not valid";
      return asCode("invalid_body", { message: `${field}: ${why}`, param: field, extra: { field } });
    }
  }
  s.log.error("unhandled error", {
    requestId: s.requests.of(request).id,
    path: new URL(request.url).pathname,
    error: String((error as Error)?.stack ?? error),
  });
  return asCode("internal");
}

/** The root Elysia instance with the guard's hooks; feature modules are added to it. */
export function guardedApp(s: Services) {
  // The request log line and request metrics; pre-routing refusals never reach onAfterResponse.
  const observe = requestObserver(s.log, s.metrics, (r) => s.requests.of(r));
  const origins = new CorsOrigins();
  return (
    new Elysia()
      // Destructure `request` and `set` only: Elysia reads a hook's parameters to decide what to
      // parse, and a hook that takes the whole context makes it parse every body before the routes
      // read it. Headers put in `set` go on every answer, error answers included.
      .onRequest(({ request, set }) => {
        const res = preRouting(s, request, set as { headers: Record<string, string | number> }, origins);
        if (res) observe(request, undefined, res.status);
        return res;
      })
      .onError(({ code, error, request }) => errorAnswer(s, code, error, request))
      // A request handed to the management routes is logged under the route that answered it there.
      .onAfterResponse(({ request, set, route, responseValue }) =>
        observe(request, route === MANAGEMENT_PATHS ? s.requests.of(request).route : route, statusOf(responseValue, set.status)),
      )
  );
}

/**
 * The root of the management routes (src/app.ts): the root has already run the checks before
 * routing and logs the answer; here errors are rendered alike, and the route that matched is noted
 * for the log line.
 */
export function managementRoot(s: Services) {
  return new Elysia()
    .onTransform(({ request, route }) => {
      s.requests.of(request).route = route;
    })
    .onError(({ code, error, request }) => errorAnswer(s, code, error, request));
}
