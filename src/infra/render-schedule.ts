// The rules of the render queue (render-queue.ts) as pure functions of a snapshot, so the queue
// and its wait estimate use the same ones: which waiting job starts next, and when a job would
// start if it were queued now.
//
// - Fair: the next job is the head of the client that has been served the fewest source pixels,
//   so a client with one small variant goes before the fifth render of a client's flood. A client
//   that arrives (or comes back) starts at the queue's virtual time, not at zero, so past
//   idleness buys no priority over the others.
// - Budgeted: the jobs running at once hold at most `budget` bytes (their reservations).
// - Room for small work: large jobs (many source pixels, or more than a quarter of the budget)
//   may hold at most all slots but one and three quarters of the budget, so a small job never
//   waits for a large one to finish.

/** A job as the schedule sees it. */
export interface ScheduledJob {
  client: string;
  /** Source pixels: what the job costs in fairness, and what its time is estimated from. */
  pixels: number;
  /** Bytes reserved while it runs. */
  bytes: number;
  large: boolean;
  /** Arrival order, for ties. */
  seq: number;
  /** Estimated run time. */
  estMs: number;
}

/** A running job: its reservation and when it is expected to end (ms from now). */
export interface RunningJob {
  bytes: number;
  large: boolean;
  endsInMs: number;
}

/** The limits of a schedule. */
export interface ScheduleLimits {
  slots: number;
  budget: number;
}

/** The state the rules read: what runs, what waits (per client, first come first), who was served how much. */
export interface ScheduleState {
  running: RunningJob[];
  queues: Map<string, ScheduledJob[]>;
  served: Map<string, number>;
}

/** The bytes large jobs may hold together: the budget less the quarter kept for small work. */
export function largeBudget(budget: number): number {
  return budget - Math.floor(budget / 4);
}

/** Whether `job` may start beside what runs now. */
export function canStart(limits: ScheduleLimits, running: RunningJob[], job: ScheduledJob): boolean {
  if (running.length >= limits.slots) return false;
  let bytes = 0;
  let large = 0;
  let largeBytes = 0;
  for (const r of running) {
    bytes += r.bytes;
    if (r.large) {
      large++;
      largeBytes += r.bytes;
    }
  }
  // A job alone may always start: its reservation is at most half the budget (the decode limit).
  if (running.length > 0 && bytes + job.bytes > limits.budget) return false;
  if (job.large && (large >= limits.slots - 1 || (large > 0 && largeBytes + job.bytes > largeBudget(limits.budget)))) return false;
  return true;
}

/** The next job to start, or null: the least-served client's head among those that may start. */
export function pickNext(limits: ScheduleLimits, state: ScheduleState): ScheduledJob | null {
  let best: ScheduledJob | null = null;
  let bestServed = 0;
  for (const [client, queue] of state.queues) {
    const head = queue[0];
    if (!head || !canStart(limits, state.running, head)) continue;
    const served = state.served.get(client) ?? 0;
    if (best === null || served < bestServed || (served === bestServed && head.seq < best.seq)) {
      best = head;
      bestServed = served;
    }
  }
  return best;
}

/** Removes `job` from its client's queue and charges the client its pixels (at least one megapixel, so tiny jobs still count). */
export function charge(state: ScheduleState, job: ScheduledJob): void {
  const queue = state.queues.get(job.client)!;
  queue.splice(queue.indexOf(job), 1);
  if (queue.length === 0) state.queues.delete(job.client);
  state.served.set(job.client, (state.served.get(job.client) ?? 0) + Math.max(job.pixels, 1_000_000));
}

/**
 * When each waiting job would start, in ms from now, if nothing else arrived and every job took
 * its estimate: the schedule played forward on a copy of the state.
 */
export function simulate(limits: ScheduleLimits, state: ScheduleState): Map<ScheduledJob, number> {
  const sim: ScheduleState = {
    running: state.running.map((r) => ({ ...r })),
    queues: new Map([...state.queues].map(([c, q]) => [c, [...q]])),
    served: new Map(state.served),
  };
  const starts = new Map<ScheduledJob, number>();
  let now = 0;
  while (sim.queues.size > 0) {
    const next = pickNext(limits, sim);
    if (next !== null) {
      charge(sim, next);
      starts.set(next, now);
      sim.running.push({ bytes: next.bytes, large: next.large, endsInMs: now + next.estMs });
      continue;
    }
    if (sim.running.length === 0) break;
    now = Math.min(...sim.running.map((r) => r.endsInMs));
    sim.running = sim.running.filter((r) => r.endsInMs > now);
  }
  return starts;
}
