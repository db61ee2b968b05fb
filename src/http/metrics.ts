// GET /metrics: the Prometheus text format, for operators only. A caller is let in with the
// CAPA_METRICS_TOKEN bearer (for a scraper), or with a person's access token when that person owns
// a project (domain/access/operator.ts). Everything else is refused like a /v2 route: 401 without
// or with a bad token, 403 for a person who owns no project.
import { Elysia } from "elysia";
import { timingSafeEqual } from "node:crypto";
import type { Services } from "../services.ts";
import type { CapaMetrics } from "../infra/metrics.ts";
import type { RenderCache } from "../infra/render-cache.ts";
import type { Replication } from "../infra/replication.ts";
import { authenticatePerson } from "../domain/access/authenticate.ts";
import { requireOperator } from "../domain/access/operator.ts";

const digest = (s: string) => new Uint8Array(Bun.CryptoHasher.hash("sha256", s) as Uint8Array);

/** Whether the request carries the metrics token (compared in constant time). */
function hasMetricsToken(token: string | null, request: Request): boolean {
  if (!token) return false;
  const m = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return !!m && timingSafeEqual(digest(m[1]!), digest(token));
}

/** Adds the metrics read at scrape time from parts of the app that count for themselves. */
function collectAppMetrics(m: CapaMetrics, s: Services, renderCache: RenderCache, replication: Replication): void {
  const r = m.registry;
  r.counter("capa_render_cache_hits_total", "Read answers served from the rendered-answer cache.").collect(() => renderCache.hits);
  r.counter("capa_render_cache_misses_total", "Read answers that had to be rendered.").collect(() => renderCache.misses);
  r.gauge("capa_open_project_files", "Project files open in the pool.").collect(() => s.projects.openCount);
  r.gauge("process_resident_memory_bytes", "Resident memory of the server process.").collect(() => process.memoryUsage().rss);
  r.gauge("capa_litestream_up", "1 while the Litestream child runs; absent when replication is off.").collect(() =>
    replication.enabled ? (replication.status().state === "running" ? 1 : 0) : null,
  );
  r.counter("capa_litestream_restarts_total", "Litestream restarts after it died or could not start.").collect(() =>
    replication.enabled ? replication.status().restarts : null,
  );
  r.gauge(
    "capa_litestream_watched_files",
    "Files the Litestream processes watch now, over all shards; above capa_litestream_max_watched_files when more were written recently.",
  ).collect(() => (replication.enabled ? replication.status().watched : null));
  r.gauge("capa_litestream_max_watched_files", "CAPA_REPLICA_MAX_WATCHED: files watched at once before quiet ones leave early.").collect(() =>
    replication.enabled ? replication.status().maxWatched : null,
  );
  r.gauge("capa_litestream_lag_seconds", "Estimated seconds the file replica is behind; absent for S3 replicas.").collect(() =>
    replication.enabled ? replication.status().lagSeconds : null,
  );
}

export function metricsRoutes(s: Services, deps: { replication: Replication }) {
  collectAppMetrics(s.metrics, s, s.renderCache, deps.replication);
  return new Elysia().get("/metrics", async ({ request }) => {
    if (!hasMetricsToken(s.config.metricsToken, request)) requireOperator(s, await authenticatePerson(s, request.headers));
    return new Response(s.metrics.registry.render(), {
      headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
    });
  });
}
