// One shard of replication: one supervised `litestream replicate` child with a configuration of
// its own listing a bounded set of files. The supervisor (replication.ts) decides which files a
// shard holds; the shard starts its child, restarts it with exponential backoff when it dies,
// restarts it for a new file list, passes its log lines on and reports its state.
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import { configYaml, lineMessage, litestreamBinary, MONITOR_INTERVAL_MS, writeConfig, type ReplicaSettings } from "./litestream.ts";

export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
/** A child that ran this long resets the backoff. */
const STABLE_MS = 60_000;
/**
 * How long a new child runs before it counts as watching its files: Litestream takes each file on
 * at its first look, MONITOR_INTERVAL_MS after it starts, and later under load and with many
 * files (up to 350 ms later seen for 50 files on 2 busy cores), hence the margin.
 */
export const FIRST_LOOK_MS = MONITOR_INTERVAL_MS + 900;
/** How long a stop waits for Litestream's final sync before SIGKILL. */
const STOP_WAIT_MS = 5_000;

/**
 * Litestream 0.3 is a Go program with a SQLite connection pair per file. Left alone, each child
 * keeps garbage and idle malloc arenas around; these settings make it return memory sooner, which
 * matters when several children run side by side (docs/backup.md has the figures).
 */
const CHILD_ENV = { GOGC: "50", GOMEMLIMIT: "48MiB", MALLOC_ARENA_MAX: "2" };

type Child = Subprocess<"ignore", "pipe", "pipe">;

/**
 * How a child stopped: "clean" (its final sync ran and it exited 0), "exited" (it exited on its own
 * after SIGTERM, with an error from its final sync), "killed" (it did not stop in time), "none" (no
 * child ran).
 */
export type StopOutcome = "clean" | "exited" | "killed" | "none";

/** One shard's part of the health output. */
export interface ShardStatus {
  name: string;
  state: "running" | "down" | "stopped";
  pid: number | null;
  databases: number;
  restarts: number;
  reloads: number;
  lastStartAt: number | null;
  lastExitAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

export interface ShardDeps {
  dataDir: string;
  replica: ReplicaSettings;
  log: Logger;
  clock: Clock;
}

export class Shard {
  private child: Child | null = null;
  /** Children being stopped on purpose, whose exit is no failure. */
  private readonly retiring = new WeakSet<object>();
  /** The files of the running child's configuration (relative to the data directory). */
  files: string[] = [];
  private backoffMs = BACKOFF_MIN_MS;
  private nextStartAt = 0;
  private stopped = false;
  /** Set when a stop is asked for: the shard takes no new files. */
  stopping = false;
  /** True while a reload replaces the child: a planned restart, not an outage. */
  private reloading = false;
  restarts = 0;
  reloads = 0;
  /** When the configuration last changed (a reload), for the supervisor's throttle. */
  lastReloadAt = 0;
  private lastStartAt: number | null = null;
  /** When the running child started, on the wall clock (performance.now): see `watching`. */
  private spawnedAt = 0;

  private lastExitAt: number | null = null;
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;
  /** Serializes reloads and stops, so two never race on one child. */
  private queue: Promise<unknown> = Promise.resolve();
  readonly configPath: string;

  constructor(
    readonly name: string,
    private readonly deps: ShardDeps,
  ) {
    this.configPath = join(deps.dataDir, "litestream", `${name}.yml`);
  }

  /** The running child's process id, or null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * Whether the running child watches its files: it has run FIRST_LOOK_MS. Before its first look at
   * a file, Litestream holds nothing of it, and a WAL restart then goes unseen.
   */
  get watching(): boolean {
    return this.child !== null && performance.now() - this.spawnedAt >= FIRST_LOOK_MS;
  }

  /** Resolves once the running child watches its files (at once when it does, or when none runs). */
  async untilWatching(): Promise<void> {
    const left = FIRST_LOOK_MS - (performance.now() - this.spawnedAt);
    if (this.child && left > 0) await Bun.sleep(left);
  }

  /** Starts the child for these files. */
  start(files: string[]): void {
    this.spawn(files, this.deps.clock.now());
  }

  /** One monitor pass: restarts a dead child after its backoff and resets the backoff of a stable one. */
  tick(now: number): void {
    if (this.stopped) return;
    if (!this.child && now >= this.nextStartAt) {
      this.restarts++;
      this.spawn(this.files, now);
      return;
    }
    if (this.child && this.lastStartAt !== null && now - this.lastStartAt >= STABLE_MS) this.backoffMs = BACKOFF_MIN_MS;
  }

