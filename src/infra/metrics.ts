// A small metrics registry rendered in the Prometheus text format (version 0.0.4): counters,
// gauges and histograms with fixed label names, plus callbacks read at scrape time for values
// another part of the program already keeps (cache hits, the webhook backlog, Litestream).
//
// Adding a metric: create it once where the app is built (createApp, through `createMetrics`
// below or `services.metrics.registry.counter(...)`), keep the object, and call `inc`, `set` or
// `observe` on the hot path; those are a map lookup and an addition. Name counters `*_total`,
// use base units (seconds, bytes), and keep label values to a small fixed set (a route pattern,
// never a raw URL; a limit's name, never a key id).

export type Labels = Record<string, string>;

/** A value read at scrape time: one number (no labels), several labelled numbers, or none (null). */
export type Collect = () => number | null | { labels: Labels; value: number }[];

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function renderLabels(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? "")}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function renderNumber(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "+Inf";
  if (n === -Infinity) return "-Inf";
  return String(n);
}

/** The label values of a sample in the metric's label order; a missing label is "". */
function valuesOf(names: readonly string[], labels: Labels | undefined): string[] {
  return names.map((n) => labels?.[n] ?? "");
}

interface Metric {
  readonly name: string;
  render(): string[];
}

abstract class Sampled implements Metric {
  protected readonly values = new Map<string, { labels: string[]; value: number }>();
  private readonly collectors: Collect[] = [];
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    private readonly type: "counter" | "gauge",
  ) {}

  /** Adds a callback whose samples are added to this metric's own at scrape time. */
  collect(fn: Collect): this {
    this.collectors.push(fn);
    return this;
  }

  /** The current value for some labels (own samples only; callbacks are read at scrape time). */
  get(labels?: Labels): number {
    return this.values.get(valuesOf(this.labelNames, labels).join("\u0000"))?.value ?? 0;
  }

  protected add(labels: Labels | undefined, n: number, replace: boolean): void {
    const vals = valuesOf(this.labelNames, labels);
    const key = vals.join("\u0000");
    const cur = this.values.get(key);
    if (cur) cur.value = replace ? n : cur.value + n;
    else this.values.set(key, { labels: vals, value: n });
  }

  render(): string[] {
    const merged = new Map<string, { labels: string[]; value: number }>();
    for (const [k, v] of this.values) merged.set(k, { labels: v.labels, value: v.value });
    for (const fn of this.collectors) {
      let got: ReturnType<Collect>;
      try {
        got = fn();
      } catch {
        // A failing callback must not take the whole scrape down; its samples are left out.
        continue;
      }
      if (got === null) continue;
      const samples = typeof got === "number" ? [{ labels: {} as Labels, value: got }] : got;
      for (const s of samples) {
        const vals = valuesOf(this.labelNames, s.labels);
        const key = vals.join("\u0000");
        const cur = merged.get(key);
        if (cur) cur.value += s.value;
        else merged.set(key, { labels: vals, value: s.value });
      }
    }
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const v of merged.values()) lines.push(`${this.name}${renderLabels(this.labelNames, v.labels)} ${renderNumber(v.value)}`);
    return lines;
  }
}

/** A value that only goes up (requests, refusals). */
export class Counter extends Sampled {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, "counter");
  }
  inc(labels?: Labels, n = 1): void {
    this.add(labels, n, false);
  }
}

/** A value that goes up and down (backlog, open files, up/down). */
export class Gauge extends Sampled {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, "gauge");
  }
  set(labels: Labels | undefined, v: number): void {
    this.add(labels, v, true);
  }
  inc(labels?: Labels, n = 1): void {
    this.add(labels, n, false);
  }
}

