// The purger against local servers that check each request exactly as Fastly's and Cloudflare's
// purge APIs document it (vendor-servers.ts): one call per change with exactly its tags; many
// changes coalesced into calls at least 100 ms apart within each vendor's tags-per-call limit
// (Fastly 256, Cloudflare 100), every tag sent once; a 429's wait kept to; a 500 retried after
// 1 s, 2 s, 4 s; a hanging target timed out while reads and writes go on; queued purges sent
// after a restart; moot rows dropped; counts in /metrics.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createEntry } from "../../src/domain/entries/service.ts";
import { publishEntry } from "../../src/domain/entries/publish.ts";
import type { Config } from "../../src/config.ts";
import { edgeConfig, edgeProject, outbox, reopen, TOKEN, type EdgeProject } from "./fixture.ts";
import { cloudflareApi, fastlyApi, varnishPurge, type VendorServer } from "./vendor-servers.ts";

const SERVICE = "SU1Z0isxPaozGVKXdv0eY";
const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const METRICS_TOKEN = "scrape-token-0123456789";
let fastly: VendorServer;
let cloudflare: VendorServer;
const open: EdgeProject[] = [];

beforeAll(() => {
  fastly = fastlyApi(SERVICE, TOKEN);
  cloudflare = cloudflareApi(ZONE, TOKEN);
});
afterAll(() => {
  fastly.stop();
  cloudflare.stop();
});
afterEach(() => {
  for (const q of open.splice(0)) q.h.close();
  for (const srv of [fastly, cloudflare]) srv.reset();
});

/** An app purging `purge`, its vendor APIs pointed at the local servers. */
async function app(purge: string, over: Partial<Config> = {}): Promise<EdgeProject> {
  const p = await edgeProject({ ...edgeConfig({ CAPA_EDGE_PURGE: purge }), metricsToken: METRICS_TOKEN, ...over });
  point(p);
  open.push(p);
  return p;
}

function point(p: EdgeProject): void {
  p.h.capa.services.edge.apis = { fastly: fastly.url, cloudflare: cloudflare.url };
}

/** Publishes `n` new posts through the domain (fast), answering their ids. */
function publishMany(p: EdgeProject, n: number): string[] {
  const s = p.h.capa.services;
  const h = s.projects.get(p.projectId);
  return Array.from({ length: n }, (_, i) => {
    const e = createEntry(s, h, "system", { model: "post", data: { title: `Post ${i}` } });
    publishEntry(s, h, "system", e.id);
    return e.id as string;
  });
}

