// The Litestream supervisor: with CAPA_REPLICA_URL set, one `litestream replicate` child
// replicates the control file and every project file. It is a monitor in the Litestream habit:
// `tick` runs once a second from the job table, restarts a child that died (with exponential
// backoff), rewrites the configuration and restarts the child when a project is added or removed,
// and logs and continues on any error. The server keeps serving while Litestream is down; health
// output says so.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import { configYaml, lineMessage, litestreamBinary, metaDir, writeConfig, type ReplicaSettings } from "./litestream.ts";
import { LagMeter } from "./replication-lag.ts";

/** off: no replica configured; running: the child is up; down: it died or could not start; stopped: shut down. */
export type ReplicationState = "off" | "running" | "down" | "stopped";

export interface ReplicationStatus {
  state: ReplicationState;
  /** The child's process id while it runs. */
  pid: number | null;
  /** Files in the configuration. */
  databases: number;
  /** Starts after the child died or failed to start. */
  restarts: number;
  /** Restarts for a new configuration (a project added or removed). */
  reloads: number;
  lastStartAt: string | null;
  lastExitAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Seconds the replica is behind (file replicas; null for S3 or when off). */
  lagSeconds: number | null;
}

export interface ReplicationOptions {
  dataDir: string;
  /** Null turns replication off. */
  replica: ReplicaSettings | null;
  /** The data files to replicate, relative to dataDir (read every tick). */
  files: () => string[];
  log: Logger;
  clock: Clock;
}

