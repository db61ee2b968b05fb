// createApp(config) -> { app, services, close }: the whole server, shared by main.ts and tests.
import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { AppError, apiErrorObject, docsPage, v2Body, type ErrorCode } from "./errors.ts";
import { systemClock, systemIds, type Clock, type Ids } from "./infra/clock.ts";
import { createLogger, type Logger } from "./infra/log.ts";
import { openControl } from "./storage/sqlite.ts";
import { closeHandle, ProjectPool } from "./storage/pool.ts";
import { createChangeBus, type Services } from "./services.ts";
import { serverSecret } from "./domain/secrets.ts";
import { sessionRoutes } from "./http/v2/sessions.ts";
import { projectRoutes } from "./http/v2/projects.ts";
import { modelRoutes } from "./http/v2/models.ts";
import { entryRoutes } from "./http/v2/entries.ts";
import { LATEST_VERSION } from "./domain/versions.ts";
import { requestInfo as infoOf } from "./http/context.ts";
import { KeyAuth } from "./domain/keys/auth.ts";
import { keyRoutes } from "./http/v2/keys.ts";
import { versionRoutes } from "./http/api/versions.ts";
import { meRoutes } from "./http/api/me.ts";
import { legacyRoutes } from "./http/legacy.ts";
import { entryReadRoutes } from "./http/api/entries.ts";
import { graphqlRoutes } from "./http/api/graphql.ts";
import { pageRoutes } from "./http/api/pages.ts";
import { previewRoutes } from "./http/api/preview.ts";
import { previewTokenRoutes } from "./http/v2/preview.ts";
import { RenderCache } from "./infra/render-cache.ts";
import { PageRecorder } from "./domain/pages/service.ts";
import { JobTable } from "./infra/jobs.ts";
import { createMetrics } from "./infra/metrics.ts";
import { Replication } from "./infra/replication.ts";
import { dataFiles } from "./storage/files.ts";
import { healthRoutes } from "./http/health.ts";
import { metricsRoutes } from "./http/metrics.ts";
import { requestObserver, statusOf } from "./http/observe.ts";
import { schedulingRoutes } from "./http/v2/scheduling.ts";
import { bulkRoutes } from "./http/v2/bulk.ts";
import { schedulerJob } from "./domain/scheduling/runner.ts";
import { bulkBatchJob } from "./domain/bulk/runner.ts";
import { webhookRoutes } from "./http/v2/webhooks.ts";
import { stopWebhooks, webhookTick } from "./domain/webhooks/sender.ts";
import { InFlight, RateLimiter } from "./infra/limits.ts";
import { ReadPool } from "./infra/read-pool.ts";
import { workspaceRoutes } from "./http/v2/workspaces.ts";
import { layoutRoutes } from "./http/v2/layouts.ts";
import { fieldChangeRoutes } from "./http/v2/field-changes.ts";
import { runFieldChanges } from "./domain/field-changes/runner.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppDeps {
  clock?: Clock;
  ids?: Ids;
  log?: Logger;
}

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

