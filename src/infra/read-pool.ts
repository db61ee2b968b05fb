// The global read pool: worker threads that run uncached entries reads. A read waits at most
// `waitMs` for a place on a worker (then 503 service_unavailable with Retry-After) and runs at
// most `timeoutMs` (then 504 query_timeout; the worker, possibly stuck in SQLite, is replaced).
// Workers start lazily, so an idle server (and each test app) pays only for what it uses.
//
// The workers share the pool's places (decisions.md 8: 2 x cores): each holds at least two reads,
// the one it runs and the next ones, already in its inbox, so it starts the next the moment it
// answers instead of idling for a round trip through the main thread. With one read at a time a
// single worker ran lists at 0.38 of a raw server; that is why the pool used to need 2 workers a
// core, each a JavaScript heap and a set of connections of its own (docs/performance.md, "the
// read pool"). By default there is a worker a core but one (config.ts).
import { AppError } from "../errors.ts";
import { READ_WORKER } from "./paths.ts";
import type { Logger } from "./log.ts";
import type { ReadJob, ReadOutcome } from "../domain/reads/job.ts";
import type { FileOptions } from "../storage/sqlite.ts";

/** The fewest reads a worker holds at once: the one running and the next one, queued in its inbox. */
const PIPELINE = 2;

interface Pending {
  job: ReadJob;
  resolve: (o: ReadOutcome) => void;
  reject: (e: unknown) => void;
  waitTimer: ReturnType<typeof setTimeout> | null;
}

/** A read handed to a worker; its run timer starts when it is the one the worker runs. */
interface Sent extends Pending {
  seq: number;
  runTimer: ReturnType<typeof setTimeout> | null;
}

interface Slot {
  worker: Worker;
  /** In the order the worker runs them (it answers in that order): [running, next, ...]. */
  jobs: Sent[];
}

