// Which reads run where (domain/reads/gateway.ts): an item by id runs on the main thread's
// connection, every list (and GraphQL) on the read pool, which keeps its 504 for a read past the
// timeout. CAPA_READ_INLINE=0 sends items to the pool too.
import { afterEach, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { seedBig } from "../../scripts/bench/seed.ts";

let h: Harness;
afterEach(() => h?.close());

/** The id of the first post a key lists (read through the pool). */
async function firstPostId(key: string): Promise<string> {
  const r = await h.json("GET", "/api/entries/post?limit=1&sort=title", { headers: { "x-api-key": key } });
  expect(r.status).toBe(200);
  return r.body.data[0].id as string;
}

describe("read paths", () => {
  test("an item by id runs on the main thread: no worker starts, and the data is what the pool answers", async () => {
    h = startApp();
    const seed = seedBig(h.capa, 30, 3);
    const headers = { "x-api-key": seed.devKey };
    const pool = h.capa.readPool;
    const item = await h.req("GET", "/api/entries/post/0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f?select=title", { headers });
    expect(item.status).toBe(404);
    expect((await item.json()).error.code).toBe("entry_not_found");
    expect([pool.inlineRuns, pool.dispatched, pool.stats.workers]).toEqual([1, 0, 0]);

    const id = await firstPostId(seed.devKey);
    expect([pool.inlineRuns, pool.dispatched, pool.stats.workers]).toEqual([1, 1, 1]);
    const inline = await h.json("GET", `/api/entries/post/${id}?select=title,price,author(name)`, { headers });
    expect(inline.status).toBe(200);
    expect(Object.keys(inline.body.data).sort()).toEqual(["author", "id", "price", "title"]);
    expect(Object.keys(inline.body.data.author).sort()).toEqual(["id", "name"]);
    expect([pool.inlineRuns, pool.dispatched]).toEqual([2, 1]);

    // The same read through a worker gives the same data (only meta.requestId differs).
    pool.inlineRuns = 0;
    h.capa.services.config.readInline = false;
    const pooled = await h.json("GET", `/api/entries/post/${id}?select=title,price,author(name)`, { headers });
    expect(pooled.status).toBe(200);
    expect(pooled.body.data).toEqual(inline.body.data);
    expect([pool.inlineRuns, pool.dispatched]).toEqual([0, 2]);
  });

  test("lists and GraphQL run on the pool", async () => {
    h = startApp();
    const seed = seedBig(h.capa, 10, 2);
    const headers = { "x-api-key": seed.devKey };
    const pool = h.capa.readPool;
    expect((await h.req("GET", "/api/entries/post?limit=2", { headers })).status).toBe(200);
    expect([pool.inlineRuns, pool.dispatched]).toEqual([0, 1]);
    const gql = await h.json("POST", "/api/graphql", { headers, body: { query: "{ post { nodes { title } } }" } });
    expect(gql.status).toBe(200);
    expect(gql.body.data.post.nodes.length).toBe(10);
    expect(pool.inlineRuns).toBe(0);
    expect(pool.dispatched).toBeGreaterThan(1);
  });

  test("CAPA_READ_INLINE=0 sends items to the pool", async () => {
    h = startApp({ readInline: false });
    const seed = seedBig(h.capa, 5, 1);
    const id = await firstPostId(seed.devKey);
    const r = await h.json("GET", `/api/entries/post/${id}`, { headers: { "x-api-key": seed.devKey } });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(id);
    expect([h.capa.readPool.inlineRuns, h.capa.readPool.dispatched]).toEqual([0, 2]);
  });

  test("with a timeout no pooled read can meet, a list answers 504 and an item still answers 200 inline", async () => {
    h = startApp({ readPoolSize: 1, readTimeoutMs: 60_000 });
    const seed = seedBig(h.capa, 20_000, 10);
    const headers = { "x-api-key": seed.devKey };
    const id = await firstPostId(seed.devKey);
    h.capa.readPool.setTimeoutMs(1);
    const list = await h.json("GET", "/api/entries/post?limit=200&sort=-price,title,day", { headers });
    expect(list.status).toBe(504);
    expect(list.body.error.code).toBe("query_timeout");
    expect(list.body.error.message).toBe("The entry read took too long and was stopped.");
    expect(h.capa.readPool.timeouts).toBe(1);
    const item = await h.json("GET", `/api/entries/post/${id}`, { headers });
    expect(item.status).toBe(200);
    expect(item.body.data.id).toBe(id);
    expect([h.capa.readPool.timeouts, h.capa.readPool.inlineRuns]).toEqual([1, 1]);
    // Seeding 20,000 posts takes seconds on a busy machine: a bound on the test, not a timing.
  }, 30_000);

  test("an inline read holds the in-flight limits like a pooled one and lets go after", async () => {
    h = startApp({ inFlight: { client: 1, key: 1, project: 1 } });
    const seed = seedBig(h.capa, 5, 1);
    const id = await firstPostId(seed.devKey);
    const headers = { "x-api-key": seed.devKey };
    const reads = await Promise.all([1, 2, 3].map(() => h.req("GET", `/api/entries/post/${id}`, { headers })));
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(h.capa.services.limits.inFlight.held(`p:${seed.projectId}`)).toBe(0);
  });
});
