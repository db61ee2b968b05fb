// The edge purger: sends the purge outbox (edge/outbox.ts) to every target of CAPA_EDGE_PURGE.
// One lane per target, as the webhook sender has one per endpoint, so a Varnish that is down
// never holds up another. A lane coalesces: it calls its target at most once per 100 ms (wall
// time, counted from the previous call's answer), and each call carries the tags of every row
// due by then, merged, up to the vendor's per-call limit (edge/batch.ts, edge/vendors.ts).
// A failed call leaves its rows in place with their next attempt after a back-off (1 s doubling
// to 1 min, or the Retry-After of a 429), on the injected clock, so a restart resumes the wait
// and tests drive it; no row is ever dropped except one older than CAPA_EDGE_TTL, whose answers
// have expired at the edge by themselves. Reads and writes never wait for any of this.
import type { Services } from "../../services.ts";
import type { Counter } from "../../infra/metrics.ts";
import { fillBatch, type Batch } from "./batch.ts";
import { CONTROL } from "./outbox.ts";
import { PendingIndex } from "./pending.ts";
import { settleFailed, settleSent, type PurgeFile } from "./queue.ts";
import type { EdgeTarget } from "./settings.ts";
import { CALL_LIMITS, destinationCheck, sendPurge, VENDOR_APIS, type ApiBases, type CallResult } from "./vendors.ts";

/** Wall time between two calls to one target, at least. */
export const SPACING_MS = 100;
/** One call may take this long, answer included. */
export const TIMEOUT_MS = 10_000;
const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 60_000;
/** The longest Retry-After kept to; a longer one is cut to this and asked again. */
const LONGEST_RETRY_AFTER_MS = 3_600_000;

/** What health and the log show of one target. */
export interface TargetStatus {
  target: string;
  vendor: string;
  pending: number;
  oldestSeconds: number | null;
  calls: number;
  failures: number;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  retryAt: string | null;
}

