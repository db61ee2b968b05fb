// A feature module binds one capability to the app, the way PocketBase's apis/*.go files each
// bind one route group: its routes, its background jobs (rows of the job table) and its event
// subscribers, registered at start-up. createApp composes the list in src/features/index.ts.
import type { AnyElysia } from "elysia";
import type { Services } from "../services.ts";
import type { JobTable } from "../infra/jobs.ts";
import type { Replication } from "../infra/replication.ts";

/** What a feature may register with. */
export interface FeatureContext {
  s: Services;
  jobs: JobTable;
  replication: Replication;
  /** Runs `fn` when the app closes, before the files close. */
  onClose(fn: () => void): void;
  /** The whole app's route table, the management routes included (GET /v2/openapi.json reads it). */
  routes(): readonly { method: string; path: string; hooks?: unknown }[];
}

/**
 * A feature's routes. `routes` are served from the start: the read API, public files, the admin
 * app's pages, health. `management` builds the feature's routes under /v2, which app.ts builds on
 * the first request under /v2 (a server that is only read never spends their memory).
 */
export interface FeatureRoutes {
  routes?: AnyElysia;
  management?: () => AnyElysia;
}

/** A feature: registers its jobs and subscribers, and returns its routes. */
export type Feature = (ctx: FeatureContext) => FeatureRoutes;
