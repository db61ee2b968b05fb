// The Litestream supervisor. With CAPA_REPLICA_URL set, the data files are replicated by several
// supervised `litestream replicate` children ("shards", replication-shard.ts), each with its own
// configuration of a bounded set of files: the control file has a shard of its own, and project
// files fill project shards of at most `shardSize` files in the order they need one.
//
// Litestream 0.3 cannot add a file to a running process, and each watched file costs a Litestream
// child about 0.4 MB and 7 open files whether it is written or not. So a project file is watched
// only while it has writes to ship: a file whose WAL stayed unchanged for `idleMs` leaves its
// shard at the shard's next restart, whose final sync puts its last write in the replica; it is
// then "settled" (its WAL signature is recorded), and the first write after that (a changed
// signature, checked every second) puts it back in a shard. This works because nothing
// checkpoints a replicated file behind Litestream's back (storage/sqlite.ts): its WAL keeps the
// frames Litestream has not seen, and Litestream carries on from where it stopped, in the same
// generation. A change of files restarts only the shard concerned, at most every 2 s (at once for
// `protect`). At most `maxWatched` files are watched at once: over it, the least recently written
// files quiet for 5 s leave early the same way (replication-quiet.ts), which bounds Litestream's
// memory in a burst of writes; files written in the last seconds always stay watched. `tick` runs once a second from the job table and logs and continues on any error.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import { metaDir, type ReplicaSettings } from "./litestream.ts";
import { LagMeter } from "./replication-lag.ts";
import { childCaughtUp, inReplicaAfterStop, waitHeld } from "./replication-protect.ts";
import { Shard, type StopOutcome } from "./replication-shard.ts";
import { bringRestartsForward, capLeavers } from "./replication-quiet.ts";
import { SettledFiles } from "./replication-settled.ts";
import { handOver, walSignature } from "./replication-state.ts";
import { CONTROL_FILE, projectFile } from "../storage/files.ts";
import { summarize, type ReplicationStatus } from "./replication-status.ts";
import { type ChildWatches, WatchList } from "./replication-watch.ts";

export type { ReplicationState, ReplicationStatus } from "./replication-status.ts";
export { BACKOFF_MAX_MS, BACKOFF_MIN_MS } from "./replication-shard.ts";

/** What `protect` found: the replica holds the project, not yet, or there is no replica. */
export type Protection = "replicated" | "pending" | "off";

export interface ReplicationOptions {
  dataDir: string;
  /** Null turns replication off. */
  replica: ReplicaSettings | null;
  /** The data files to replicate, relative to dataDir (read every tick). */
  files: () => string[];
  log: Logger;
  clock: Clock;
  /** Project files per shard (default 50). */
  shardSize?: number;
  /** How long a file's WAL stays unchanged before its shard lets it go (default 60 s). */
  idleMs?: number;
  /** Files watched at once over all shards, the control file included, before quiet ones leave early (replication-quiet.ts). */
  maxWatched?: number;
}

/** The default bound on files watched at once (docs/backup.md has the measurements behind it). */
export const DEFAULT_MAX_WATCHED = 60;

/** Project churn restarts one shard at most this often (protect does not wait). */
const RELOAD_EVERY_MS = 2_000;
const CONTROL_SHARD = "control";
/** How long a shard's restart waits for its child to sync the files' last writes. */
const SYNC_WAIT_MS = 1_500;
/** The configurations' folder, in the data directory. */
export const CONFIG_DIR = "litestream";

export class Replication {
  private readonly shards = new Map<string, Shard>();
  /** The project files the shards are to watch, and those on their way out. */
  private readonly watched: WatchList;
  /** Settled files and their WAL signature when they settled. */
  private readonly settled: SettledFiles;
  private files: string[] = [];
  private nextShard = 1;
  private started = false;
  private stopping: Promise<void> | null = null;
  private pass: Promise<void> = Promise.resolve();
  private readonly shardSize: number;
  private readonly idleMs: number;
  private readonly maxWatched: number;
  /** Whether the last pass ended over maxWatched (logged once per spell, not every second). */
  private overCap = false;
  private readonly lag: LagMeter | null;

  constructor(private readonly opts: ReplicationOptions) {
    this.shardSize = opts.shardSize ?? 50;
    this.idleMs = opts.idleMs ?? 60_000;
    this.maxWatched = opts.maxWatched ?? DEFAULT_MAX_WATCHED;
    this.watched = new WatchList(opts.dataDir);
    this.settled = new SettledFiles(opts.dataDir);
    const url = opts.replica?.replicaUrl;
    this.lag = url?.startsWith("file:") ? new LagMeter(opts.dataDir, url) : null;
  }

  /** Whether a replica is configured. */
  get enabled(): boolean {
    return this.opts.replica !== null;
  }

