// The job table: every background loop is one row (name, cron pattern, body). Croner runs the
// timers with overrun protection, so a slow tick is never overlapped by the next; a body's error
// is logged and the loop goes on. Bodies are domain functions that take `now`, so tests drive them
// directly through the injected clock instead of waiting for timers.
import { Cron } from "croner";
import type { Logger } from "./log.ts";
import type { Clock } from "./clock.ts";

export interface Job {
  name: string;
  /** A croner pattern with seconds, e.g. every second: "* * * * * *". */
  pattern: string;
  /** The loop's body; `now` comes from the injected clock. */
  run(now: number): void | Promise<void>;
}

export interface JobStatus {
  name: string;
  pattern: string;
  runs: number;
  errors: number;
  lastRunAt: number | null;
  lastError: string | null;
  running: boolean;
}

export class JobTable {
  private readonly jobs = new Map<string, { job: Job; cron: Cron | null; status: JobStatus }>();
  private started = false;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Adds a job; it starts with the table (or at once when the table runs already). */
  add(job: Job): void {
    const status: JobStatus = { name: job.name, pattern: job.pattern, runs: 0, errors: 0, lastRunAt: null, lastError: null, running: false };
    this.jobs.set(job.name, { job, cron: null, status });
    if (this.started) this.schedule(job.name);
  }

  private schedule(name: string): void {
    const entry = this.jobs.get(name)!;
    // In UTC (utcOffset 0): the loops do not follow the host's time zone, and croner never reads
    // local time, whose first use loads the zone tables (ICU): 3-4 MiB of an idle server's RSS.
    entry.cron = new Cron(entry.job.pattern, { protect: true, catch: false, unref: true, utcOffset: 0 }, () => this.runNow(name));
  }

  /** Runs one job's body now (what a timer tick does); errors are logged, never thrown. */
  async runNow(name: string): Promise<void> {
    const entry = this.jobs.get(name);
    if (!entry || entry.status.running) return;
    entry.status.running = true;
    try {
      await entry.job.run(this.clock.now());
      entry.status.runs++;
    } catch (e) {
      entry.status.errors++;
      entry.status.lastError = String(e instanceof Error ? e.message : e);
      this.log.error("job failed", { job: name, error: String(e instanceof Error ? e.stack : e) });
    } finally {
      entry.status.lastRunAt = this.clock.now();
      entry.status.running = false;
    }
  }

  /** Starts every job's timer. Tests leave the table stopped and call runNow. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const name of this.jobs.keys()) this.schedule(name);
  }

  /** Stops every timer and waits for running bodies to finish (up to `waitMs`). */
  async stop(waitMs = 10_000): Promise<void> {
    this.started = false;
    for (const e of this.jobs.values()) e.cron?.stop();
    const until = Date.now() + waitMs;
    while ([...this.jobs.values()].some((e) => e.status.running) && Date.now() < until) await Bun.sleep(10);
  }

  /** When a job's timer fires next; null while the table is stopped. */
  nextRun(name: string): Date | null {
    return this.jobs.get(name)?.cron?.nextRun() ?? null;
  }

  /** The status of every job, for health output. */
  status(): JobStatus[] {
    return [...this.jobs.values()].map((e) => ({ ...e.status }));
  }
}
