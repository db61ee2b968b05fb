// The services every domain function receives: explicit dependencies, no globals.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Clock, Ids } from "./infra/clock.ts";
import type { Logger } from "./infra/log.ts";
import type { ControlDb } from "./storage/sqlite.ts";
import type { ProjectPool } from "./storage/pool.ts";
import type { KeyAuth } from "./domain/keys/auth.ts";
import type { CapaMetrics } from "./infra/metrics.ts";
import type { InFlight, RateLimiter } from "./infra/limits.ts";

export interface TokenSigner {
  sign(payload: Record<string, string | number>): Promise<string>;
  verify(token: string): Promise<Record<string, unknown> | false>;
}

/** Listeners told about changes that invalidate derived state (read caches, GraphQL schemas). */
export interface ChangeBus {
  /** Content of a project changed (publish, unpublish, delete). */
  content(projectId: string): void;
  /** A model of a project changed. */
  models(projectId: string): void;
  /** A key changed (revoked, rotated, edited, deleted). */
  key(keyId: string): void;
  on(kind: "content" | "models" | "key", fn: (id: string) => void): void;
}

export interface Services {
  config: Config;
  clock: Clock;
  ids: Ids;
  log: Logger;
  control: { sqlite: Database; db: ControlDb };
  projects: ProjectPool;
  tokens: TokenSigner;
  changes: ChangeBus;
  /** Key authentication (cached); set by createApp right after the services exist. */
  keys: KeyAuth;
  /** Counters and histograms for /metrics (src/infra/metrics.ts says how to add one). */
  metrics: CapaMetrics;
  /** Read limits: in-flight counts (entries reads and GraphQL documents together) and the per-key rate. */
  limits: { inFlight: InFlight; rate: RateLimiter };
}

/** A ChangeBus that calls its listeners synchronously. */
export function createChangeBus(): ChangeBus {
  const listeners = { content: [] as ((id: string) => void)[], models: [] as ((id: string) => void)[], key: [] as ((id: string) => void)[] };
  return {
    content: (id) => {
      for (const f of listeners.content) f(id);
    },
    models: (id) => {
      for (const f of listeners.models) f(id);
    },
    key: (id) => {
      for (const f of listeners.key) f(id);
    },
    on: (kind, fn) => listeners[kind].push(fn),
  };
}