/** Observations counted into cumulative buckets (latency). */
export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: string[]; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
    readonly labelNames: readonly string[] = [],
  ) {}

  observe(labels: Labels | undefined, v: number): void {
    const vals = valuesOf(this.labelNames, labels);
    const key = vals.join("\u0000");
    let s = this.series.get(key);
    if (!s) {
      s = { labels: vals, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    // Buckets are few (about a dozen); a linear scan beats a binary search at this size.
    for (let i = 0; i < this.buckets.length; i++) if (v <= this.buckets[i]!) s.counts[i]!++;
    s.sum += v;
    s.count++;
  }

  /** The number of observations for some labels. */
  count(labels?: Labels): number {
    return this.series.get(valuesOf(this.labelNames, labels).join("\u0000"))?.count ?? 0;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => {
        lines.push(`${this.name}_bucket${renderLabels(this.labelNames, s.labels, ["le", renderNumber(b)])} ${s.counts[i]}`);
      });
      lines.push(`${this.name}_bucket${renderLabels(this.labelNames, s.labels, ["le", "+Inf"])} ${s.count}`);
      lines.push(`${this.name}_sum${renderLabels(this.labelNames, s.labels)} ${renderNumber(s.sum)}`);
      lines.push(`${this.name}_count${renderLabels(this.labelNames, s.labels)} ${s.count}`);
    }
    return lines;
  }
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** The metrics of one app, rendered in registration order. */
export class Registry {
  private readonly metrics = new Map<string, Metric>();

  private register<M extends Metric>(m: M): M {
    if (!NAME.test(m.name)) throw new Error(`bad metric name ${m.name}`);
    if (this.metrics.has(m.name)) throw new Error(`metric ${m.name} is registered twice`);
    this.metrics.set(m.name, m);
    return m;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.register(new Counter(name, help, labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.register(new Gauge(name, help, labelNames));
  }

  histogram(name: string, help: string, buckets: readonly number[], labelNames: readonly string[] = []): Histogram {
    return this.register(new Histogram(name, help, buckets, labelNames));
  }

  /** The whole registry in the Prometheus text format, ending with a newline. */
  render(): string {
    const lines: string[] = [];
    for (const m of this.metrics.values()) lines.push(...m.render());
    return `${lines.join("\n")}\n`;
  }
}

/** Request latency buckets in seconds: 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The metrics every part of Capa may touch, created once per app. */
export interface CapaMetrics {
  registry: Registry;
  /** Requests answered, by method, route pattern and status. */
  requests: Counter;
  /** Time from the first byte seen to the answer, by route pattern. */
  duration: Histogram;
  /**
   * Reads refused by a limit, by `limit`: "client", "key", "project" (in-flight semaphores, 429),
   * "rate" (token bucket, 429), "pool" (global read pool, 503), "timeout" (504).
   */
  refusals: Counter;
  /** Webhook deliveries waiting to be sent; the webhook sender registers a callback with `collect`. */
  webhookBacklog: Gauge;
}

/** Creates the registry and the shared metrics of one app. */
export function createMetrics(): CapaMetrics {
  const registry = new Registry();
  const m: CapaMetrics = {
    registry,
    requests: registry.counter("capa_http_requests_total", "HTTP requests answered, by method, route pattern and status.", ["method", "route", "status"]),
    duration: registry.histogram("capa_http_request_duration_seconds", "Time to answer an HTTP request, by route pattern.", LATENCY_BUCKETS, ["route"]),
    refusals: registry.counter("capa_limit_refusals_total", "Reads refused by a concurrency, rate, pool or time limit, by limit.", ["limit"]),
    webhookBacklog: registry.gauge("capa_webhook_backlog", "Webhook deliveries waiting to be sent."),
  };
  // Series that exist from the start, so a dashboard sees 0 rather than no data.
  for (const limit of REFUSAL_LIMITS) m.refusals.inc({ limit }, 0);
  m.webhookBacklog.set(undefined, 0);
  return m;
}

/** The limit names of `refusals`. */
export const REFUSAL_LIMITS = ["client", "key", "project", "rate", "pool", "timeout"] as const;