export interface ReadPoolOptions {
  size: number;
  /** The reads the workers hold at once, together (at least two a worker). */
  places?: number;
  dir: string;
  openMax: number;
  idleMs: number;
  /** How workers open files: replication and each connection's memory bounds (storage/sqlite.ts). */
  fileOptions?: FileOptions;
  waitMs?: number;
  timeoutMs?: number;
}

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private seq = 0;
  private closed = false;
  /** Reads one worker holds at once: its share of the places. */
  private readonly depth: number;
  /** Refusals for metrics: reads that found no worker in time, and reads that timed out. */
  busyRefusals = 0;
  timeouts = 0;
  /** Reads sent to a worker, and reads the gateway ran on the main thread instead (domain/reads/gateway.ts). */
  dispatched = 0;
  inlineRuns = 0;
  /** Told each refusal (`pool`: no worker in time; `timeout`: a read ran too long), for metrics. */
  onRefuse: (limit: "pool" | "timeout") => void = () => {};

  constructor(
    private readonly opts: ReadPoolOptions,
    private readonly log: Logger,
  ) {
    this.depth = Math.max(PIPELINE, Math.ceil((opts.places ?? 0) / opts.size));
  }

  /** Runs a read on a worker. */
  run(job: ReadJob): Promise<ReadOutcome> {
    if (this.closed) return Promise.reject(new AppError("service_unavailable", { headers: { "retry-after": "1" } }));
    return new Promise((resolve, reject) => {
      const p: Pending = { job, resolve, reject, waitTimer: null };
      const slot = this.freeSlot();
      if (slot) return this.dispatch(slot, p);
      p.waitTimer = setTimeout(() => {
        const i = this.queue.indexOf(p);
        if (i >= 0) this.queue.splice(i, 1);
        this.busyRefusals++;
        this.onRefuse("pool");
        reject(new AppError("service_unavailable", { headers: { "retry-after": "1" } }));
      }, this.opts.waitMs ?? 2000);
      this.queue.push(p);
    });
  }

  /** Changes the read timeout at run time (operators tune it; tests lift it after provoking a 504). */
  setTimeoutMs(ms: number): void {
    this.opts.timeoutMs = ms;
  }

  /** Sends a message to every worker (model changes, dropped projects). */
  broadcast(msg: unknown): void {
    for (const s of this.slots) s.worker.postMessage(msg);
  }

  /** The number of workers started and busy now, and the reads waiting for a place. */
  get stats() {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.jobs.length > 0).length, queued: this.queue.length };
  }

  /** An idle worker, else a new one while below the size, else the least loaded with room. */
  private freeSlot(): Slot | null {
    const idle = this.slots.find((s) => s.jobs.length === 0);
    if (idle) return idle;
    if (this.slots.length < this.opts.size) return this.spawn();
    let best: Slot | null = null;
    for (const s of this.slots) if (s.jobs.length < this.depth && (!best || s.jobs.length < best.jobs.length)) best = s;
    return best;
  }

  private spawn(): Slot {
    const worker = new Worker(READ_WORKER);
    const slot: Slot = { worker, jobs: [] };
    worker.postMessage({ type: "init", dir: this.opts.dir, openMax: this.opts.openMax, idleMs: this.opts.idleMs, fileOptions: this.opts.fileOptions ?? {} });
    worker.onmessage = (ev: MessageEvent<{ seq: number; outcome?: ReadOutcome; crash?: string }>) => {
      const done = slot.jobs[0];
      if (!done || done.seq !== ev.data.seq) return;
      slot.jobs.shift();
      if (done.runTimer) clearTimeout(done.runTimer);
      // The next read is already running in the worker: its time starts now.
      if (slot.jobs[0]) this.startClock(slot, slot.jobs[0]);
      if (ev.data.crash) {
        this.log.error("read worker failed", { error: ev.data.crash });
        done.reject(new AppError("internal"));
      } else done.resolve(ev.data.outcome!);
      this.pump(slot);
    };
    worker.onerror = (ev) => {
      this.log.error("read worker crashed", { error: String((ev as ErrorEvent).message ?? ev) });
      this.replace(slot, new AppError("internal"));
    };
    (worker as unknown as { unref?: () => void }).unref?.();
    this.slots.push(slot);
    return slot;
  }

  private dispatch(slot: Slot, p: Pending): void {
    const sent: Sent = { ...p, seq: ++this.seq, runTimer: null };
    this.dispatched++;
    slot.jobs.push(sent);
    if (slot.jobs.length === 1) this.startClock(slot, sent);
    slot.worker.postMessage({ type: "job", seq: sent.seq, job: p.job });
  }

  /** Starts the run timer of the read a worker runs now. */
  private startClock(slot: Slot, sent: Sent): void {
    sent.runTimer = setTimeout(() => {
      this.timeouts++;
      this.onRefuse("timeout");
      this.replace(slot, new AppError("query_timeout"));
    }, this.opts.timeoutMs ?? 5000);
  }

  /**
   * Ends a worker that timed out or crashed, failing the read it ran. The read waiting behind it
   * never started (reads are side-effect free, so running it again is safe): it goes to a new
   * worker first, then the queue fills that worker.
   */
  private replace(slot: Slot, err: AppError): void {
    const [failed, ...waiting] = slot.jobs.splice(0);
    if (failed) {
      if (failed.runTimer) clearTimeout(failed.runTimer);
      failed.reject(err);
    }
    slot.worker.terminate();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    if (!waiting.length && !this.queue.length) return;
    const fresh = this.spawn();
    for (const w of waiting) this.dispatch(fresh, w);
    this.pump(fresh);
  }

  /** Fills a worker's free places from the queue. */
  private pump(slot: Slot): void {
    while (slot.jobs.length < this.depth) {
      const next = this.queue.shift();
      if (!next) return;
      if (next.waitTimer) clearTimeout(next.waitTimer);
      this.dispatch(slot, next);
    }
  }

  /** Stops every worker; queued reads are refused. */
  close(): void {
    this.closed = true;
    for (const p of this.queue.splice(0)) {
      if (p.waitTimer) clearTimeout(p.waitTimer);
      p.reject(new AppError("service_unavailable", { headers: { "retry-after": "1" } }));
    }
    for (const s of this.slots.splice(0)) {
      for (const j of s.jobs) if (j.runTimer) clearTimeout(j.runTimer);
      s.worker.terminate();
    }
  }
}
