// Read limits: the per-key token bucket, in-flight counts per client, key and project (429 at
// once), the global read pool's wait (503 with Retry-After) and the read timeout (504).
import { afterEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { seedBig } from "../../scripts/bench/seed.ts";
import { loadConfig } from "../../src/config.ts";

let h: Harness;
afterEach(() => h?.close());

async function project(over: Parameters<typeof startApp>[0] = {}) {
  h = startApp(over);
  const o = await withOwner(h);
  await h.json("POST", "/v2/models", { token: o.token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
  const key = await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { scopes: ["instance:read"], environment: "development" } });
  return { o, key: key.body.apiKey as string, keyId: key.body.id as string };
}

describe("per-key rate", () => {
  test("a burst past the bucket answers 429 with Retry-After and RateLimit headers; tokens refill with time", async () => {
    const { key, keyId } = await project({ rateLimitPerSecond: 2, rateLimitBurst: 3 });
    const seen: [number, string | null][] = [];
    for (let i = 0; i < 3; i++) {
      const r = await h.req("GET", "/api/me", { headers: { "x-api-key": key } });
      seen.push([r.status, r.headers.get("ratelimit-remaining")]);
      expect(r.headers.get("ratelimit-limit")).toBe("3");
    }
    expect(seen).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
    ]);
    const refused = await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("svc-key-id")).toBe(keyId);
    expect(refused.body.error.type).toBe("rate_limited");
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
    expect(refused.body.error.message).toBe("This key sent more than 2 requests a second (burst 3).");
    expect(refused.body.error.docs).toBe("http://capa.test/docs/errors/rate_limit_exceeded");
    expect(refused.body.data).toBeUndefined();
    h.clock.advance(500);
    expect((await h.req("GET", "/api/me", { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await h.req("GET", "/api/me", { headers: { "x-api-key": key } })).status).toBe(429);
  });
});

describe("per-key rate on the legacy surfaces and the agent mount", () => {
  test("a legacy key past its bucket answers 429 with Retry-After on /v2/agent and the legacy lists; time refills it", async () => {
    const { o } = await project({ rateLimitPerSecond: 1, rateLimitBurst: 2 });
    const legacy = (await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { permission: "agent", environment: "development" } })).body
      .apiKey as string;
    const headers = { "x-api-key": legacy };
    expect((await h.json("GET", "/v2/agent/workspaces", { headers })).status).toBe(200);
    expect((await h.json("GET", "/v2/api/post", { headers })).status).toBe(200);
    for (const path of ["/v2/agent/workspaces", "/v2/api/post", "/v2/schema"]) {
      const refused = await h.json("GET", path, { headers });
      expect([path, refused.status, refused.headers.get("retry-after"), refused.body]).toEqual([
        path,
        429,
        "1",
        { error: "This key sent more than 1 requests a second (burst 2).", code: "rate_limit_exceeded" },
      ]);
    }
    h.clock.advance(1000);
    expect((await h.json("GET", "/v2/schema", { headers })).status).toBe(200);
  });
});