  /**
   * Restarts the child with a new file list, once `before` resolved (the supervisor waits there
   * for the child to have synced its files). Resolves with how the old child stopped.
   */
  reload(files: () => string[], before: () => Promise<void>): Promise<StopOutcome> {
    const run = this.queue.then(async (): Promise<StopOutcome> => {
      if (this.stopped) return "none";
      this.reloading = true;
      try {
        // A child stopped before its first look at a file takes that file's first snapshot in its
        // final sync, which leaves a WAL restart due with no child watching: let it look first.
        if (this.child) {
          await this.untilWatching();
          await before();
        }
        this.lastReloadAt = this.deps.clock.now();
        this.reloads++;
        const clean = this.child ? await this.retire(this.child) : "none";
        if (this.stopped) return clean;
        this.spawn(files(), this.deps.clock.now());
        return clean;
      } finally {
        this.reloading = false;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the child for good; resolves with how it stopped. */
  stop(): Promise<StopOutcome> {
    this.stopping = true;
    const run = this.queue.then(async (): Promise<StopOutcome> => {
      this.stopped = true;
      return this.child ? this.retire(this.child) : "none";
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private spawn(files: string[], now: number): void {
    this.files = files;
    try {
      const bin = litestreamBinary();
      if (!bin) throw new Error("the litestream binary is missing; run npm install");
      writeConfig(this.configPath, configYaml(this.deps.replica, this.deps.dataDir, files));
      // Litestream outlives a parent killed with SIGKILL unless told otherwise. Its -exec child
      // watches this process and exits with it (or with Litestream), and Litestream stops when its
      // -exec child exits; so a crashed server never leaves a replicator writing to the replica.
      const watch = `sh -c 'while kill -0 ${process.pid} 2>/dev/null && kill -0 $PPID 2>/dev/null; do sleep 1; done'`;
      const proc = Bun.spawn([bin, "replicate", "-config", this.configPath, "-no-expand-env", "-exec", watch], {
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        env: { ...process.env, ...CHILD_ENV },
      });
      this.child = proc;
      this.lastStartAt = now;
      this.spawnedAt = performance.now();
      this.deps.log.info("litestream started", { shard: this.name, pid: proc.pid, databases: files.length });
      void this.follow(proc.stdout, proc);
      void this.follow(proc.stderr, proc);
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
    this.deps.log.warn("litestream down", { shard: this.name, error: message, retryInMs: this.backoffMs });
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
  }

  private exited(proc: Child, code: number): void {
    const now = this.deps.clock.now();
    if (this.child === proc) this.child = null;
    this.lastExitAt = now;
    if (this.retiring.has(proc) || this.stopped) return;
    this.failed(now, `litestream exited with ${proc.signalCode ? `signal ${proc.signalCode}` : `code ${code}`}`);
  }

  /** Passes Litestream's log lines on: errors as warnings (and the last one kept), the rest at debug. */
  private async follow(stream: ReadableStream<Uint8Array>, proc: Child): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of stream) {
        buf += decoder.decode(chunk, { stream: true });
        for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          this.line(line, proc);
        }
      }
    } catch {
      // The pipe closes with the child; nothing is left to read.
    }
  }

  private line(line: string, proc: Child): void {
    const rest = line.replace(/^time=\S+\s+/, "");
    if (/\blevel=(ERROR|WARN)\b/.test(line)) {
      const message = lineMessage(line);
      // Litestream 0.3's final sync at a planned stop races its own replica goroutine over the same
      // WAL segment and reports the loser's error ("client write: stat ....tmp"); the segment is
      // written by the winner. Such errors are logged but do not make the server degraded.
      if (/\blevel=ERROR\b/.test(line) && !this.retiring.has(proc)) {
        this.lastError = message;
        this.lastErrorAt = this.deps.clock.now();
      }
      this.deps.log.warn("litestream", { shard: this.name, message, line: rest });
    } else if (line.trim()) {
      this.deps.log.debug("litestream", { shard: this.name, line: rest });
    }
  }

  /** Stops one child: SIGTERM (Litestream syncs once more and exits), SIGKILL after the wait. */
  private async retire(proc: Child): Promise<StopOutcome> {
    this.retiring.add(proc);
    proc.kill("SIGTERM");
    const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(STOP_WAIT_MS).then(() => false)]);
    if (!done) {
      this.deps.log.warn("litestream did not stop in time; killing it", { shard: this.name, pid: proc.pid });
      proc.kill("SIGKILL");
      await proc.exited;
    }
    if (this.child === proc) this.child = null;
    return done ? (proc.exitCode === 0 ? "clean" : "exited") : "killed";
  }

  /** This shard's state for health output. */
  status(): ShardStatus {
    return {
      name: this.name,
      state: this.stopped ? "stopped" : this.child || this.reloading ? "running" : "down",
      pid: this.pid,
      databases: this.files.length,
      restarts: this.restarts,
      reloads: this.reloads,
      lastStartAt: this.lastStartAt,
      lastExitAt: this.lastExitAt,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt,
    };
  }
}
