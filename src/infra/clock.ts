// The injected clock and id source, so tests can freeze or drive time (scheduling, expiry, retries).

/** Milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; tests drive time through it instead of sleeping. */
export class ManualClock implements Clock {
  constructor(private t: number = Date.now()) {}
  now(): number {
    return this.t;
  }
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.t += ms;
  }
  set(t: number): void {
    this.t = t;
  }
}

/** ISO 8601 UTC with milliseconds, the form every stored timestamp uses (it sorts as text). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The id source: UUIDv7, so ids of records created later sort later. */
export interface Ids {
  uuid(): string;
}

export const systemIds: Ids = { uuid: () => Bun.randomUUIDv7() };