describe("in-flight limits", () => {
  // Reads in flight are held by taking the same slots the route takes, as concurrent reads would.
  test("a fourth read of one client of a key is refused at once with 429", async () => {
    const { key, keyId } = await project();
    const inFlight = h.capa.services.limits.inFlight;
    const held = [1, 2, 3].map(() => inFlight.acquire([[`c:${keyId}:local`, 3, "for one client of a key"]]));
    const r = await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe("rate_limit_exceeded");
    expect(r.body.error.message).toBe("Too many reads at once: at most 3 for one client of a key.");
    expect(r.headers.get("retry-after")).toBe("1");
    for (const release of held) release();
    expect((await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } })).status).toBe(200);
    expect(inFlight.held(`c:${keyId}:local`)).toBe(0);
  });

  test("a fifth read of one key, and of one project's keys together, is refused", async () => {
    const { o, key, keyId } = await project();
    const inFlight = h.capa.services.limits.inFlight;
    let held = [1, 2, 3, 4].map(() => inFlight.acquire([[`k:${keyId}`, 4, "for one key"]]));
    let r = await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } });
    expect(r.status).toBe(429);
    expect(r.body.error.message).toBe("Too many reads at once: at most 4 for one key.");
    for (const release of held) release();
    const other = (await h.json("POST", "/v2/tenants/api-keys", { token: o.token, body: { scopes: ["instance:read"], environment: "development" } })).body
      .apiKey;
    held = [1, 2, 3, 4].map(() => inFlight.acquire([[`p:${o.project.id}`, 4, "for one project's keys together"]]));
    r = await h.json("GET", "/api/entries/post", { headers: { "x-api-key": other } });
    expect(r.status).toBe(429);
    expect(r.body.error.message).toBe("Too many reads at once: at most 4 for one project's keys together.");
    for (const release of held) release();
    expect((await h.json("GET", "/api/entries/post", { headers: { "x-api-key": other } })).status).toBe(200);
  });

  test("the route releases its slots after errors too", async () => {
    const { key, keyId, o } = await project();
    for (let i = 0; i < 6; i++) expect((await h.json("GET", "/api/entries/post?sort=nope", { headers: { "x-api-key": key } })).status).toBe(400);
    const inFlight = h.capa.services.limits.inFlight;
    expect([inFlight.held(`c:${keyId}:local`), inFlight.held(`k:${keyId}`), inFlight.held(`p:${o.project.id}`)]).toEqual([0, 0, 0]);
  });
});

describe("the global read pool", () => {
  // A multi-key sort over 20,000 entries takes tens of milliseconds: long enough to occupy a worker.
  const slow = "/api/entries/post?limit=200&sort=-price,title,day";

  test("with every worker and the place behind its read taken past the wait, a read answers 503 with Retry-After: 1", async () => {
    h = startApp({ readPoolSize: 1, readWaitMs: 5 });
    const seed = seedBig(h.capa, 20_000, 10);
    const headers = { "x-api-key": seed.devKey };
    // One worker holds two reads: the one it runs and the next, waiting in its inbox.
    const first = h.req("GET", slow, { headers });
    const second = h.req("GET", slow, { headers });
    const third = await h.json("GET", "/api/entries/post?limit=1", { headers });
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("1");
    expect(third.body.error.type).toBe("api_error");
    expect(third.body.error.code).toBe("service_unavailable");
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    expect([h.capa.readPool.busyRefusals, h.capa.readPool.dispatched]).toEqual([1, 2]);
    expect(h.capa.readPool.stats).toEqual({ workers: 1, busy: 0, queued: 0 });
  });

  test("by default a worker a core but one (at least one) shares the 2 x cores places of the pool", () => {
    const cores = navigator.hardwareConcurrency || 1;
    const config = loadConfig({ CAPA_DATA_DIR: "/tmp/capa-defaults" });
    expect([config.readPoolSize, config.readPlaces]).toEqual([Math.max(1, cores - 1), 2 * cores]);
    expect(loadConfig({ CAPA_DATA_DIR: "/tmp/capa-defaults", CAPA_READ_POOL: "3" }).readPoolSize).toBe(3);
  });

  test("one worker holds its share of the places: with four, four reads run on it and a fifth answers 503", async () => {
    h = startApp({ readPoolSize: 1, readPlaces: 4, readWaitMs: 5, inFlight: { client: 100, key: 100, project: 100 } });
    const seed = seedBig(h.capa, 20_000, 10);
    const headers = { "x-api-key": seed.devKey };
    const held = [1, 2, 3, 4].map(() => h.req("GET", slow, { headers }));
    const fifth = await h.json("GET", "/api/entries/post?limit=1", { headers });
    expect([fifth.status, fifth.body.error.code, fifth.headers.get("retry-after")]).toEqual([503, "service_unavailable", "1"]);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect([h.capa.readPool.busyRefusals, h.capa.readPool.dispatched]).toEqual([1, 4]);
    expect(h.capa.readPool.stats).toEqual({ workers: 1, busy: 0, queued: 0 });
  });

  test("the read waiting behind one that times out moves to a new worker and gets its own answer", async () => {
    h = startApp({ readPoolSize: 1, readTimeoutMs: 3 });
    const seed = seedBig(h.capa, 20_000, 10);
    const headers = { "x-api-key": seed.devKey };
    const [a, b] = await Promise.all([h.json("GET", slow, { headers }), h.json("GET", slow, { headers })]);
    // Each ran on a worker of its own for its whole 3 ms, and each timed out: none was lost.
    expect([a.status, a.body.error.code, b.status, b.body.error.code]).toEqual([504, "query_timeout", 504, "query_timeout"]);
    expect([h.capa.readPool.timeouts, h.capa.readPool.dispatched]).toEqual([2, 3]);
    expect(h.capa.readPool.stats.workers).toBe(0);
  });

  test("a read past the timeout answers 504 query_timeout and the pool recovers", async () => {
    h = startApp({ readPoolSize: 1, readTimeoutMs: 3 });
    const seed = seedBig(h.capa, 20_000, 10);
    const headers = { "x-api-key": seed.devKey };
    const r = await h.json("GET", slow, { headers });
    expect(r.status).toBe(504);
    expect(r.body.error.code).toBe("query_timeout");
    expect(r.body.error.message).toBe("The entry read took too long and was stopped.");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(h.capa.readPool.timeouts).toBe(1);
    // The stuck worker was ended; with the timeout lifted, a replacement serves the same read.
    expect(h.capa.readPool.stats.workers).toBe(0);
    h.capa.readPool.setTimeoutMs(60_000);
    const next = await h.json("GET", slow, { headers });
    expect(next.status).toBe(200);
    expect(next.body.data.length).toBe(200);
    expect(h.capa.readPool.stats).toEqual({ workers: 1, busy: 0, queued: 0 });
  });
});

