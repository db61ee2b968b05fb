// GET /healthz (shape, 200 with replication off, 503 when storage fails) and GET /metrics (the
// Prometheus text format, a request counter by route, who may read it), in-process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { Registry } from "../../src/infra/metrics.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { addMember } from "../api/helpers.ts";

const METRICS_TOKEN = "scrape-token-0123456789";

/** Parses the text format strictly: HELP and TYPE before each family, every sample line well formed. */
function parse(text: string): { types: Map<string, string>; samples: Map<string, number> } {
  expect(text.endsWith("\n")).toBe(true);
  const types = new Map<string, string>();
  const samples = new Map<string, number>();
  let family: string | null = null;
  for (const line of text.slice(0, -1).split("\n")) {
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) \S.*$/.exec(line);
    if (help) {
      family = help[1]!;
      continue;
    }
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram)$/.exec(line);
    if (type) {
      expect(type[1]).toBe(family!);
      types.set(type[1]!, type[2]!);
      continue;
    }
    const m =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(
        line,
      );
    expect(m, `bad line: ${line}`).not.toBeNull();
    const name = m![1]!;
    expect(name === family || name.startsWith(`${family}_`)).toBe(true);
    samples.set(name + (m![2] ?? ""), Number(m![3]));
  }
  return { types, samples };
}

describe("GET /healthz", () => {
  let h: Harness;
  beforeAll(() => {
    h = startApp();
  });
  afterAll(() => h.close());

  test("answers 200 with storage, Litestream (off) and the loops", async () => {
    const r = await h.json("GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toMatchObject({
      status: "ok",
      storage: { ok: true, openProjects: expect.any(Number) },
      litestream: { state: "off", pid: null, databases: 0, restarts: 0, reloads: 0, lastError: null, lagSeconds: null },
    });
    expect(r.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    const loops = r.body.loops as { name: string; pattern: string; runs: number; errors: number; running: boolean; lastRunAt: string | null }[];
    expect(loops.length).toBeGreaterThan(0);
    for (const l of loops)
      expect(l).toMatchObject({ name: expect.any(String), pattern: expect.any(String), runs: 0, errors: 0, running: false, lastRunAt: null });
  });

  test("a loop's run shows in its row", async () => {
    const name = h.capa.jobs.status()[0]!.name;
    await h.capa.jobs.runNow(name);
    const r = await h.json("GET", "/healthz");
    const row = r.body.loops.find((l: { name: string }) => l.name === name);
    expect(row.runs + row.errors).toBe(1);
    expect(row.lastRunAt).toBe(new Date(h.clock.now()).toISOString());
  });

  test("answers 503 with status down when the control file fails", async () => {
    const broken = startApp();
    try {
      broken.capa.services.control.sqlite.close(false);
      const r = await broken.json("GET", "/healthz");
      expect(r.status).toBe(503);
      expect(r.body.status).toBe("down");
      expect(r.body.storage).toMatchObject({ ok: false, error: "the control file does not answer" });
    } finally {
      broken.capa.services.projects.close();
    }
  });
});