  /** Starts the control shard and a shard for every file not settled (the server calls this once it serves). */
  start(): void {
    if (!this.enabled || this.started || this.stopping) return;
    this.started = true;
    const { dataDir } = this.opts;
    mkdirSync(join(dataDir, CONFIG_DIR), { recursive: true, mode: 0o700 });
    // The single configuration of earlier versions.
    rmSync(join(dataDir, "litestream.yml"), { force: true });
    const now = this.opts.clock.now();
    this.files = this.opts.files();
    const control = this.shard(CONTROL_SHARD);
    for (const rel of this.settled.adopt(this.files.filter((f) => f !== CONTROL_FILE))) this.watch(rel, now);
    control.start([CONTROL_FILE]);
    for (const [name, shard] of this.shards) if (name !== CONTROL_SHARD) shard.start(this.watched.desired(name));
    // Configurations of shards an earlier run had and this one does not.
    for (const f of readdirSync(join(dataDir, CONFIG_DIR))) {
      if (f.endsWith(".yml") && !this.shards.has(f.slice(0, -4))) rmSync(join(dataDir, CONFIG_DIR, f), { force: true });
    }
  }

  /** One monitor pass (serialized with protect's). */
  tick(now: number): Promise<void> {
    return this.run(now, null);
  }

  /**
   * Puts a new project's file in a shard at once and waits until the replica holds it: a snapshot
   * of the file and the control file's row for it, so `capa restore` brings it back. Answers
   * "pending" when that takes longer than `timeoutMs`, "off" without a replica.
   */
  async protect(projectId: string, timeoutMs: number): Promise<Protection> {
    if (!this.enabled) return "off";
    if (!this.started || this.stopping) return "pending";
    const rel = projectFile(projectId);
    const since = Date.now();
    const deadline = since + timeoutMs;
    await this.run(this.opts.clock.now(), rel);
    const held = await waitHeld({
      dataDir: this.opts.dataDir,
      replicaUrl: this.opts.replica!.replicaUrl,
      rel,
      since,
      deadline,
      // Read on every look: a restart meanwhile may put the file in another shard's configuration.
      shardConfig: () => this.shards.get(this.watched.shardOf(rel) ?? "")?.configPath ?? null,
      controlConfig: this.shard(CONTROL_SHARD).configPath,
    });
    return held ? "replicated" : "pending";
  }

  private run(now: number, force: string | null): Promise<void> {
    const next = this.pass.then(() => this.step(now, force));
    this.pass = next.catch((e) => this.opts.log.warn("replication pass failed", { error: e instanceof Error ? e.message : String(e) }));
    return this.pass;
  }

  private shard(name: string): Shard {
    let s = this.shards.get(name);
    if (!s) {
      s = new Shard(name, { dataDir: this.opts.dataDir, replica: this.opts.replica!, log: this.opts.log, clock: this.opts.clock });
      this.shards.set(name, s);
    }
    return s;
  }

  /** Assigns a file to the newest project shard with room, opening a new shard when all are full. */
  private watch(rel: string, now: number): void {
    const counts = this.watched.counts();
    let target: string | null = null;
    for (const [name, shard] of this.shards) {
      if (name !== CONTROL_SHARD && !shard.stopping && (counts.get(name) ?? 0) < this.shardSize) target = name;
    }
    target ??= `projects-${this.nextShard++}`;
    this.shard(target);
    this.watched.add(rel, target, now);
  }

  private async step(now: number, force: string | null): Promise<void> {
    if (!this.started || this.stopping) return;
    const { dataDir } = this.opts;
    const files = this.opts.files();
    this.files = files;
    const present = new Set(files);
    // Deleted projects: a settled one has no watcher, so its Litestream state goes now.
    let changed = this.settled.forgetMissing(present);
    this.watched.keepOnly(present);
    // New projects, and settled files written since they settled.
    for (const rel of files) {
      if (rel === CONTROL_FILE || this.watched.holds(rel)) continue;
      // A settled file written since is settled no more (wokenUp), and needs a shard like a new one.
      changed = this.settled.wokenUp(rel) || changed;
      if (!this.settled.has(rel)) this.watch(rel, now);
    }
    this.watched.observe(now);
    // Idle files go (only from a running child: its restart's final sync carries their last write).
    for (const f of this.watched.files(this.childWatches)) if (f.watchedByChild && now - f.at >= this.idleMs) this.watched.letGo(f.rel);
    // Quiet files: due WAL restarts first, so a file restarted this pass (its signature moved)
    // does not leave for the bound (replication-quiet.ts).
    bringRestartsForward(dataDir, now, this.watched.files(this.childWatches), this.opts.log);
    const over = capLeavers(dataDir, now, this.maxWatched, 1 + this.watched.size, this.watched.files(this.childWatches));
    for (const rel of over) this.watched.letGo(rel);
    this.noteOverCap();
    const dirty = [...this.shards.values()].filter((s) => s.name !== CONTROL_SHARD && this.watched.desired(s.name).join("\n") !== s.files.join("\n"));
    const due = dirty.filter((s) => s.name === this.watched.shardOf(force ?? "") || now - s.lastReloadAt >= RELOAD_EVERY_MS);
    const results = await Promise.all(due.map((s) => this.reload(s, present)));
    if (results.includes(true) || changed) this.settled.save();
    for (const s of this.shards.values()) s.tick(now);
    // Measuring every tick keeps the lag's "oldest write behind" mark current between scrapes.
    this.lag?.measure(this.files, Date.now());
  }

