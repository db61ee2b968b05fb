// How often password reset mail may be asked for (docs/security.md, "Password reset by mail"), so
// the route cannot be used to flood a mailbox or the SMTP server. Per address (the e-mail as typed,
// trimmed and lower-cased, known or not): at most 3 mails an hour; a further request answers 202
// like any other and sends nothing, so the answer says nothing about the address. Per client IP:
// at most 20 requests an hour, then `429 reset_throttled` with Retry-After (an IP is not an
// account, so refusing it reveals nothing). Sliding windows in two bounded LRU maps, on the
// injected clock, owned by the app's services.
import { LRUCache } from "lru-cache";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../infra/clock.ts";

const HOUR = 3_600_000;
/** Mails one address may be sent in an hour. */
export const RESETS_PER_ADDRESS = 3;
/** Requests one client IP may make in an hour. */
export const RESETS_PER_IP = 20;
const MAX_KEYS = 10_000;

/** The times of the requests counted in the last hour, per key. */
class Window {
  private readonly times = new LRUCache<string, number[]>({ max: MAX_KEYS });

  constructor(private readonly max: number) {}

  /** Counts a request at `now` if the key has room; otherwise the milliseconds until it has. */
  take(key: string, now: number): number {
    const live = (this.times.get(key) ?? []).filter((t) => t > now - HOUR);
    if (live.length >= this.max) {
      this.times.set(key, live);
      return live[0]! + HOUR - now;
    }
    live.push(now);
    this.times.set(key, live);
    return 0;
  }
}

/** The reset throttle of one server. */
export class ResetThrottle {
  private readonly addresses = new Window(RESETS_PER_ADDRESS);
  private readonly ips = new Window(RESETS_PER_IP);

  constructor(private readonly clock: Clock) {}

  /** Refuses the client IP with 429 when it asked too often; answers whether a mail may go to `email`. */
  allow(email: string, ip: string): boolean {
    const now = this.clock.now();
    const wait = this.ips.take(ip, now);
    if (wait > 0) throw new AppError("reset_throttled", { headers: { "retry-after": String(Math.ceil(wait / 1000)) } });
    return this.addresses.take(email, now) === 0;
  }
}