export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
/** A child that ran this long resets the backoff. */
const STABLE_MS = 60_000;
/** Project churn restarts Litestream at most this often. */
const RELOAD_EVERY_MS = 2_000;
/** How long a stop waits for Litestream's final sync before SIGKILL. */
const STOP_WAIT_MS = 5_000;
/** The configuration file, in the data directory. */
export const CONFIG_FILE = "litestream.yml";

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export class Replication {
  private child: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  /** Children being stopped on purpose, whose exit is no failure. */
  private readonly retiring = new WeakSet<object>();
  private files: string[] = [];
  private started = false;
  private stopping: Promise<void> | null = null;
  private backoffMs = BACKOFF_MIN_MS;
  private nextStartAt = 0;
  private lastReloadAt = 0;
  private restarts = 0;
  private reloads = 0;
  private lastStartAt: number | null = null;
  private lastExitAt: number | null = null;
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;
  private readonly lag: LagMeter | null;
  readonly configPath: string;

  constructor(private readonly opts: ReplicationOptions) {
    this.configPath = join(opts.dataDir, CONFIG_FILE);
    const url = opts.replica?.replicaUrl;
    this.lag = url?.startsWith("file:") ? new LagMeter(opts.dataDir, url) : null;
  }

  /** Whether a replica is configured. */
  get enabled(): boolean {
    return this.opts.replica !== null;
  }

  /** Writes the configuration and starts the child (the server calls this once it serves). */
  start(): void {
    if (!this.enabled || this.started || this.stopping) return;
    this.started = true;
    this.spawn(this.opts.clock.now());
  }

  /** One monitor pass: reload on project changes, restart a dead child, reset the backoff. */
  async tick(now: number): Promise<void> {
    if (!this.started || this.stopping) return;
    const files = this.opts.files();
    if (files.join("\n") !== this.files.join("\n") && now - this.lastReloadAt >= RELOAD_EVERY_MS) {
      await this.reload(now);
      return;
    }
    if (!this.child && now >= this.nextStartAt) {
      this.restarts++;
      this.spawn(now);
      return;
    }
    if (this.child && this.lastStartAt !== null && now - this.lastStartAt >= STABLE_MS) this.backoffMs = BACKOFF_MIN_MS;
    // Measuring every tick keeps the lag's "oldest write behind" mark current between scrapes.
    this.lag?.measure(this.files, Date.now());
  }

  /** Restarts the child with a configuration for the current files, and drops the state of removed ones. */
  private async reload(now: number): Promise<void> {
    const before = this.files;
    this.lastReloadAt = now;
    this.reloads++;
    if (this.child) await this.retire(this.child);
    if (this.stopping) return;
    this.spawn(this.opts.clock.now());
    const kept = new Set(this.files);
    for (const rel of before) {
      // Litestream's shadow WAL of a deleted project would otherwise stay in the data directory.
      if (!kept.has(rel)) rmSync(metaDir(join(this.opts.dataDir, rel)), { recursive: true, force: true });
    }
  }

  private spawn(now: number): void {
    try {
      const bin = litestreamBinary();
      if (!bin) throw new Error("the litestream binary is missing; run npm install");
      this.files = this.opts.files();
      writeConfig(this.configPath, configYaml(this.opts.replica!, this.opts.dataDir, this.files));
      // Litestream outlives a parent killed with SIGKILL unless told otherwise. Its -exec child
      // watches this process and exits with it (or with Litestream), and Litestream stops when its
      // -exec child exits; so a crashed server never leaves a replicator writing to the replica.
      const watch = `sh -c 'while kill -0 ${process.pid} 2>/dev/null && kill -0 $PPID 2>/dev/null; do sleep 1; done'`;
      const proc = Bun.spawn([bin, "replicate", "-config", this.configPath, "-no-expand-env", "-exec", watch], {
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      this.child = proc;
      this.lastStartAt = now;
      this.opts.log.info("litestream started", { pid: proc.pid, databases: this.files.length });
      void this.follow(proc.stdout);
      void this.follow(proc.stderr);
      void proc.exited.then((code) => this.exited(proc, code));
    } catch (e) {
      this.failed(now, e instanceof Error ? e.message : String(e));
    }
  }

  /** Records a failure and schedules the next start after the backoff. */
  private failed(now: number, message: string): void {
    this.lastError = message;
    this.lastErrorAt = now;
    this.nextStartAt = now + this.backoffMs;
    this.opts.log.warn("litestream down", { error: message, retryInMs: this.backoffMs });
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
  }

  private exited(proc: Subprocess<"ignore", "pipe", "pipe">, code: number): void {
    const now = this.opts.clock.now();
    if (this.child === proc) this.child = null;
    this.lastExitAt = now;
    if (this.retiring.has(proc) || this.stopping) return;
    this.failed(now, `litestream exited with ${proc.signalCode ? `signal ${proc.signalCode}` : `code ${code}`}`);
  }

  /** Passes Litestream's log lines on: errors as warnings (and the last one kept), the rest at debug. */
  private async follow(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of stream) {
        buf += decoder.decode(chunk, { stream: true });
        for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (/\blevel=(ERROR|WARN)\b/.test(line)) {
            const message = lineMessage(line);
            if (/\blevel=ERROR\b/.test(line)) {
              this.lastError = message;
              this.lastErrorAt = this.opts.clock.now();
            }
            this.opts.log.warn("litestream", { message, line: line.replace(/^time=\S+\s+/, "") });
          } else if (line.trim()) {
            this.opts.log.debug("litestream", { line: line.replace(/^time=\S+\s+/, "") });
          }
        }
      }
    } catch {
      // The pipe closes with the child; nothing is left to read.
    }
  }

  /** Stops one child: SIGTERM (Litestream syncs once more and exits), SIGKILL after the wait. */
  private async retire(proc: Subprocess<"ignore", "pipe", "pipe">): Promise<void> {
    this.retiring.add(proc);
    proc.kill("SIGTERM");
    const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(STOP_WAIT_MS).then(() => false)]);
    if (!done) {
      this.opts.log.warn("litestream did not stop in time; killing it", { pid: proc.pid });
      proc.kill("SIGKILL");
      await proc.exited;
    }
    if (this.child === proc) this.child = null;
  }

  /** Stops replication for good; the child's last sync runs before this resolves. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.child) await this.retire(this.child);
      if (this.started) this.opts.log.info("litestream stopped");
    })();
    return this.stopping;
  }

  /** The status for health output and metrics. */
  status(): ReplicationStatus {
    const state: ReplicationState = !this.enabled ? "off" : this.stopping ? "stopped" : this.child ? "running" : "down";
    let lag: number | null = null;
    if (this.lag && this.started) {
      try {
        lag = this.lag.measure(this.files, Date.now());
      } catch {
        lag = null;
      }
    }
    return {
      state,
      pid: this.child?.pid ?? null,
      databases: this.files.length,
      restarts: this.restarts,
      reloads: this.reloads,
      lastStartAt: iso(this.lastStartAt),
      lastExitAt: iso(this.lastExitAt),
      lastError: this.lastError,
      lastErrorAt: iso(this.lastErrorAt),
      lagSeconds: lag,
    };
  }
}