describe("refusals in /metrics", () => {
  test("each kind of refusal is counted by limit", async () => {
    const { key, keyId, o } = await project({ rateLimitPerSecond: 1, rateLimitBurst: 2 });
    const inFlight = h.capa.services.limits.inFlight;
    const held = [1, 2, 3].map(() => inFlight.acquire([[`c:${keyId}:local`, 3, "for one client of a key"]]));
    expect((await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } })).status).toBe(429);
    for (const release of held) release();
    expect((await h.json("GET", "/api/me", { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await h.json("GET", "/api/me", { headers: { "x-api-key": key } })).status).toBe(429);
    const text = await (await h.req("GET", "/metrics", { token: o.token })).text();
    expect(text).toContain('capa_limit_refusals_total{limit="client"} 1');
    expect(text).toContain('capa_limit_refusals_total{limit="rate"} 1');
    expect(text).toContain('capa_limit_refusals_total{limit="key"} 0');
  });
});

describe("configurable in-flight limits", () => {
  test("CAPA_INFLIGHT_CLIENT raises the per-client limit (and the message states the new limit)", async () => {
    const { key, keyId } = await project({ inFlight: { client: 5, key: 8, project: 8 } });
    const inFlight = h.capa.services.limits.inFlight;
    const held = [1, 2, 3, 4].map(() => inFlight.acquire([[`c:${keyId}:local`, 5, "for one client of a key"]]));
    expect((await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } })).status).toBe(200);
    held.push(inFlight.acquire([[`c:${keyId}:local`, 5, "for one client of a key"]]));
    const r = await h.json("GET", "/api/entries/post", { headers: { "x-api-key": key } });
    expect(r.status).toBe(429);
    expect(r.body.error.message).toBe("Too many reads at once: at most 5 for one client of a key.");
    for (const release of held) release();
  });
});
