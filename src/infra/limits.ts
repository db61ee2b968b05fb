// Read limits of interface.md and decisions.md section 8: in-flight counts per client (key + IP),
// per key and per project, refused at once with 429; and a token bucket per key.
import { AppError } from "../errors.ts";

/** The in-flight limits of one read: per client (key + IP), per key, per project. */
export interface ReadLimits {
  client: number;
  key: number;
  project: number;
}

/** The slots an entries read or a GraphQL document takes. */
export function readSlots(limits: ReadLimits, keyId: string, ip: string, projectId: string): [string, number, string][] {
  return [
    [`c:${keyId}:${ip}`, limits.client, "for one client of a key"],
    [`k:${keyId}`, limits.key, "for one key"],
    [`p:${projectId}`, limits.project, "for one project's keys together"],
  ];
}

/** In-flight counters; a request takes every slot it needs or none. */
export class InFlight {
  private readonly counts = new Map<string, number>();
  refusals = 0;
  /** Told the kind of each refusal (`client`, `key`, `project`: the slot name's prefix), for metrics. */
  onRefuse: (limit: string) => void = () => {};

  /** Takes one slot of each `[name, max]`; returns the release function, or throws 429. */
  acquire(slots: [name: string, max: number, what: string][]): () => void {
    for (const [name, max, what] of slots) {
      if ((this.counts.get(name) ?? 0) >= max) {
        this.refusals++;
        this.onRefuse(({ c: "client", k: "key", p: "project" } as Record<string, string>)[name.split(":")[0]!] ?? name);
        throw new AppError("rate_limit_exceeded", {
          message: `Too many reads at once: at most ${max} ${what}.`,
          hint: "Wait for a read to finish before sending another; see the concurrency limits.",
          headers: { "retry-after": "1" },
        });
      }
    }
    for (const [name] of slots) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [name] of slots) {
        const n = (this.counts.get(name) ?? 1) - 1;
        if (n <= 0) this.counts.delete(name);
        else this.counts.set(name, n);
      }
    };
  }

  /** The slots held now, for tests and metrics. */
  held(name: string): number {
    return this.counts.get(name) ?? 0;
  }
}

export interface RateDecision {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  reset: number;
  /** Seconds until one request is allowed (only when refused). */
  retryAfter: number;
}

/** A token bucket per key: `rate` tokens a second up to `burst`. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  refusals = 0;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  take(key: string, now: number): RateDecision {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    else this.refusals++;
    return {
      ok,
      limit: this.burst,
      remaining: Math.floor(b.tokens),
      reset: Math.ceil((this.burst - b.tokens) / this.rate),
      retryAfter: ok ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / this.rate)),
    };
  }
}
