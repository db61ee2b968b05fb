// The global read pool: worker threads that run uncached entries reads. A read waits at most
// `waitMs` for a free worker (then 503 service_unavailable with Retry-After) and runs at most
// `timeoutMs` (then 504 query_timeout; the worker, possibly stuck in SQLite, is replaced).
// Workers start lazily, so an idle server (and each test app) pays only for what it uses.
import { AppError } from "../errors.ts";
import { READ_WORKER } from "./paths.ts";
import type { Logger } from "./log.ts";
import type { ReadJob, ReadOutcome } from "../domain/reads/job.ts";
import type { FileOptions } from "../storage/sqlite.ts";

interface Pending {
  job: ReadJob;
  resolve: (o: ReadOutcome) => void;
  reject: (e: unknown) => void;
  waitTimer: ReturnType<typeof setTimeout> | null;
}

interface Slot {
  worker: Worker;
  busy: (Pending & { seq: number; runTimer: ReturnType<typeof setTimeout> }) | null;
}

export interface ReadPoolOptions {
  size: number;
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
  ) {}

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

  /** The number of workers started and busy now. */
  get stats() {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.busy).length, queued: this.queue.length };
  }

  private freeSlot(): Slot | null {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length < this.opts.size) return this.spawn();
    return null;
  }

  private spawn(): Slot {
    const worker = new Worker(READ_WORKER);
    const slot: Slot = { worker, busy: null };
    worker.postMessage({ type: "init", dir: this.opts.dir, openMax: this.opts.openMax, idleMs: this.opts.idleMs, fileOptions: this.opts.fileOptions ?? {} });
    worker.onmessage = (ev: MessageEvent<{ seq: number; outcome?: ReadOutcome; crash?: string }>) => {
      const b = slot.busy;
      if (!b || b.seq !== ev.data.seq) return;
      clearTimeout(b.runTimer);
      slot.busy = null;
      if (ev.data.crash) {
        this.log.error("read worker failed", { error: ev.data.crash });
        b.reject(new AppError("internal"));
      } else b.resolve(ev.data.outcome!);
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
    const seq = ++this.seq;
    this.dispatched++;
    const runTimer = setTimeout(() => {
      this.timeouts++;
      this.onRefuse("timeout");
      this.replace(slot, new AppError("query_timeout"));
    }, this.opts.timeoutMs ?? 5000);
    slot.busy = { ...p, seq, runTimer };
    slot.worker.postMessage({ type: "job", seq, job: p.job });
  }

  /** Ends a worker that timed out or crashed, failing its read; a new one starts when needed. */
  private replace(slot: Slot, err: AppError): void {
    const b = slot.busy;
    slot.busy = null;
    if (b) {
      clearTimeout(b.runTimer);
      b.reject(err);
    }
    slot.worker.terminate();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const next = this.queue.shift();
    if (next) {
      if (next.waitTimer) clearTimeout(next.waitTimer);
      this.dispatch(this.spawn(), next);
    }
  }

  private pump(slot: Slot): void {
    const next = this.queue.shift();
    if (!next) return;
    if (next.waitTimer) clearTimeout(next.waitTimer);
    this.dispatch(slot, next);
  }

  /** Stops every worker; queued reads are refused. */
  close(): void {
    this.closed = true;
    for (const p of this.queue.splice(0)) {
      if (p.waitTimer) clearTimeout(p.waitTimer);
      p.reject(new AppError("service_unavailable", { headers: { "retry-after": "1" } }));
    }
    for (const s of this.slots.splice(0)) {
      if (s.busy) clearTimeout(s.busy.runTimer);
      s.worker.terminate();
    }
  }
}