/** The metrics samples of the edge purger, by name and labels. */
async function edgeMetrics(p: EdgeProject): Promise<Record<string, number>> {
  const text = await (await p.h.req("GET", "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.startsWith("capa_edge_"))
      .map((l) => [l.slice(0, l.lastIndexOf(" ")), Number(l.slice(l.lastIndexOf(" ") + 1))]),
  );
}

describe("one change, one call, exactly as documented", () => {
  test("Fastly: POST /service/{id}/purge, Fastly-Key, JSON surrogate_keys; the row goes, the call is counted", async () => {
    const p = await app(`fastly:${SERVICE}`);
    const id = await p.post("One");
    await p.h.capa.services.edge.runDue();
    expect(fastly.refused).toEqual([]);
    expect(fastly.calls.map((c) => c.tags)).toEqual([[`entry:${id}`, "model:post"]]);
    expect(outbox(p)).toEqual({ project: [], control: [] });
    expect(await edgeMetrics(p)).toEqual({
      'capa_edge_purge_calls_total{vendor="fastly",outcome="ok"}': 1,
      'capa_edge_purge_calls_total{vendor="fastly",outcome="failed"}': 0,
      'capa_edge_purge_tags_total{vendor="fastly"}': 2,
      'capa_edge_purge_pending{vendor="fastly"}': 0,
      'capa_edge_purge_oldest_seconds{vendor="fastly"}': 0,
    });
  });

  test("Cloudflare: POST /client/v4/zones/{zone}/purge_cache, Bearer token, JSON tags; key and project purges from the control file", async () => {
    const p = await app(`cloudflare:${ZONE}`);
    const k = await p.ok("POST", "/v2/tenants/api-keys", { name: "site", scopes: ["instance:read"], environment: "production" });
    await p.ok("PATCH", `/v2/tenants/api-keys/${k.id}/active`, { active: false });
    await p.ok("PATCH", `/v2/projects/${p.projectId}`, { name: "Renamed" });
    await p.h.capa.services.edge.runDue();
    expect(cloudflare.refused).toEqual([]);
    expect(cloudflare.calls.map((c) => c.tags)).toEqual([[`key:${k.id}`, `project:${p.projectId}`]]);
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("a wrong token is a refusal the purger records and retries", async () => {
    const p = await app(`fastly:${SERVICE}`, edgeConfig({ CAPA_EDGE_PURGE: `fastly:${SERVICE}`, CAPA_EDGE_TOKEN: "not-the-token-0123456789" }));
    await p.post("One");
    await p.h.capa.services.edge.runDue();
    expect(fastly.refused).toEqual(["Provided credentials are missing or invalid"]);
    expect(outbox(p).project).toEqual([
      expect.objectContaining({ attempts: 1, lastError: 'Answered 401: {"msg":"Provided credentials are missing or invalid"}' }),
    ]);
  });
});

describe("coalescing and per-call limits", () => {
  test.each([
    ["fastly", `fastly:${SERVICE}`, () => fastly, 256],
    ["cloudflare", `cloudflare:${ZONE}`, () => cloudflare, 100],
  ] as const)("%s: 300 publishes queued go in calls of at most %i tags, 100 ms apart, each entry's tag once", async (_name, purge, server, limit) => {
    const p = await app(purge);
    const ids = publishMany(p, 300);
    const srv = server();
    await p.h.capa.services.edge.runDue();
    expect(srv.refused).toEqual([]);
    // Each call carries model:post once (its rows all name it) and as many entry tags as fit.
    expect(srv.calls.map((c) => c.tags.length)).toEqual(limit === 256 ? [256, 46] : [100, 100, 100, 4]);
    expect(srv.calls.map((c) => c.tags.filter((t) => t === "model:post").length)).toEqual(srv.calls.map(() => 1));
    const entries = srv.calls.flatMap((c) => c.tags.filter((t) => t !== "model:post"));
    expect(entries.sort()).toEqual(ids.map((id) => `entry:${id}`).sort());
    for (let i = 1; i < srv.calls.length; i++) expect(srv.calls[i]!.at - srv.calls[i - 1]!.at).toBeGreaterThanOrEqual(99);
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("while live, a burst of publishes makes at most one call per 100 ms, merging their tags", async () => {
    const p = await app(`fastly:${SERVICE}`);
    p.h.capa.services.edge.goLive();
    const ids: string[] = [];
    const t0 = performance.now();
    while (performance.now() - t0 < 450) {
      ids.push(...publishMany(p, 5));
      await Bun.sleep(5);
    }
    await p.h.capa.services.edge.idle();
    const gaps = fastly.calls.slice(1).map((c, i) => c.at - fastly.calls[i]!.at);
    expect(gaps.filter((g) => g < 99)).toEqual([]);
    expect(fastly.calls.length).toBeLessThanOrEqual(Math.ceil((performance.now() - t0) / 100) + 1);
    expect(fastly.calls.length).toBeLessThan(ids.length / 5);
    expect(new Set(fastly.calls.flatMap((c) => c.tags))).toEqual(new Set([...ids.map((id) => `entry:${id}`), "model:post"]));
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("two Varnish targets: one down does not hold up the other", async () => {
    const up = varnishPurge(TOKEN);
    try {
      const p = await app(`varnish:${up.url},http://127.0.0.1:1`);
      const id = await p.post("One");
      await p.h.capa.services.edge.runDue();
      expect(up.calls.map((c) => c.tags)).toEqual([[`entry:${id}`, "model:post"]]);
      expect(outbox(p).project).toEqual([
        expect.objectContaining({ target: "varnish:http://127.0.0.1:1/", attempts: 1, lastError: expect.stringMatching(/^Request failed: /) }),
      ]);
    } finally {
      up.stop();
    }
  });
});

describe("a target that fails for minutes", () => {
  test("429: the Retry-After (Cloudflare) or Fastly-RateLimit-Reset wait is kept to, then the purge goes", async () => {
    for (const [purge, srv] of [
      [`cloudflare:${ZONE}`, cloudflare],
      [`fastly:${SERVICE}`, fastly],
    ] as const) {
      const p = await app(purge);
      srv.set("429", 1, 120);
      const id = await p.post("One");
      const edge = p.h.capa.services.edge;
      await edge.runDue();
      expect(outbox(p).project).toEqual([expect.objectContaining({ attempts: 1, nextAttemptAt: expect.any(String) })]);
      const wait = Date.parse(outbox(p).project[0]!.nextAttemptAt) - p.h.clock.now();
      // Cloudflare says 120 s; Fastly's reset is an epoch second, so 120 s give or take one.
      expect(wait).toBeGreaterThanOrEqual(119_000);
      expect(wait).toBeLessThanOrEqual(121_000);
      p.h.clock.advance(wait - 1000);
      await edge.runDue();
      expect(srv.calls).toHaveLength(0);
      p.h.clock.advance(1000);
      await edge.runDue();
      expect(srv.calls.map((c) => c.tags)).toEqual([[`entry:${id}`, "model:post"]]);
      srv.calls.length = 0;
    }
  });

  test("500s: retried after 1 s, 2 s, 4 s; reads and writes meanwhile are unaffected; the purge goes once it answers", async () => {
    const p = await app(`fastly:${SERVICE}`);
    fastly.set("500");
    const id = await p.post("One");
    const edge = p.h.capa.services.edge;
    await edge.runDue();
    for (const wait of [1000, 2000, 4000]) {
      const [row] = outbox(p).project;
      expect(Date.parse(row!.nextAttemptAt) - p.h.clock.now()).toBe(wait);
      // Writes and reads go on while the target fails.
      await p.republish(id, `Title ${wait}`);
      expect((await p.read(`/api/entries/post/${id}`, p.prod.secret)).status).toBe(200);
      p.h.clock.advance(wait);
      await edge.runDue();
    }
    expect(fastly.requests).toBe(4);
    // The first row was tried four times; each republish's row joined the calls after it.
    expect(outbox(p).project.map((r) => r.attempts)).toEqual([4, 3, 2, 1]);
    fastly.set("ok");
    p.h.clock.advance(8000);
    await edge.runDue();
    expect(fastly.calls.map((c) => c.tags)).toEqual([[`entry:${id}`, "model:post"]]);
    expect(outbox(p).project).toEqual([]);
    const m = await edgeMetrics(p);
    expect([m['capa_edge_purge_calls_total{vendor="fastly",outcome="failed"}'], m['capa_edge_purge_calls_total{vendor="fastly",outcome="ok"}']]).toEqual([
      4, 1,
    ]);
  });

  test("a target that hangs: the call times out and is retried; publishes and reads answer at once meanwhile", async () => {
    const p = await app(`fastly:${SERVICE}`);
    const edge = p.h.capa.services.edge;
    edge.timeoutMs = 300;
    edge.goLive();
    fastly.set("hang", 1);
    const id = await p.post("One");
    await Bun.sleep(20);
    expect(fastly.requests).toBe(1);
    const t0 = performance.now();
    await p.republish(id, "Two");
    expect((await p.read(`/api/entries/post/${id}`, p.prod.secret)).status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(150);
    await edge.idle();
    expect(outbox(p).project[0]).toMatchObject({ attempts: 1, lastError: "No answer within 0.3 s." });
    fastly.release();
    p.h.clock.advance(1000);
    await edge.runDue();
    expect(fastly.calls.map((c) => c.tags)).toEqual([[`entry:${id}`, "model:post"]]);
    expect(outbox(p).project).toEqual([]);
  });

  test("queued purges survive a restart and are sent by the next process", async () => {
    const p = await app(`cloudflare:${ZONE}`);
    cloudflare.set("500");
    const id = await p.post("One");
    await p.h.capa.services.edge.runDue();
    await p.republish(id, "Two");
    expect(outbox(p).project).toHaveLength(2);
    p.h.capa.close();
    cloudflare.set("ok");
    const q = reopen(p, { ...edgeConfig({ CAPA_EDGE_PURGE: `cloudflare:${ZONE}` }) });
    open.splice(open.indexOf(p), 1, q);
    point(q);
    q.h.clock.advance(1000);
    await q.h.capa.services.edge.runDue();
    expect(cloudflare.calls.map((c) => c.tags)).toEqual([[`entry:${id}`, "model:post"]]);
    expect(outbox(q)).toEqual({ project: [], control: [] });
  });
});

describe("rows no purge can matter for", () => {
  test("rows of a target no longer configured, and rows older than CAPA_EDGE_TTL, are dropped at the first look, with a warning", async () => {
    const p = await app(`fastly:${SERVICE}`, edgeConfig({ CAPA_EDGE_PURGE: `fastly:${SERVICE}`, CAPA_EDGE_TTL: "600" }));
    fastly.set("500");
    await p.post("Old");
    await p.h.capa.services.edge.runDue();
    p.h.capa.close();
    const lines: Record<string, unknown>[] = [];
    const log = {
      debug() {},
      info() {},
      warn: (m: string, f?: Record<string, unknown>) => lines.push({ m, ...f }),
      error: (m: string, f?: Record<string, unknown>) => lines.push({ m, ...f }),
    };
    // Another service now, and 11 minutes later: the old row is of an unknown target.
    const other = reopen(p, { ...edgeConfig({ CAPA_EDGE_PURGE: "fastly:OtherService1", CAPA_EDGE_TTL: "600" }) });
    other.h.capa.services.log = log as never;
    open.splice(open.indexOf(p), 1, other);
    point(other);
    await other.h.capa.services.edge.runDue();
    expect(lines).toEqual([{ m: "edge purges of targets no longer in CAPA_EDGE_PURGE dropped", file: other.projectId, rows: 1 }]);
    expect(outbox(other)).toEqual({ project: [], control: [] });
    // A row of the configured target older than the TTL: its answers expired at the edge by themselves.
    fastly.set("500");
    const fresh = other.h.capa.services;
    await other.post("Newer");
    other.h.capa.close();
    const later = reopen(other, { ...edgeConfig({ CAPA_EDGE_PURGE: "fastly:OtherService1", CAPA_EDGE_TTL: "600" }) });
    later.h.clock.advance(601_000);
    later.h.capa.services.log = log as never;
    open.splice(open.indexOf(other), 1, later);
    point(later);
    lines.length = 0;
    await later.h.capa.services.edge.runDue();
    expect(lines).toEqual([{ m: "edge purges older than CAPA_EDGE_TTL dropped: the edge has expired their answers", file: later.projectId, rows: 1 }]);
    expect(outbox(later)).toEqual({ project: [], control: [] });
    expect(fresh).not.toBe(later.h.capa.services);
  });
});