  /** Whether a shard's running child watches a file now: it has had its first look at it (Shard.watching). */
  private readonly childWatches: ChildWatches = (rel, name) => {
    const shard = this.shards.get(name);
    return shard?.watching === true && shard.files.includes(rel);
  };

  /** Warns once per spell over maxWatched (files written in the last seconds all stay watched). */
  private noteOverCap(): void {
    const watched = 1 + this.watched.size;
    const over = watched > this.maxWatched;
    if (over && !this.overCap)
      this.opts.log.warn("replication: more files written recently than CAPA_REPLICA_MAX_WATCHED; all stay watched", { watched, max: this.maxWatched });
    this.overCap = over;
  }

  /** Restarts one shard for its new file list; true when the settled set changed. */
  private async reload(shard: Shard, present: Set<string>): Promise<boolean> {
    const before = shard.files;
    const files = this.watched.desired(shard.name);
    let outcome: StopOutcome;
    if (files.length === 0) {
      outcome = await shard.stop();
      this.shards.delete(shard.name);
      rmSync(shard.configPath, { force: true });
    } else {
      // The list is read again when the child is replaced: files assigned meanwhile join this restart.
      outcome = await shard.reload(
        () => this.watched.desired(shard.name),
        () => this.handOver(before),
      );
    }
    let changed = false;
    const now = this.opts.clock.now();
    for (const { rel, sig } of this.watched.takeLeaving(shard.name)) {
      // Written after it was let go, or not shown in the replica: it needs a watcher still.
      if (this.inReplica(rel, outcome) && walSignature(this.opts.dataDir, rel) === sig) {
        this.settled.set(rel, sig);
        changed = true;
      } else {
        this.watch(rel, now);
      }
    }
    for (const rel of before) {
      // Litestream's shadow WAL of a deleted project would otherwise stay in the data directory.
      if (!present.has(rel)) rmSync(metaDir(join(this.opts.dataDir, rel)), { recursive: true, force: true });
    }
    return changed;
  }

  /** What a shard does before its child stops (replication-state.ts, handOver). */
  private handOver(files: string[]): Promise<void> {
    const { dataDir, replica, log } = this.opts;
    return handOver(dataDir, files, SYNC_WAIT_MS, log, (rel) => childCaughtUp(dataDir, replica!.replicaUrl, rel));
  }

  private inReplica(rel: string, outcome: StopOutcome): boolean {
    return inReplicaAfterStop(this.opts.dataDir, this.opts.replica!.replicaUrl, rel, outcome);
  }

  /** Stops replication for good; every child's last sync runs before this resolves. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.pass;
      const shards = [...this.shards.values()];
      await Promise.all(shards.map((s) => this.handOver(s.files)));
      // Files whose last write the final syncs carry are settled, so the next start watches none of
      // them (read after the hand-over, whose WAL restarts move the signatures; the server closed
      // its files before this, so nothing else writes now).
      const sigs = new Map(this.watched.rels().map((rel) => [rel, walSignature(this.opts.dataDir, rel)] as const));
      const outcomes = await Promise.all(shards.map((s) => s.stop()));
      if (!this.started) return;
      shards.forEach((s, i) => {
        for (const rel of s.files) {
          const sig = sigs.get(rel);
          if (sig !== undefined && sig === walSignature(this.opts.dataDir, rel) && this.inReplica(rel, outcomes[i]!)) this.settled.set(rel, sig);
        }
      });
      this.settled.save();
      this.opts.log.info("litestream stopped");
    })();
    return this.stopping;
  }

  /** The status for health output and metrics: healthy when every shard is. */
  status(): ReplicationStatus {
    let lag: number | null = null;
    if (this.lag && this.started) {
      try {
        lag = this.lag.measure(this.files, Date.now());
      } catch {
        lag = null;
      }
    }
    const shards = [...this.shards.values()].map((s) => s.status());
    return summarize({
      enabled: this.enabled,
      stopping: this.stopping !== null,
      shards,
      controlPid: this.shards.get(CONTROL_SHARD)?.pid ?? null,
      databases: this.files.length,
      watched: shards.reduce((n, s) => n + s.databases, 0),
      maxWatched: this.maxWatched,
      settled: this.settled.size,
      lagSeconds: lag,
    });
  }
}
