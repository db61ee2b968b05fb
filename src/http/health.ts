// GET /healthz: is this server fit to serve? Storage (the control file answers a query), Litestream,
// the edge purges (docs/scaling.md) and the background loops, with one overall word. It answers 200 while the server can serve, even
// with replication down ("degraded"), and 503 only when storage fails, so a load balancer takes
// the instance out only when it cannot answer reads. No authentication: it holds no content.
import { Elysia } from "elysia";
import type { Services } from "../services.ts";
import type { JobTable } from "../infra/jobs.ts";
import type { Replication } from "../infra/replication.ts";
import { probeControl } from "../storage/sqlite.ts";

/** A Litestream error this recent makes the server "degraded". */
const RECENT_ERROR_MS = 60_000;
/** A replica this far behind is stuck, even when Litestream runs and says nothing (it can hang on a bad replica). */
const LAG_DEGRADED_SECONDS = 60;
/** A purge waiting this long means an edge cache serves content that changed (docs/scaling.md, "Purge lag"). */
export const PURGE_LAG_DEGRADED_SECONDS = 60;

export function healthRoutes(s: Services, deps: { jobs: JobTable; replication: Replication }) {
  const started = Date.now();
  return new Elysia().get("/healthz", () => {
    let storage: { ok: boolean; openProjects: number; error?: string };
    try {
      probeControl(s.control.sqlite);
      storage = { ok: true, openProjects: s.projects.openCount };
    } catch (e) {
      s.log.error("health: control file failed", { error: String(e) });
      storage = { ok: false, openProjects: s.projects.openCount, error: "the control file does not answer" };
    }
    const litestream = deps.replication.status();
    const recentError = litestream.lastErrorAt !== null && Date.now() - Date.parse(litestream.lastErrorAt) < RECENT_ERROR_MS;
    const targets = s.edge.enabled ? s.edge.status() : [];
    const purgeLagging = targets.some((t) => (t.oldestSeconds ?? 0) > PURGE_LAG_DEGRADED_SECONDS);
    const degraded =
      litestream.state === "down" || (litestream.state === "running" && recentError) || (litestream.lagSeconds ?? 0) > LAG_DEGRADED_SECONDS || purgeLagging;
    const status = !storage.ok ? "down" : degraded ? "degraded" : "ok";
    const body = {
      status,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      storage,
      litestream,
      edge: { purging: s.edge.enabled, ttlSeconds: s.config.edge.ttlSeconds, targets },
      loops: deps.jobs.status().map((j) => ({ ...j, lastRunAt: j.lastRunAt === null ? null : new Date(j.lastRunAt).toISOString() })),
    };
    return new Response(JSON.stringify(body), {
      status: storage.ok ? 200 : 503,
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    });
  });
}
