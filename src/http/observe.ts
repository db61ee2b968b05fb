// One record per answered request: a JSON log line and the request metrics. Fields are the method,
// the route pattern (never the raw URL, which may carry anything a caller typed), the status, the
// duration, and the key and project ids the route resolved. Secrets are never passed in, so no
// key, token or password can reach the log from here.
import type { Logger } from "../infra/log.ts";
import type { CapaMetrics } from "../infra/metrics.ts";
import type { RequestInfo } from "./context.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The route label of a request no route matched (404s, pre-routing refusals): one series, not one per URL. */
export const UNMATCHED = "unmatched";

/** Records one answered request; `status` is used when no error answer noted its own in the request's info. */
export type Observe = (request: Request, route: string | undefined, status: number) => void;

/** Returns the function app.ts calls once a request is answered. */
export function requestObserver(log: Logger, metrics: CapaMetrics, infoOf: (request: Request) => RequestInfo): Observe {
  return (request, route, fallback) => {
    const i = infoOf(request);
    // Error answers (rendered by app.ts's errorResponse) note their status: Elysia's `set.status`
    // still says 200 for a route-not-found answer.
    const status = i.status ?? fallback;
    const ms = performance.now() - i.start;
    // Methods outside the standard set (a fuzzer's "FOO") share one label value.
    const method = METHODS.has(request.method) ? request.method : "OTHER";
    const label = route || UNMATCHED;
    metrics.requests.inc({ method, route: label, status: String(status) });
    metrics.duration.observe({ route: label }, ms / 1000);
    log.info("request", {
      requestId: i.id,
      method,
      route: route || null,
      status,
      ms: Math.round(ms * 100) / 100,
      keyId: i.keyId ?? null,
      projectId: i.projectId ?? null,
    });
  };
}

/** The status of an answer as Elysia hands it to onAfterResponse. */
export function statusOf(response: unknown, setStatus: unknown): number {
  if (response instanceof Response) return response.status;
  return typeof setStatus === "number" ? setStatus : 200;
}
