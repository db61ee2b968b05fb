// The edge purger: sends the purge outbox (edge/outbox.ts) to every target of CAPA_EDGE_PURGE.
// One lane per target, as the webhook sender has one per endpoint, so a Varnish that is down
// never holds up another. A lane coalesces: it calls its target at most once per 100 ms (wall
// time), and each call carries the tags of every row due by then, merged and deduplicated, up to
// the vendor's per-call limit (edge/vendors.ts); a row too large for one call is sent in parts.
// A failed call leaves its rows in place with their next attempt after a back-off (1 s doubling
// to 1 min, or the Retry-After of a 429), on the injected clock, so a restart resumes the wait
// and tests drive it; no row is ever dropped except one older than CAPA_EDGE_TTL, whose answers
// have expired at the edge by themselves. Reads and writes never wait for any of this.
import type { Services } from "../../services.ts";
import type { Counter } from "../../infra/metrics.ts";
import { projectsOnDisk } from "../scheduling/wake.ts";
import { CONTROL } from "./outbox.ts";
import { dropMoot, dueRows, pendingOf, purgeFile, settleFailed, settleSent, type DueRow, type Pending, type PurgeFile } from "./queue.ts";
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
/** Rows read per file while filling one call. */
const ROWS_PER_READ = 500;

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
  /** performance.now() of the last call's start: the 100 ms spacing is wall time. */
  lastCallPerf: number;
  /** Clock time before which the target is not called again (after a failure). */
  retryAt: number;
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