export function createApp(config: Config, deps: AppDeps = {}) {
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? systemIds;
  const log = deps.log ?? createLogger(config.logLevel);
  // litestream-shards: replicated files are opened so that only Litestream checkpoints them.
  const replicated = config.replicaUrl !== null;
  const control = openControl(join(config.dataDir, "control.sqlite"), { replicated });
  const secret = config.jwtSecret ?? serverSecret(control.db, "jwt", () => crypto.getRandomValues(new Uint8Array(32)).toBase64());
  const signer = jwt({ name: "jwt", secret, alg: "HS256" }).decorator.jwt;
  const services: Services = {
    config,
    clock,
    ids,
    log,
    control,
    projects: new ProjectPool(join(config.dataDir, "projects"), config.openProjectsMax, config.projectIdleMs, replicated),
    tokens: {
      sign: (payload) => signer.sign(payload),
      verify: async (token) => (await signer.verify(token, { currentDate: new Date(clock.now()) })) || false,
    },
    changes: createChangeBus(),
    keys: undefined as unknown as KeyAuth,
    metrics: createMetrics(),
    limits: { inFlight: new InFlight(), rate: new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst) },
  };
  const docsBase = config.docsUrl;
  const keys = new KeyAuth(services);
  services.keys = keys;
  const requestInfo = (request: Request) => infoOf(request, ids.uuid);
  // Key use is written in batches off the request path.
  const renderCache = new RenderCache();
  // Uncached entries reads run on worker threads; they are told about model changes and removed files.
  const readPool = new ReadPool(
    {
      size: config.readPoolSize,
      dir: join(config.dataDir, "projects"),
      openMax: config.openProjectsMax,
      idleMs: config.projectIdleMs,
      waitMs: config.readWaitMs,
      timeoutMs: config.readTimeoutMs,
      replicated,
    },
    log,
  );
  services.changes.on("models", (projectId) => readPool.broadcast({ type: "models", projectId }));
  readPool.onRefuse = (limit) => services.metrics.refusals.inc({ limit });
  services.limits.inFlight.onRefuse = (limit) => services.metrics.refusals.inc({ limit });
  services.projects.onRemove((projectId) => readPool.broadcast({ type: "drop", projectId }));
  // Background loops register here; main.ts starts them, tests run their bodies directly.
  const jobs = new JobTable(clock, log);
  // Litestream replication (off without CAPA_REPLICA_URL): main.ts starts it; its monitor is a job.
  const replication = new Replication({
    dataDir: config.dataDir,
    replica: config.replicaUrl ? { replicaUrl: config.replicaUrl, replicaEndpoint: config.replicaEndpoint, replicaRegion: config.replicaRegion } : null,
    files: () => dataFiles(control.sqlite),
    shardSize: config.replicaShardSize,
    idleMs: config.replicaIdleMs,
    log,
    clock,
  });
  if (replication.enabled) jobs.add({ name: "replication", pattern: "* * * * * *", run: (now) => replication.tick(now) });
  // The request log line and request metrics; pre-routing refusals never reach onAfterResponse.
  const observe = requestObserver(log, services.metrics, requestInfo);
  // Destructure `request` only: Elysia reads a hook's parameters to decide what to parse, and a
  // hook that takes the whole context makes it parse every body before the routes read it.
  const observed =
    (fn: (c: { request: Request }) => Response | undefined) =>
    ({ request }: { request: Request }) => {
      const res = fn({ request });
      if (res) observe(request, undefined, res.status);
      return res;
    };
  jobs.add(schedulerJob(services));
  jobs.add(bulkBatchJob(services));
  jobs.add({ name: "field-changes", pattern: "* * * * * *", run: async (now) => void (await runFieldChanges(services, now)) });
  jobs.add({ name: "webhooks", pattern: "* * * * * *", run: (now) => webhookTick(services, now) });
  const pages = new PageRecorder(services);
  const flushBatches = () => {
    try {
      keys.flush();
      pages.flush();
    } catch (e) {
      log.error("batched write failed", { error: String(e) });
    }
  };
  const flushTimer = setInterval(flushBatches, 10_000);
  flushTimer.unref?.();

  /** Renders an AppError in the shape of the surface the request was for. */
  function errorResponse(request: Request, err: AppError): Response {
    const info = requestInfo(request);
    info.status = err.status;
    const url = info.url;
    const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store", ...err.headers };
    const rid = info.id;
    if (isApiPath(url.pathname)) {
      const base = docsBase ?? url.origin;
      // An invalid-version error states the newest version; others the version resolved so far.
      const version = err.code === "invalid_version" ? LATEST_VERSION : (info.version ?? LATEST_VERSION);
      Object.assign(headers, info.headers, err.headers);
      headers["svc-version"] = version;
      const body = { error: apiErrorObject(err, base), meta: { version, contract: 1, requestId: rid } };
      return new Response(JSON.stringify(body), { status: err.status, headers });
    }
    headers["x-request-id"] = rid;
    return new Response(JSON.stringify(v2Body(err)), { status: err.status, headers });
  }

  const app = new Elysia()
    .onRequest(
      observed(({ request }) => {
        const url = requestInfo(request).url;
        if (headBytes(request, url) > MAX_HEAD_BYTES) return new Response(null, { status: 431 });
        try {
          decodeURIComponent(url.pathname + url.search);
        } catch {
          return new Response(null, { status: 400 });
        }
        const host = (request.headers.get("host") ?? url.host).toLowerCase();
        const api = isApiPath(url.pathname);
        if (api) {
          const method = request.method;
          if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS" && !(method === "POST" && url.pathname === "/api/graphql")) {
            return errorResponse(request, new AppError("mutations_not_enabled"));
          }
          if (config.managementHosts.includes(host)) return errorResponse(request, new AppError("route_not_found"));
          // With an edge secret set, every /api request must come through the edge (decisions.md 1), any path.
          if (config.edgeSecret !== null && request.headers.get("x-svc-edge") !== config.edgeSecret) {
            return errorResponse(request, new AppError("edge_only"));
          }
        } else if (url.pathname.startsWith("/v2/") && config.readHosts.includes(host)) {
          return errorResponse(request, new AppError("route_not_found"));
        }
        const len = Number(request.headers.get("content-length") ?? 0);
        if (len > MAX_BODY_BYTES) return errorResponse(request, new AppError("payload_too_large"));
      }),
    )
    .onError(({ code, error, request }) => {
      if (error instanceof AppError) return errorResponse(request, error);
      const asCode = (c: ErrorCode, opts?: ConstructorParameters<typeof AppError>[1]) => errorResponse(request, new AppError(c, opts));
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
      log.error("unhandled error", {
        requestId: requestInfo(request).id,
        path: new URL(request.url).pathname,
        error: String((error as Error)?.stack ?? error),
      });
      return asCode("internal");
    })
    .onAfterResponse(({ request, set, route, responseValue }) => observe(request, route, statusOf(responseValue, set.status)))
    .get("/docs/errors/:code", ({ params }) => {
      const page = docsPage(params.code);
      if (!page) throw new AppError("route_not_found");
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=3600" } });
    })
    .use(healthRoutes(services, { jobs, replication }))
    .use(metricsRoutes(services, { metrics: services.metrics, renderCache, replication }))
    .use(sessionRoutes(services))
    .use(projectRoutes(services, replication))
    .use(modelRoutes(services))
    .use(layoutRoutes(services))
    .use(fieldChangeRoutes(services))
    .use(workspaceRoutes(services))
    // Before entryRoutes: bulk routes hold static paths beside /v2/model-instances/:id.
    .use(bulkRoutes(services))
    .use(schedulingRoutes(services))
    .use(entryRoutes(services))
    .use(keyRoutes(services, keys))
    .use(versionRoutes(services))
    .use(meRoutes(services, keys))
    .use(legacyRoutes(services, keys))
    .use(entryReadRoutes(services, keys, renderCache, pages, readPool))
    .use(graphqlRoutes(services, keys, renderCache, readPool))
    .use(pageRoutes(services, keys, pages))
    .use(previewRoutes(services, keys))
    .use(previewTokenRoutes(services))
    .use(webhookRoutes(services));

  return {
    app,
    services,
    /** Closes every file. */
    keys,
    renderCache,
    jobs,
    replication,
    readPool,
    close() {
      stopWebhooks(services);
      readPool.close();
      clearInterval(flushTimer);
      flushBatches();
      services.projects.close();
      closeHandle(control.sqlite);
      // After the files: Litestream's last sync then carries every write flushed above.
      void replication.stop();
    },
  };
}

export type CapaApp = ReturnType<typeof createApp>;
