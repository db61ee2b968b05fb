// Sign-in throttling (docs/security.md, "Sign-in throttle"): per account (the e-mail as typed,
// known or not) and per client IP, failures within a quiet window are counted; from the
// threshold on, every failure locks the key for a delay that doubles up to a cap, and attempts
// while locked answer 429 with Retry-After and are not checked at all. Time comes from the
// injected clock, so tests drive it without sleeping. The state is two bounded LRU maps owned
// by the app's services, never a module-level variable.
import { LRUCache } from "lru-cache";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../infra/clock.ts";

/** The policy of one kind of key (account or IP). */
export interface ThrottlePolicy {
  /** Failures allowed before the first lock. */
  threshold: number;
  /** The first lock; each further failure doubles it. */
  baseDelayMs: number;
  /** The longest lock. */
  maxDelayMs: number;
  /** Failures are forgotten after this long without one (counted from the end of a lock). */
  quietMs: number;
}

const MINUTE = 60_000;

/** Accounts: after 5 failures in 15 minutes, locks of 30 s, 1 min, 2 min, ... up to 15 min. */
export const ACCOUNT_POLICY: ThrottlePolicy = { threshold: 5, baseDelayMs: 30_000, maxDelayMs: 15 * MINUTE, quietMs: 15 * MINUTE };
/** Client IPs: several people may share one (an office behind NAT), so the threshold is higher. */
export const IP_POLICY: ThrottlePolicy = { threshold: 20, baseDelayMs: 30_000, maxDelayMs: 15 * MINUTE, quietMs: 15 * MINUTE };

/** Keys remembered per kind; the oldest are dropped first, so a flood of names cannot grow memory. */
const MAX_KEYS = 10_000;
/** The longest account key kept (an e-mail address is at most 254 characters). */
const MAX_KEY_CHARS = 256;

interface State {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/** One kind of key with its policy. */
class Counter {
  private readonly states = new LRUCache<string, State>({ max: MAX_KEYS });

  constructor(private readonly policy: ThrottlePolicy) {}

  /** The live state of a key at `now`, or undefined once it has gone quiet. */
  private live(key: string, now: number): State | undefined {
    const st = this.states.get(key);
    // Quiet is counted from the end of the lock, so a lock as long as the window does not wipe the count.
    if (st && now - Math.max(st.lastFailureAt, st.lockedUntil) >= this.policy.quietMs) {
      this.states.delete(key);
      return undefined;
    }
    return st;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    const st = this.live(key, now);
    return st ? Math.max(0, st.lockedUntil - now) : 0;
  }

  /** Counts one failure; from the threshold on it locks the key for a doubling delay. */
  fail(key: string, now: number): void {
    const st = this.live(key, now) ?? { failures: 0, lastFailureAt: now, lockedUntil: 0 };
    st.failures += 1;
    st.lastFailureAt = now;
    st.lockedUntil = this.lockAfter(st.failures, now);
    this.states.set(key, st);
  }

  /** Takes back one failure counted in advance for an attempt that succeeded. */
  refund(key: string, at: number): void {
    const st = this.states.get(key);
    if (!st) return;
    st.failures = Math.max(0, st.failures - 1);
    st.lockedUntil = st.failures === 0 ? 0 : Math.min(st.lockedUntil, this.lockAfter(st.failures, at));
  }

  forget(key: string): void {
    this.states.delete(key);
  }

  private lockAfter(failures: number, now: number): number {
    if (failures < this.policy.threshold) return 0;
    const delay = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** Math.min(30, failures - this.policy.threshold));
    return now + delay;
  }
}

/** The sign-in throttle of one server; `createApp` makes one and keeps it in the services. */
export class SignInThrottle {
  private readonly accounts: Counter;
  private readonly ips: Counter;

  constructor(
    private readonly clock: Clock,
    account: ThrottlePolicy = ACCOUNT_POLICY,
    ip: ThrottlePolicy = IP_POLICY,
  ) {
    this.accounts = new Counter(account);
    this.ips = new Counter(ip);
  }

  /**
   * Starts an attempt: refuses it with 429 `sign_in_throttled` while the account or the IP is
   * locked, otherwise counts it as a failure in advance (so attempts sent in parallel cannot all
   * slip past the threshold) and returns the settle function to call with the outcome.
   */
  begin(email: string, ip: string): (succeeded: boolean) => void {
    // No account's e-mail is longer than 254 characters; cutting the key keeps each of the
    // 10,000 remembered keys small even when a request sends a megabyte of "e-mail".
    const account = email.trim().toLowerCase().slice(0, MAX_KEY_CHARS);
    const now = this.clock.now();
    const wait = Math.max(this.accounts.waitMs(account, now), this.ips.waitMs(ip, now));
    if (wait > 0) throw new AppError("sign_in_throttled", { headers: { "retry-after": String(Math.ceil(wait / 1000)) } });
    this.accounts.fail(account, now);
    this.ips.fail(ip, now);
    return (succeeded) => {
      if (!succeeded) return;
      // A success clears the account; the IP only gets this attempt back, so signing in to an
      // account of one's own between guesses does not reset the IP's count.
      this.accounts.forget(account);
      this.ips.refund(ip, now);
    };
  }
}
