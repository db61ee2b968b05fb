// The render queue (issue 24): every decode of an image (the upload's probe, its placeholder, a
// new variant) runs here, so what runs at once is bounded in slots and in memory. A job brings its
// client, its cost in source pixels and the bytes it may hold; the schedule (render-schedule.ts)
// starts the least-served client's job first, keeps the decodes running at once within the
// budget, and keeps a slot and a quarter of the budget for small jobs.
//
// Admission: a job that would wait longer than `maxWaitMs`, by an estimate played forward from
// the jobs running and waiting (each timed from its pixels at the speed this server has shown for
// its kind of work), is refused with the seconds after which it would not be; so are jobs past
// the queue's bound or past their client's share of it. Uploads' probes are never refused; they
// wait their turn.
import type { Clock } from "./clock.ts";
import { charge, pickNext, type RunningJob, type ScheduledJob, type ScheduleLimits, type ScheduleState, simulate } from "./render-schedule.ts";

/** What a job is. */
export interface RenderJob {
  /** Who asked (an IP, a user, a key): fairness and the queue's shares are per client. */
  client: string;
  /** Source pixels: the job's cost, and what its time is estimated from. */
  pixels: number;
  /** The most memory the job may hold; the queue holds it back until the job ends or shrinks it. */
  bytes: number;
  /** The kind of work, whose speed the queue learns (e.g. `render:image/png`). */
  kind: string;
}

/** A job refused at the door; `retryAfterS` is when it would not be. */
export class RenderRefused extends Error {
  constructor(
    readonly reason: "queue_full" | "client_share" | "wait",
    readonly retryAfterS: number,
    message: string,
  ) {
    super(message);
  }
}

/** The running job's handle. */
export interface RenderSlot {
  /** Lowers the job's reservation once it knows what it needs (never raises it). */
  shrink(bytes: number): void;
}

/** The queue's size and limits. */
export interface RenderQueueOptions {
  /** Jobs at once; at least 2, so a slot can be kept for small work. */
  slots: number;
  /** Bytes the running jobs may hold together (CAPA_MEDIA_DECODE_BUDGET). */
  budgetBytes: number;
  clock: Clock;
  /** Jobs that may wait; default 8 per slot. */
  maxQueue?: number;
  /** Jobs one client may have waiting; default a quarter of maxQueue. */
  perClientQueue?: number;
  /** The longest estimated wait a job is admitted with; default 3 s. */
  maxWaitMs?: number;
  /** A job of more source pixels than this is large; default 16 megapixels. */
  smallPixels?: number;
}

/** Before anything is learnt: 20 ns a pixel (2 s for 100 megapixels, a slow PNG). */
const PRIOR_NS_PER_PIXEL = 20;
/** Every job's fixed cost: opening the file, reading the header, encoding a small output. */
const OVERHEAD_MS = 10;

interface Waiting extends ScheduledJob {
  kind: string;
  begin(active: Active): void;
}

interface Active extends RunningJob {
  client: string;
  startedAt: number;
  estMs: number;
}

/** A fair, memory-budgeted queue of image work; one per process. */
export class RenderQueue {
  readonly slots: number;
  readonly budgetBytes: number;
  readonly maxQueue: number;
  readonly perClientQueue: number;
  readonly maxWaitMs: number;
  private readonly smallPixels: number;
  private readonly clock: Clock;
  private readonly running = new Set<Active>();
  private readonly queues = new Map<string, Waiting[]>();
  private readonly served = new Map<string, number>();
  private readonly nsPerPixel = new Map<string, number>();
  private seq = 0;
  private queued = 0;
  /** The served pixels of the last client started: where a newly active client starts from. */
  private virtualTime = 0;

  constructor(opts: RenderQueueOptions) {
    this.slots = Math.max(2, opts.slots);
    this.budgetBytes = opts.budgetBytes;
    this.clock = opts.clock;
    this.maxQueue = opts.maxQueue ?? this.slots * 8;
    this.perClientQueue = opts.perClientQueue ?? Math.max(1, Math.floor(this.maxQueue / 4));
    this.maxWaitMs = opts.maxWaitMs ?? 3000;
    this.smallPixels = opts.smallPixels ?? 16_000_000;
  }

  /** What one job may hold: half the budget, so a second job always has room beside the largest. */
  get decodeLimit(): number {
    return Math.floor(this.budgetBytes / 2);
  }

  /** Jobs running now. */
  get active(): number {
    return this.running.size;
  }

  /** Jobs waiting now. */
  get waiting(): number {
    return this.queued;
  }

  /** Bytes the running jobs hold now. */
  get bytesInUse(): number {
    let n = 0;
    for (const r of this.running) n += r.bytes;
    return n;
  }

  /** The estimated run time of a job of `pixels` of this kind, in ms. */
  estimateMs(kind: string, pixels: number): number {
    return OVERHEAD_MS + (pixels * (this.nsPerPixel.get(kind) ?? PRIOR_NS_PER_PIXEL)) / 1e6;
  }