describe("GET /metrics", () => {
  let h: Harness;
  let owner: Awaited<ReturnType<typeof withOwner>>;
  beforeAll(async () => {
    h = startApp({ metricsToken: METRICS_TOKEN });
    owner = await withOwner(h);
  });
  afterAll(() => h.close());

  const scrape = async () => {
    // Requests are counted in onAfterResponse, which runs just after the answer is handed back.
    await Bun.sleep(5);
    const r = await h.req("GET", "/metrics", { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    return parse(await r.text());
  };

  test("is the Prometheus text format with the request, cache, limit and webhook families", async () => {
    const { types, samples } = await scrape();
    expect(types.get("capa_http_requests_total")).toBe("counter");
    expect(types.get("capa_http_request_duration_seconds")).toBe("histogram");
    expect(types.get("capa_render_cache_hits_total")).toBe("counter");
    expect(types.get("capa_render_cache_misses_total")).toBe("counter");
    expect(types.get("capa_limit_refusals_total")).toBe("counter");
    expect(types.get("capa_webhook_backlog")).toBe("gauge");
    expect(samples.get('capa_limit_refusals_total{limit="key"}')).toBe(0);
    expect(samples.get("capa_webhook_backlog")).toBe(0);
    // Replication is off: its families are declared, with no samples.
    expect([...samples.keys()].some((k) => k.startsWith("capa_litestream_"))).toBe(false);
  });

  test("counts a request under its route pattern and status, and times it", async () => {
    const key = 'capa_http_requests_total{method="GET",route="/v2/model-instances/:id",status="404"}';
    const before = (await scrape()).samples.get(key) ?? 0;
    const miss = await h.req("GET", "/v2/model-instances/01a20000-0000-7000-8000-000000000000", { token: owner.token });
    expect(miss.status).toBe(404);
    await h.req("GET", "/no/such/path");
    const { samples } = await scrape();
    expect(samples.get(key)).toBe(before + 1);
    // A path no route matches is one series, whatever the URL.
    expect(samples.get('capa_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1);
    const count = samples.get('capa_http_request_duration_seconds_count{route="/v2/model-instances/:id"}')!;
    expect(count).toBeGreaterThanOrEqual(1);
    expect(samples.get('capa_http_request_duration_seconds_bucket{route="/v2/model-instances/:id",le="+Inf"}')).toBe(count);
  });

  test("pre-routing refusals are counted too", async () => {
    const r = await h.req("POST", "/api/entries/post");
    expect(r.status).toBe(405);
    const { samples } = await scrape();
    expect(samples.get('capa_http_requests_total{method="POST",route="unmatched",status="405"}')).toBeGreaterThanOrEqual(1);
  });

  test("a gauge callback registered by another module is read at scrape time", async () => {
    let backlog = 7;
    h.capa.services.metrics.webhookBacklog.collect(() => backlog);
    expect((await scrape()).samples.get("capa_webhook_backlog")).toBe(7);
    backlog = 2;
    expect((await scrape()).samples.get("capa_webhook_backlog")).toBe(2);
    h.capa.services.metrics.refusals.inc({ limit: "project" });
    expect((await scrape()).samples.get('capa_limit_refusals_total{limit="project"}')).toBe(1);
  });

  test("the metrics token is accepted as a bearer", async () => {
    const r = await h.req("GET", "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
  });

  const refusals: { name: string; headers: () => Record<string, string>; status: number; body: unknown }[] = [
    { name: "no credentials", headers: () => ({}), status: 401, body: { error: "Authentication token required" } },
    {
      name: "a wrong bearer",
      headers: () => ({ authorization: `Bearer ${METRICS_TOKEN}x` }),
      status: 401,
      body: { error: "Invalid or expired token", code: "invalid_token" },
    },
    { name: "an API key", headers: () => ({ "x-api-key": `svc_live_${"a".repeat(32)}` }), status: 401, body: { error: "Invalid API key" } },
  ];
  test.each(refusals)("refuses $name", async ({ headers, status, body }) => {
    const r = await h.json("GET", "/metrics", { headers: headers() });
    expect(r.status).toBe(status);
    expect(r.body).toEqual(body);
  });

  test("refuses anyone but the operator, naming what is needed", async () => {
    // `current` is the role in the person's current project; this one has not opened one yet.
    const added = await addMember(h, owner.token, owner.project.id, "editor@example.com", "editor", "editor-password-1");
    expect(added.status).toBe(201);
    const login = await h.json("POST", "/v2/user/login", { body: { email: "editor@example.com", password: "editor-password-1" } });
    const r = await h.json("GET", "/metrics", { token: login.body.accessToken });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient permissions", required: ["operator"], current: null });
  });

  test("owning a project makes no one an operator; the first account reads /metrics", async () => {
    const other = createUser(h.capa.services, { email: "second-owner@example.com", password: "second-password-1" });
    createProject(h.capa.services, { name: "Theirs", slug: "theirs-metrics", ownerId: other.id });
    const login = await h.json("POST", "/v2/user/login", { body: { email: "second-owner@example.com", password: "second-password-1" } });
    const r = await h.json("GET", "/metrics", { token: login.body.accessToken });
    expect([r.status, r.body]).toEqual([403, { error: "Insufficient permissions", required: ["operator"], current: "owner" }]);
    expect((await h.req("GET", "/metrics", { token: owner.token })).status).toBe(200);
  });
});

describe("the metrics registry", () => {
  test("escapes label values, sums callbacks with own samples, renders histograms cumulatively", () => {
    const r = new Registry();
    const c = r.counter("t_total", "A test counter.", ["path"]);
    c.inc({ path: 'a"b\\c\nd' }, 2);
    const g = r.gauge("t_gauge", "A test gauge.");
    g.set(undefined, 1);
    g.collect(() => 2);
    g.collect(() => {
      throw new Error("a broken callback is skipped");
    });
    const hist = r.histogram("t_seconds", "A test histogram.", [0.1, 1]);
    hist.observe(undefined, 0.05);
    hist.observe(undefined, 0.5);
    hist.observe(undefined, 5);
    expect(r.render()).toBe(
      [
        "# HELP t_total A test counter.",
        "# TYPE t_total counter",
        't_total{path="a\\"b\\\\c\\nd"} 2',
        "# HELP t_gauge A test gauge.",
        "# TYPE t_gauge gauge",
        "t_gauge 3",
        "# HELP t_seconds A test histogram.",
        "# TYPE t_seconds histogram",
        't_seconds_bucket{le="0.1"} 1',
        't_seconds_bucket{le="1"} 2',
        't_seconds_bucket{le="+Inf"} 3',
        "t_seconds_sum 5.55",
        "t_seconds_count 3",
        "",
      ].join("\n"),
    );
    expect(() => r.counter("t_total", "again")).toThrow("registered twice");
  });
});
