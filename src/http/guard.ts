// The root of the HTTP app: what every request passes before and after routing.
// - Before routing (onRequest): URL and headers past 16 KB answer a bare 431, a URL that cannot
//   be decoded a bare 400; writes under /api answer 405 on every host; host lists keep /v2 off read
//   hosts and /api off management hosts; with an edge secret, /api needs the edge's header; CORS
//   (cors.ts): /api answers preflights and lets the page read every answer, /v2 only for the
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
import { errorJson, refusalBody } from "../graphql/error-render.ts";
import { graphqlContentType } from "./api/graphql-media.ts";
import { apiAllow, apiCorsHeaders, apiPreflight, CorsOrigins, managementCorsHeaders, managementPreflight } from "./cors.ts";

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
      .onError(({ code, error, request }) => {
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
      })
      .onAfterResponse(({ request, set, route, responseValue }) => observe(request, route, statusOf(responseValue, set.status)))
  );
}