  /**
   * Runs `fn` once the schedule starts the job. With `admit`, the job is refused at once, by a
   * RenderRefused thrown before this returns (not a rejected promise, so a caller can tell an
   * admitted job from a refused one without awaiting), when the queue is full, the client holds
   * its share of it, or the estimated wait is too long.
   */
  run<T>(job: RenderJob, fn: (slot: RenderSlot) => Promise<T>, opts: { admit?: boolean } = {}): Promise<T> {
    const bytes = Math.min(Math.max(0, Math.ceil(job.bytes)), this.decodeLimit);
    let begin: (active: Active) => void = () => {};
    const started = new Promise<Active>((resolve) => {
      begin = resolve;
    });
    const entry: Waiting = {
      client: job.client,
      pixels: job.pixels,
      bytes,
      large: job.pixels > this.smallPixels || bytes > this.budgetBytes / 4,
      seq: this.seq++,
      estMs: this.estimateMs(job.kind, job.pixels),
      kind: job.kind,
      begin,
    };
    if (!this.queues.has(job.client) && !this.isRunning(job.client)) {
      // A client becoming active starts at the virtual time: no credit for having been away.
      this.served.set(job.client, Math.max(this.served.get(job.client) ?? 0, this.virtualTime));
    }
    const queue = this.queues.get(job.client) ?? [];
    queue.push(entry);
    this.queues.set(job.client, queue);
    this.queued++;
    if (opts.admit) {
      try {
        this.admit(entry);
      } catch (err) {
        this.remove(entry);
        throw err;
      }
    }
    this.pump();
    return this.execute(started, job, fn);
  }

  private async execute<T>(started: Promise<Active>, job: RenderJob, fn: (slot: RenderSlot) => Promise<T>): Promise<T> {
    const active = await started;
    let ok = false;
    try {
      const out = await fn({
        shrink: (to) => {
          if (to < active.bytes) {
            active.bytes = Math.max(0, Math.ceil(to));
            this.pump();
          }
        },
      });
      ok = true;
      return out;
    } finally {
      this.running.delete(active);
      // Only finished work teaches the speed: a file refused after its header took no time to decode.
      if (ok) this.learn(job.kind, job.pixels, this.clock.now() - active.startedAt);
      if (!this.queues.has(job.client) && !this.isRunning(job.client)) this.served.delete(job.client);
      this.pump();
    }
  }

  private isRunning(client: string): boolean {
    for (const r of this.running) if (r.client === client) return true;
    return false;
  }

  private remove(entry: Waiting): void {
    const queue = this.queues.get(entry.client)!;
    queue.splice(queue.indexOf(entry), 1);
    if (queue.length === 0) this.queues.delete(entry.client);
    this.queued--;
    if (!this.queues.has(entry.client) && !this.isRunning(entry.client)) this.served.delete(entry.client);
  }

  private limits(): ScheduleLimits {
    return { slots: this.slots, budget: this.budgetBytes };
  }

  /** A snapshot for the schedule: running jobs with their expected remaining time. */
  private state(): ScheduleState {
    const now = this.clock.now();
    const running = [...this.running].map((r) => ({
      bytes: r.bytes,
      large: r.large,
      // A job past its estimate is taken to need a tenth of it more, not to be done.
      endsInMs: Math.max(r.estMs - (now - r.startedAt), r.estMs / 10),
    }));
    return { running, queues: this.queues as Map<string, ScheduledJob[]>, served: this.served };
  }

  private admit(entry: Waiting): void {
    if (this.queued > this.maxQueue) {
      const soonest = Math.min(...this.state().running.map((r) => r.endsInMs));
      throw new RenderRefused("queue_full", seconds(Number.isFinite(soonest) ? soonest : 0), "The server is busy making other image variants.");
    }
    const starts = simulate(this.limits(), this.state());
    const mine = this.queues.get(entry.client)!;
    if (mine.length > this.perClientQueue) {
      throw new RenderRefused("client_share", seconds(starts.get(mine[0]!) ?? 0), `This client already has ${this.perClientQueue} new image variants waiting.`);
    }
    const wait = starts.get(entry) ?? 0;
    if (wait > this.maxWaitMs) {
      throw new RenderRefused(
        "wait",
        seconds(wait - this.maxWaitMs),
        `The server is busy making image variants; this one would wait about ${Math.round(wait / 1000)} s.`,
      );
    }
  }

  /** Starts every job the schedule allows now. */
  private pump(): void {
    for (;;) {
      const state = this.state();
      const next = pickNext(this.limits(), state) as Waiting | null;
      if (next === null) return;
      charge(state, next);
      this.queued--;
      this.virtualTime = Math.max(this.virtualTime, (this.served.get(next.client) ?? 0) - Math.max(next.pixels, 1_000_000));
      // Counted as running before its caller resumes, so the next pick sees it.
      const active: Active = { client: next.client, bytes: next.bytes, large: next.large, startedAt: this.clock.now(), estMs: next.estMs, endsInMs: 0 };
      this.running.add(active);
      next.begin(active);
    }
  }

  /** Learns the speed of a kind of work from a finished job (a moving average). */
  private learn(kind: string, pixels: number, elapsedMs: number): void {
    if (pixels <= 0) return;
    const sample = (Math.max(0, elapsedMs - OVERHEAD_MS) * 1e6) / pixels;
    const old = this.nsPerPixel.get(kind);
    this.nsPerPixel.set(kind, old === undefined ? sample : old * 0.7 + sample * 0.3);
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
