// createApp(config) -> { app, services, close }: the whole server, shared by main.ts and tests.
// The services hold every piece of state; the guard is the root of the HTTP app; each feature
// module adds its routes, jobs and event subscribers (src/features/index.ts lists them).
import type { Config } from "./config.ts";
import { createServices, type ServiceDeps } from "./wire.ts";
import { JobTable } from "./infra/jobs.ts";
import { Replication } from "./infra/replication.ts";
import { dataFiles } from "./storage/files.ts";
import { closeHandle } from "./storage/pool.ts";
import { guardedApp, managementRoot, MANAGEMENT_PATHS } from "./http/guard.ts";
import { clientIp } from "./http/context.ts";
import { JSON_BODY_LIMIT, uploadBodyLimit } from "./http/v2/body.ts";
import { MAX_FILES } from "./domain/media/intake.ts";
import { FEATURES } from "./features/index.ts";
import type { AnyElysia } from "elysia";

export type AppDeps = ServiceDeps;

/**
 * The largest body any route reads. Bun refuses bodies above the server's limit before the app
 * sees them, so main.ts sets it a little above this: a body just over a route's own limit still
 * gets the catalogue's 413 answer instead of a dropped socket.
 */
export function largestBodyLimit(config?: Config): number {
  // media-wire: the upload route (POST /v2/media) streams files of up to CAPA_MEDIA_MAX_BYTES each.
  return Math.max(JSON_BODY_LIMIT, config ? uploadBodyLimit(config.media.maxBytes, MAX_FILES) : 0);
}

export function createApp(config: Config, deps: AppDeps = {}) {
  const services = createServices(config, deps);
  // Background loops register here; main.ts starts them, tests run their bodies directly.
  const jobs = new JobTable(services.clock, services.log);
  // Litestream replication (off without CAPA_REPLICA_URL): main.ts starts it; its monitor is a job.
  const replication = new Replication({
    dataDir: config.dataDir,
    replica: config.replicaUrl ? { replicaUrl: config.replicaUrl, replicaEndpoint: config.replicaEndpoint, replicaRegion: config.replicaRegion } : null,
    files: () => dataFiles(services.control.sqlite),
    shardSize: config.replicaShardSize,
    idleMs: config.replicaIdleMs,
    maxWatched: config.replicaMaxWatched,
    log: services.log,
    clock: services.clock,
  });
  const closers: (() => void)[] = [];
  const app = guardedApp(services);
  // The routes under /v2 (about 190 of the app's 220) are built on the first request under /v2:
  // Elysia keeps about 40 KB a route, so a server that is only read idles about 8 MiB smaller
  // (docs/performance.md). The root hands those requests to the management tree as they are.
  const builders: (() => AnyElysia)[] = [];
  let management: AnyElysia | null = null;
  const managementTree = () => {
    if (!management) {
      management = managementRoot(services);
      for (const build of builders) management.use(build());
    }
    return management;
  };
  const routes = () => [...app.routes, ...managementTree().routes];
  const ctx = { s: services, jobs, replication, onClose: (fn: () => void) => closers.push(fn), routes };
  for (const feature of FEATURES) {
    const made = feature(ctx);
    if (made.routes) app.use(made.routes);
    if (made.management) builders.push(made.management);
  }
  app.all(MANAGEMENT_PATHS, ({ request, server }) => {
    services.requests.of(request).client = clientIp(server, request);
    return managementTree().handle(request);
  });

  return {
    app,
    services,
    keys: services.keys,
    renderCache: services.renderCache,
    jobs,
    replication,
    readPool: services.reads,
    /** Every route of the app, the management routes included (built now if no request has). */
    routes,
    /** Whether the management routes have been built (by a request under /v2 or a look at `routes`). */
    managementBuilt: () => management !== null,
    /** Stops the features, closes every file, then stops Litestream (after the files, so its last sync carries every write flushed). */
    close() {
      for (const fn of closers) fn();
      services.reads.close();
      services.projects.close();
      closeHandle(services.control.sqlite);
      void replication.stop();
    },
  };
}

export type CapaApp = ReturnType<typeof createApp>;
