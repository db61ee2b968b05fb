// The replication status that /healthz and /metrics show: one answer for all shards (running
// only when every shard runs), with each shard's own line under `shards`.
import type { ShardStatus } from "./replication-shard.ts";

/** off: no replica configured; running: every shard's child is up; down: one died or could not start; stopped: shut down. */
export type ReplicationState = "off" | "running" | "down" | "stopped";

/** One shard in the health output. */
export interface ShardLine {
  name: string;
  state: ShardStatus["state"];
  pid: number | null;
  /** Files this shard's child watches now. */
  databases: number;
  restarts: number;
  reloads: number;
  lastError: string | null;
}

export interface ReplicationStatus {
  state: ReplicationState;
  /** The control file's Litestream process id while it runs. */
  pid: number | null;
  /** Files replicated: the control file and every project file (watched or settled). */
  databases: number;
  /** Starts after a child died or failed to start, over all shards. */
  restarts: number;
  /** Restarts for a new file list (a project added, removed, woken or settled), over all shards. */
  reloads: number;
  lastStartAt: string | null;
  lastExitAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Seconds the replica is behind (file replicas; null for S3 or when off). */
  lagSeconds: number | null;
  /** Files some Litestream child watches now. */
  watched: number;
  /** CAPA_REPLICA_MAX_WATCHED: `watched` above it means more files were written in the last seconds than the bound allows. */
  maxWatched: number;
  /** Files whose every write is in the replica and that no child needs to watch until they are written. */
  settled: number;
  shards: ShardLine[];
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const latest = (xs: (number | null)[]) => xs.reduce<number | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);

/** Folds the shards' states into one status. */
export function summarize(x: {
  enabled: boolean;
  stopping: boolean;
  shards: ShardStatus[];
  controlPid: number | null;
  databases: number;
  watched: number;
  maxWatched: number;
  settled: number;
  lagSeconds: number | null;
}): ReplicationStatus {
  const state: ReplicationState = !x.enabled
    ? "off"
    : x.stopping
      ? "stopped"
      : x.shards.length > 0 && x.shards.every((s) => s.state === "running")
        ? "running"
        : "down";
  const errorAt = latest(x.shards.map((s) => s.lastErrorAt));
  return {
    state,
    pid: x.controlPid,
    databases: x.databases,
    restarts: x.shards.reduce((n, s) => n + s.restarts, 0),
    reloads: x.shards.reduce((n, s) => n + s.reloads, 0),
    lastStartAt: iso(latest(x.shards.map((s) => s.lastStartAt))),
    lastExitAt: iso(latest(x.shards.map((s) => s.lastExitAt))),
    lastError: x.shards.find((s) => s.lastErrorAt === errorAt && errorAt !== null)?.lastError ?? null,
    lastErrorAt: iso(errorAt),
    lagSeconds: x.lagSeconds,
    watched: x.watched,
    maxWatched: x.maxWatched,
    settled: x.settled,
    shards: x.shards.map((s) => ({
      name: s.name,
      state: s.state,
      pid: s.pid,
      databases: s.databases,
      restarts: s.restarts,
      reloads: s.reloads,
      lastError: s.lastError,
    })),
  };
}