interface TargetState {
  target: EdgeTarget;
  calls: number;
  /** Failed calls in a row (the back-off's exponent). */
  failures: number;
  /** performance.now() when the last call was answered: the 100 ms spacing is wall time. */
  lastCallPerf: number;
  /** Clock time before which the target is not called again (after a failure). */
  retryAt: number;
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class EdgePurger {
  /** The per-call timeout; tests lower it so a silent target does not cost 10 s. */
  timeoutMs = TIMEOUT_MS;
  /** Where Fastly's and Cloudflare's APIs are; tests and the benchmark point them at local servers. */
  apis: ApiBases = { ...VENDOR_APIS };
  private readonly states = new Map<string, TargetState>();
  private readonly index: PendingIndex;
  private readonly lanes = new Map<string, Promise<void>>();
  /** Targets with rows written since their lane last looked. */
  private readonly dirty = new Set<string>();
  private live = false;
  private stopped = false;
  private kickQueued = false;
  private readonly calls: Counter;
  private readonly tagsSent: Counter;

  /** `services` is called only after construction (the services hold this object). */
  constructor(
    private readonly services: () => Services,
    targets: EdgeTarget[],
    metrics: Services["metrics"],
  ) {
    for (const target of targets) {
      this.states.set(target.id, {
        target,
        calls: 0,
        failures: 0,
        lastCallPerf: Number.NEGATIVE_INFINITY,
        retryAt: 0,
        lastSuccessAt: null,
        lastError: null,
        lastErrorAt: null,
      });
    }
    this.index = new PendingIndex(
      services,
      targets.map((t) => t.id),
    );
    const r = metrics.registry;
    this.calls = r.counter("capa_edge_purge_calls_total", "Purge calls to the edge caches, by vendor and outcome (ok, failed).", ["vendor", "outcome"]);
    this.tagsSent = r.counter("capa_edge_purge_tags_total", "Tags purged at the edge caches by successful calls, by vendor.", ["vendor"]);
    r.gauge("capa_edge_purge_pending", "Purge rows waiting to be sent, by vendor.", ["vendor"]).collect(() =>
      this.index.loaded ? this.byVendor((t) => this.index.of(t.id).rows) : null,
    );
    r.gauge("capa_edge_purge_oldest_seconds", "Age of the oldest purge waiting to be sent, by vendor (0 when none waits).", ["vendor"]).collect(() =>
      this.index.loaded ? this.byVendor((t) => this.oldestSeconds(t.id) ?? 0, Math.max) : null,
    );
    for (const t of targets) {
      this.calls.inc({ vendor: t.vendor, outcome: "ok" }, 0);
      this.calls.inc({ vendor: t.vendor, outcome: "failed" }, 0);
      this.tagsSent.inc({ vendor: t.vendor }, 0);
    }
  }

  private get s(): Services {
    return this.services();
  }

  /** Whether any target is configured. */
  get enabled(): boolean {
    return this.states.size > 0;
  }

  /** Told after a commit that wrote purge rows into `fileId`: note them and wake the lanes. */
  wake(fileId: string): void {
    this.index.note(fileId, this.s.clock.now());
    for (const id of this.states.keys()) this.dirty.add(id);
    this.kick();
  }

  /** Marks the purger as driven by its timer (the job's first tick): from then on a wake starts a lane at once. */
  goLive(): void {
    this.live = true;
  }

  private kick(): void {
    if (!this.live || this.stopped || this.kickQueued) return;
    this.kickQueued = true;
    setTimeout(() => {
      this.kickQueued = false;
      this.runDue().catch((e) => this.s.log.error("edge purge run failed", { error: String(e instanceof Error ? e.stack : e) }));
    }, 0);
  }

  /**
   * One tick: starts a lane for every target with a due row that is not waiting out a failure,
   * and resolves when the lanes it started are idle. The job does not wait for it; tests do.
   */
  async runDue(now: number = this.s.clock.now()): Promise<void> {
    if (this.stopped || !this.enabled) return;
    this.index.load(this.expiredBefore(now));
    // The CLI writes key and project changes into the control file from another process.
    this.index.refresh(CONTROL);
    const started: Promise<void>[] = [];
    for (const [id, st] of this.states) {
      if (this.lanes.has(id) || st.retryAt > now || this.index.of(id).dueAt > now) continue;
      const lane = this.lane(st)
        .catch((e) => this.s.log.error("edge purge lane failed", { target: id, error: String(e instanceof Error ? e.stack : e) }))
        .finally(() => {
          this.lanes.delete(id);
          if (this.dirty.has(id)) this.kick();
        });
      this.lanes.set(id, lane);
      started.push(lane);
    }
    await Promise.all(started);
  }

  /** Stops for good: a call under way finishes, and nothing more is sent or recorded. */
  stop(): void {
    this.stopped = true;
  }

  /** Waits for every running lane, and for a run a wake has asked for (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.lanes.size > 0 || this.kickQueued) {
      if (this.lanes.size > 0) await Promise.all([...this.lanes.values()]);
      else await Bun.sleep(1);
    }
  }

  /** Every target's state, for /healthz. */
  status(now: number = this.s.clock.now()): TargetStatus[] {
    this.index.load(this.expiredBefore(now));
    return [...this.states.values()].map((st) => ({
      target: st.target.id,
      vendor: st.target.vendor,
      pending: this.index.of(st.target.id).rows,
      oldestSeconds: this.oldestSeconds(st.target.id, now),
      calls: st.calls,
      failures: st.failures,
      lastSuccessAt: iso(st.lastSuccessAt),
      lastError: st.lastError,
      lastErrorAt: iso(st.lastErrorAt),
      retryAt: st.retryAt > now ? iso(st.retryAt) : null,
    }));
  }

  /** Rows written before this are moot: whatever they would purge has expired at the edge. */
  private expiredBefore(now: number): number {
    return now - this.s.config.edge.ttlSeconds * 1000;
  }

  private oldestSeconds(target: string, now: number = this.s.clock.now()): number | null {
    const p = this.index.of(target);
    return p.rows === 0 ? null : Math.max(0, Math.floor((now - p.oldestAt) / 1000));
  }

  private byVendor(value: (t: EdgeTarget) => number, merge: (a: number, b: number) => number = (a, b) => a + b) {
    const out = new Map<string, number>();
    for (const st of this.states.values()) {
      const v = value(st.target);
      out.set(st.target.vendor, out.has(st.target.vendor) ? merge(out.get(st.target.vendor)!, v) : v);
    }
    return [...out].map(([vendor, v]) => ({ labels: { vendor }, value: v }));
  }

  /** Calls one target until nothing of it is due, at most once per SPACING_MS; ends at the first failure. */
  private async lane(st: TargetState): Promise<void> {
    const id = st.target.id;
    for (;;) {
      const wait = st.lastCallPerf + SPACING_MS - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      if (this.stopped) return;
      this.dirty.delete(id);
      const now = this.s.clock.now();
      const batch = fillBatch(this.s, this.index, id, now, CALL_LIMITS[st.target.vendor], this.expiredBefore(now));
      if (batch.tags.size === 0) return;
      const tags = [...batch.tags];
      const result = await sendPurge(st.target, tags, {
        token: this.s.config.edge.token ?? "",
        timeoutMs: this.timeoutMs,
        apis: this.apis,
        resolve: destinationCheck(this.s.config.edge.allowPrivate),
      });
      // Counted from the answer, so the target itself never sees two calls less than 100 ms apart.
      st.lastCallPerf = performance.now();
      if (this.stopped) return;
      this.record(st, batch, tags.length, result);
      if (!result.ok) return;
    }
  }

  /** Settles a call's rows and counts it. */
  private record(st: TargetState, batch: Batch, tagCount: number, result: CallResult): void {
    const now = this.s.clock.now();
    const vendor = st.target.vendor;
    st.calls++;
    const touched = new Map<string, PurgeFile>();
    for (const r of batch.rows) touched.set(r.file.id, r.file);
    if (batch.partial) touched.set(batch.partial.file.id, batch.partial.file);
    if (result.ok) {
      this.calls.inc({ vendor, outcome: "ok" });
      this.tagsSent.inc({ vendor }, tagCount);
      st.failures = 0;
      st.retryAt = 0;
      st.lastSuccessAt = now;
      for (const f of touched.values()) {
        const partial = batch.partial?.file.id === f.id ? { seq: batch.partial.seq, rest: batch.partial.rest } : null;
        settleSent(
          f,
          batch.rows.filter((r) => r.file.id === f.id).map((r) => r.seq),
          partial,
        );
      }
    } else {
      this.calls.inc({ vendor, outcome: "failed" });
      st.failures++;
      const backoff = Math.min(FIRST_RETRY_MS * 2 ** (st.failures - 1), LONGEST_RETRY_MS);
      const wait = result.retryAfterMs === null ? backoff : Math.min(Math.max(result.retryAfterMs, FIRST_RETRY_MS), LONGEST_RETRY_AFTER_MS);
      st.retryAt = now + wait;
      st.lastError = result.error;
      st.lastErrorAt = now;
      for (const f of touched.values()) {
        const seqs = batch.rows.filter((r) => r.file.id === f.id).map((r) => r.seq);
        if (batch.partial?.file.id === f.id) seqs.push(batch.partial.seq);
        settleFailed(f, seqs, st.retryAt, result.error);
      }
      this.s.log.warn("edge purge failed; will retry", { target: st.target.id, tags: tagCount, retryInSeconds: wait / 1000, error: result.error });
    }
    for (const id of touched.keys()) this.index.refresh(id);
  }
}

/** The body of the `edge-purge` job: starts lanes and returns at once, so a slow target never blocks the next tick. */
export function edgePurgeTick(s: Services, now: number): void {
  s.edge.goLive();
  s.edge.runDue(now).catch((e) => s.log.error("edge purge tick failed", { error: String(e instanceof Error ? e.stack : e) }));
}
