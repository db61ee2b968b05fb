// createApp(config) -> { app, services, close }: the whole server, shared by main.ts and tests.
// The services hold every piece of state; the guard is the root of the HTTP app; each feature
// module adds its routes, jobs and event subscribers (src/features/index.ts lists them).
import type { Config } from "./config.ts";
import { createServices, type ServiceDeps } from "./wire.ts";
import { JobTable } from "./infra/jobs.ts";
import { Replication } from "./infra/replication.ts";
import { dataFiles } from "./storage/files.ts";
import { closeHandle } from "./storage/pool.ts";
import { guardedApp } from "./http/guard.ts";
import { JSON_BODY_LIMIT, uploadBodyLimit } from "./http/v2/body.ts";
import { MAX_FILES } from "./domain/media/intake.ts";
import { FEATURES } from "./features/index.ts";

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
  const ctx = { s: services, jobs, replication, onClose: (fn: () => void) => closers.push(fn), routes: () => app.routes };
  for (const feature of FEATURES) app.use(feature(ctx));

  return {
    app,
    services,
    keys: services.keys,
    renderCache: services.renderCache,
    jobs,
    replication,
    readPool: services.reads,
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