/** One call being filled: its tags, and the rows it covers whole or in part. */
interface Batch {
  tags: Set<string>;
  bytes: number;
  rows: { file: PurgeFile; seq: number }[];
  partial: { file: PurgeFile; seq: number; rest: string[] } | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class EdgePurger {
  /** The per-call timeout; tests lower it so a silent target does not cost 10 s. */
  timeoutMs = TIMEOUT_MS;
  /** Where Fastly's and Cloudflare's APIs are; tests and the benchmark point them at local servers. */
  apis: ApiBases = { ...VENDOR_APIS };
  private readonly states = new Map<string, TargetState>();
  /** Per file (CONTROL or a project id), per target: what is pending. Null until the first scan. */
  private index: Map<string, Map<string, Pending>> | null = null;
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
    const r = metrics.registry;
    this.calls = r.counter("capa_edge_purge_calls_total", "Purge calls to the edge caches, by vendor and outcome (ok, failed).", ["vendor", "outcome"]);
    this.tagsSent = r.counter("capa_edge_purge_tags_total", "Tags purged at the edge caches by successful calls, by vendor.", ["vendor"]);
    r.gauge("capa_edge_purge_pending", "Purge rows waiting to be sent, by vendor.", ["vendor"]).collect(() =>
      this.index ? this.byVendor((t) => this.pendingOf(t.id).rows) : null,
    );
    r.gauge("capa_edge_purge_oldest_seconds", "Age of the oldest purge waiting to be sent, by vendor (0 when none waits).", ["vendor"]).collect(() =>
      this.index ? this.byVendor((t) => this.oldestSeconds(t.id) ?? 0, Math.max) : null,
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
    const now = this.s.clock.now();
    if (this.index) {
      const byTarget = this.index.get(fileId) ?? new Map<string, Pending>();
      for (const id of this.states.keys()) {
        const p = byTarget.get(id);
        byTarget.set(id, p ? { rows: p.rows + 1, oldestAt: Math.min(p.oldestAt, now), dueAt: Math.min(p.dueAt, now) } : { rows: 1, oldestAt: now, dueAt: now });
      }
      this.index.set(fileId, byTarget);
    }
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
    this.load(now);
    // The CLI writes key and project changes into the control file from another process.
    this.refresh(CONTROL);
    const started: Promise<void>[] = [];
    for (const [id, st] of this.states) {
      if (this.lanes.has(id) || st.retryAt > now || !this.isDue(id, now)) continue;
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

  /** Waits for every running lane (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.lanes.size > 0) await Promise.all([...this.lanes.values()]);
  }

  /** Every target's state, for /healthz. */
  status(now: number = this.s.clock.now()): TargetStatus[] {
    this.load(now);
    return [...this.states.values()].map((st) => ({
      target: st.target.id,
      vendor: st.target.vendor,
      pending: this.pendingOf(st.target.id).rows,
      oldestSeconds: this.oldestSeconds(st.target.id, now),
      calls: st.calls,
      failures: st.failures,
      lastSuccessAt: iso(st.lastSuccessAt),
      lastError: st.lastError,
      lastErrorAt: iso(st.lastErrorAt),
      retryAt: st.retryAt > now ? iso(st.retryAt) : null,
    }));
  }

  /** The first look: every file's pending rows, dropping those no purge can matter for any more. */
  private load(now: number): void {
    if (this.index) return;
    this.index = new Map();
    const targets = [...this.states.keys()];
    for (const id of [CONTROL, ...projectsOnDisk(this.s)]) {
      const f = purgeFile(this.s, id);
      if (!f) continue;
      const expiredBefore = now - this.s.config.edge.ttlSeconds * 1000;
      const pending = pendingOf(f);
      // Most files hold nothing: only one that holds a moot row is written to.
      const moot = [...pending].some(([target, p]) => !this.states.has(target) || p.oldestAt < expiredBefore);
      if (moot) this.dropMoot(f, targets, expiredBefore);
      this.refresh(id);
    }
  }

  /** Drops a file's rows no purge can matter for any more, saying so in the log. */
  private dropMoot(f: PurgeFile, targets: string[], expiredBefore: number): void {
    const dropped = dropMoot(f, targets, expiredBefore);
    if (dropped.unknown > 0) this.s.log.warn("edge purges of targets no longer in CAPA_EDGE_PURGE dropped", { file: f.id, rows: dropped.unknown });
    if (dropped.expired > 0)
      this.s.log.warn("edge purges older than CAPA_EDGE_TTL dropped: the edge has expired their answers", { file: f.id, rows: dropped.expired });
  }

  /** Re-reads what one file holds. */
  private refresh(fileId: string): void {
    if (!this.index) return;
    const f = purgeFile(this.s, fileId);
    const pending = f ? pendingOf(f) : new Map<string, Pending>();
    if (pending.size === 0) this.index.delete(fileId);
    else this.index.set(fileId, pending);
  }

  private pendingOf(target: string): Pending {
    let rows = 0;
    let oldestAt = Number.POSITIVE_INFINITY;
    let dueAt = Number.POSITIVE_INFINITY;
    for (const byTarget of this.index?.values() ?? []) {
      const p = byTarget.get(target);
      if (!p) continue;
      rows += p.rows;
      oldestAt = Math.min(oldestAt, p.oldestAt);
      dueAt = Math.min(dueAt, p.dueAt);
    }
    return { rows, oldestAt, dueAt };
  }

  private isDue(target: string, now: number): boolean {
    return this.pendingOf(target).dueAt <= now;
  }

  private oldestSeconds(target: string, now: number = this.s.clock.now()): number | null {
    const p = this.pendingOf(target);
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
      const batch = this.fill(st, now);
      if (batch.tags.size === 0) return;
      st.lastCallPerf = performance.now();
      const tags = [...batch.tags];
      const result = await sendPurge(st.target, tags, {
        token: this.s.config.edge.token ?? "",
        timeoutMs: this.timeoutMs,
        apis: this.apis,
        resolve: destinationCheck(this.s.config.edge.allowPrivate),
      });
      if (this.stopped) return;
      this.record(st, batch, tags.length, result);
      if (!result.ok) return;
    }
  }

  /** The tags of the rows due for a target, oldest file first, within one call's limits. */
  private fill(st: TargetState, now: number): Batch {
    const limit = CALL_LIMITS[st.target.vendor];
    const batch: Batch = { tags: new Set(), bytes: -1, rows: [], partial: null };
    const files = [...(this.index ?? [])]
      .filter(([, byTarget]) => (byTarget.get(st.target.id)?.dueAt ?? Number.POSITIVE_INFINITY) <= now)
      .sort((a, b) => a[1].get(st.target.id)!.oldestAt - b[1].get(st.target.id)!.oldestAt);
    const expiredBefore = now - this.s.config.edge.ttlSeconds * 1000;
    for (const [fileId, byTarget] of files) {
      const f = purgeFile(this.s, fileId);
      if (!f) {
        this.index?.delete(fileId);
        continue;
      }
      // A target down for longer than the edge keeps anything: what it missed has expired there.
      if (byTarget.get(st.target.id)!.oldestAt < expiredBefore) {
        this.dropMoot(f, [...this.states.keys()], expiredBefore);
        this.refresh(fileId);
      }
      for (const row of dueRows(f, st.target.id, now, ROWS_PER_READ)) {
        if (!this.add(batch, f, row, limit)) return batch;
      }
    }
    return batch;
  }

  /** Adds a row's tags to a batch; false when the batch is full (the row then went in part or not at all). */
  private add(batch: Batch, file: PurgeFile, row: DueRow, limit: { tags: number; bytes: number }): boolean {
    const rest: string[] = [];
    for (const t of row.tags) {
      if (batch.tags.has(t)) continue;
      if (rest.length === 0 && batch.tags.size < limit.tags && batch.bytes + 1 + t.length <= limit.bytes) {
        batch.tags.add(t);
        batch.bytes += 1 + t.length;
      } else rest.push(t);
    }
    if (rest.length === 0) {
      batch.rows.push({ file, seq: row.seq });
      return true;
    }
    // Only a row that added something is settled with this call; one that added nothing waits whole.
    if (rest.length < row.tags.length) batch.partial = { file, seq: row.seq, rest };
    return false;
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
    for (const id of touched.keys()) this.refresh(id);
  }
}

/** The body of the `edge-purge` job: starts lanes and returns at once, so a slow target never blocks the next tick. */
export function edgePurgeTick(s: Services, now: number): void {
  s.edge.goLive();
  s.edge.runDue(now).catch((e) => s.log.error("edge purge tick failed", { error: String(e instanceof Error ? e.stack : e) }));
}
