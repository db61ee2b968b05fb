// Bulk publish and unpublish (interface.md, States and transitions: Bulk publish and unpublish):
// dry run, expectedCount, up to 50 inside the request, above that 202 and a background batch
// that survives a restart and never does an entry twice.
import { afterEach, describe, expect, test } from "bun:test";
import { startApp } from "../harness.ts";
import { runBulkBatches, runChunk } from "../../src/domain/bulk/runner.ts";
import { entryStatus, events, post, restart, world, type World } from "../scheduling/helpers.ts";

let w: World;
afterEach(() => w.h.close());

const bulk = (kind: "publish" | "unpublish", body: unknown, headers?: Record<string, string>) =>
  w.h.json("POST", `/v2/model-instances/bulk-${kind}`, { token: w.token, body, headers });
const poll = async (path: string) => (await w.h.json("GET", path, { token: w.token })).body;
const published = (id: string) => events(w, "instance.published").filter((e) => e.data.instanceId === id);

async function posts(n: number, title = (i: number) => `Post ${i}`): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await post(w, title(i))).id);
  return ids;
}

describe("inside the request (up to 50)", () => {
  test("by ids: each entry done, skipped or failed, one event per entry done", async () => {
    w = await world();
    const [a, b] = await posts(2);
    const live = (await post(w, "Live")).id;
    await w.h.json("POST", `/v2/model-instances/${live}/publish`, { token: w.token });
    const broken = (await post(w, null)).id;
    const r = await bulk("publish", { instanceIds: [a, b, live, broken, a.toUpperCase()] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      action: "publish",
      count: 4,
      counts: { done: 2, skipped: 1, failed: 1 },
      results: [
        { id: a, result: "done" },
        { id: b, result: "done" },
        { id: live, result: "skipped" },
        {
          id: broken,
          result: "failed",
          error: "title is required before the entry can be published",
          errors: [{ field: "data.title", rule: "required", message: "title is required before the entry can be published" }],
        },
      ],
    });
    expect(await entryStatus(w, a)).toBe("published");
    expect(published(a)).toHaveLength(1);
    expect(published(a)[0].actor).toEqual({ kind: "user", id: w.userId });
    expect(published(live)).toHaveLength(1);
    expect(await entryStatus(w, broken)).toBe("draft");
  });

  test("by model and where over drafts; unpublish", async () => {
    w = await world();
    const news = await posts(3, (i) => `News ${i}`);
    const other = await posts(2, (i) => `Other ${i}`);
    const r = await bulk("publish", { modelId: "post", where: { title: { startsWith: "News" } } });
    expect(r.body).toMatchObject({ count: 3, counts: { done: 3, skipped: 0, failed: 0 } });
    expect(r.body.results.map((x: { id: string }) => x.id)).toEqual(news);
    for (const id of other) expect(await entryStatus(w, id)).toBe("draft");
    // The filter reads drafts: a changed draft title is what is matched; where may be JSON text.
    await w.h.json("PATCH", `/v2/model-instances/${news[0]}`, { token: w.token, body: { data: { title: "Old news" } } });
    const u = await bulk("unpublish", { modelId: "post", where: JSON.stringify({ $status: "published" }) });
    expect(u.body).toMatchObject({ action: "unpublish", count: 2, counts: { done: 2 } });
    const modelId = (await w.h.json("GET", "/v2/models/post", { token: w.token })).body.id;
    const again = await bulk("unpublish", { modelId, where: { title: { startsWith: "Old" } } });
    expect(again.body).toMatchObject({ count: 1, counts: { done: 1 } });
    expect(events(w, "instance.unpublished")).toHaveLength(3);
    const none = await bulk("unpublish", { modelId: "post" });
    expect(none.body).toMatchObject({ count: 5, counts: { done: 0, skipped: 5 } });
  });
});

describe("dry run and expectedCount", () => {
  test("a dry run reports count and ids and writes nothing", async () => {
    w = await world();
    const ids = await posts(3);
    const before = w.ph().sqlite.query("SELECT (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM idempotency_keys) AS k").get();
    const r = await bulk("publish", { modelId: "post", dryRun: true }, { "idempotency-key": "dry-1" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ dryRun: true, action: "publish", count: 3, ids, failures: [] });
    for (const id of ids) expect(await entryStatus(w, id)).toBe("draft");
    expect(w.ph().sqlite.query("SELECT (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM idempotency_keys) AS k").get()).toEqual(before);
  });

  test("a dry run of a publish lists the entries whose draft breaks a rule, and why; live entries and unpublish have none", async () => {
    w = await world();
    const ok = (await post(w, "Fine")).id;
    const broken = (await post(w, null)).id;
    const live = (await post(w, "Live")).id;
    await w.h.json("POST", `/v2/model-instances/${live}/publish`, { token: w.token });
    await w.h.json("PATCH", `/v2/model-instances/${live}`, { token: w.token, body: { data: { title: "" } } });
    const r = await bulk("publish", { instanceIds: [ok, broken], dryRun: true });
    const rule = { field: "data.title", rule: "required", message: "title is required before the entry can be published" };
    expect([r.status, r.body]).toEqual([200, { dryRun: true, action: "publish", count: 2, ids: [ok, broken], failures: [{ id: broken, errors: [rule] }] }]);
    // A changed entry whose new draft breaks a rule would fail too; one already live would be skipped.
    const all = await bulk("publish", { modelId: "post", dryRun: true });
    expect(all.body.failures).toEqual([
      { id: broken, errors: [rule] },
      { id: live, errors: [rule] },
    ]);
    expect((await bulk("unpublish", { modelId: "post", dryRun: true })).body.failures).toEqual([]);
    for (const id of [ok, broken]) expect(await entryStatus(w, id)).toBe("draft");
  });

  test("expectedCount equal to the selection proceeds; a different one is 409 selection_changed and writes nothing", async () => {
    w = await world();
    const ids = await posts(3);
    const seen = (await bulk("publish", { modelId: "post", dryRun: true })).body.count;
    await post(w, "Arrived meanwhile");
    const r = await bulk("publish", { modelId: "post", expectedCount: seen });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "The selection has 4 entries, not the 3 expected.", code: "selection_changed", expectedCount: 3, count: 4 });
    for (const id of ids) expect(await entryStatus(w, id)).toBe("draft");
    const ok = await bulk("publish", { modelId: "post", expectedCount: 4 });
    expect(ok.status).toBe(200);
    expect(ok.body.counts.done).toBe(4);
    const zero = await bulk("publish", { instanceIds: [ids[0]], expectedCount: 0 });
    expect(zero.status).toBe(409);
  });
});

describe("bad input: a clear error, nothing written", () => {
  test.each([
    ["neither ids nor model", {}, 400, "instanceIds"],
    ["both ids and model", { instanceIds: ["ID"], modelId: "post" }, 400, "instanceIds"],
    ["ids not a list", { instanceIds: "ID" }, 400, "instanceIds"],
    ["no ids", { instanceIds: [] }, 400, "instanceIds"],
    ["too many ids", { instanceIds: Array.from({ length: 10_001 }, () => crypto.randomUUID()) }, 400, "instanceIds"],
    ["a malformed id", { instanceIds: ["ID", "x"] }, 400, "instanceIds[1]"],
    ["an unknown id", { instanceIds: ["ID", "00000000-0000-4000-8000-000000000000"] }, 400, "instanceIds[1]"],
    ["an unknown model", { modelId: "nope" }, 404, "modelId"],
    ["an unknown filter field", { modelId: "post", where: { colour: "red" } }, 400, undefined],
    ["a bad filter value", { modelId: "post", where: { title: null } }, 400, undefined],
    ["where that is not JSON", { modelId: "post", where: "{" }, 400, "where"],
    ["dryRun not boolean", { modelId: "post", dryRun: "yes" }, 400, "dryRun"],
    ["expectedCount negative", { modelId: "post", expectedCount: -1 }, 400, "expectedCount"],
    ["an unknown field", { modelId: "post", force: true }, 400, "force"],
  ])("%s", async (_label, body, status, field) => {
    w = await world();
    const id = (await post(w, "Keep")).id;
    const fixed = JSON.parse(JSON.stringify(body).replaceAll('"ID"', JSON.stringify(id)));
    const r = await bulk("publish", fixed);
    expect(r.status).toBe(status);
    if (field) expect(r.body.field).toBe(field);
    expect(r.body.error).toBeString();
    expect(await entryStatus(w, id)).toBe("draft");
    expect(events(w, "instance.published")).toEqual([]);
  });
});

describe("above 50: a background batch", () => {
  test("202 with a poll link; the loop works in chunks; the poll shows counts", async () => {
    w = await world();
    const ids = await posts(120);
    const broken = (await post(w, null)).id;
    const r = await bulk("publish", { instanceIds: [...ids, broken], expectedCount: 121 });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ batchId: expect.any(String), count: 121, poll: `/v2/model-instances/bulk/${r.body.batchId}` });
    expect(await poll(r.body.poll)).toMatchObject({
      batchId: r.body.batchId,
      action: "publish",
      status: "queued",
      total: 121,
      counts: { done: 0, skipped: 0, failed: 0, remaining: 121 },
      failures: [],
      selection: { instanceIds: 121 },
      createdBy: { kind: "user", id: w.userId },
      startedAt: null,
      finishedAt: null,
      poll: r.body.poll,
    });
    // Nothing happened inside the request.
    expect(events(w, "instance.published")).toEqual([]);
    const s = w.h.capa.services;
    expect(runBulkBatches(s, w.h.clock.now(), 1)).toBe(1);
    expect(await poll(r.body.poll)).toMatchObject({ status: "running", counts: { done: 50, remaining: 71 }, startedAt: "2026-11-21T12:00:00.000Z" });
    runBulkBatches(s, w.h.clock.now());
    const done = await poll(r.body.poll);
    expect(done).toMatchObject({ status: "done", counts: { done: 120, skipped: 0, failed: 1, remaining: 0 }, finishedAt: "2026-11-21T12:00:00.000Z" });
    expect(done.failures).toEqual([
      {
        id: broken,
        error: "title is required before the entry can be published",
        errors: [{ field: "data.title", rule: "required", message: "title is required before the entry can be published" }],
      },
    ]);
    for (const id of ids) expect(published(id)).toHaveLength(1);
    // A finished batch is not worked again.
    expect(runBulkBatches(s, w.h.clock.now())).toBe(0);
    expect((await w.h.json("GET", `/v2/model-instances/bulk/${crypto.randomUUID()}`, { token: w.token })).status).toBe(404);
  });

  test("a crash after one chunk: the batch resumes after a restart and no entry is done twice", async () => {
    w = await world();
    const ids = await posts(130);
    const r = await bulk("publish", { modelId: "post", where: { title: { startsWith: "Post" } } });
    expect(r.status).toBe(202);
    runBulkBatches(w.h.capa.services, w.h.clock.now(), 1);
    expect((await poll(r.body.poll)).counts).toMatchObject({ done: 50, remaining: 80 });
    // The process stops; a new one starts on the same files. Its first tick finds the open batch.
    w = restart(w, w.h.clock.now() + 60_000);
    runBulkBatches(w.h.capa.services, w.h.clock.now());
    expect(await poll(r.body.poll)).toMatchObject({ status: "done", counts: { done: 130, remaining: 0 } });
    for (const id of ids) expect(published(id)).toHaveLength(1);
  });

  test("two loops on the same files (two processes) share the work without doing an entry twice", async () => {
    w = await world();
    const ids = await posts(160);
    const r = await bulk("publish", { instanceIds: ids });
    const other = startApp({}, w.h.dir);
    try {
      const batchId = r.body.batchId;
      runChunk(w.h.capa.services, w.ph(), batchId, w.h.clock.now());
      runChunk(other.capa.services, other.capa.services.projects.get(w.projectId), batchId, other.clock.now());
      runBulkBatches(other.capa.services, other.clock.now());
      runBulkBatches(w.h.capa.services, w.h.clock.now());
    } finally {
      other.capa.close();
    }
    expect((await poll(r.body.poll)).counts).toEqual({ done: 160, skipped: 0, failed: 0, remaining: 0 });
    for (const id of ids) expect(published(id)).toHaveLength(1);
  });

  test("bulk unpublish above 50", async () => {
    w = await world();
    const ids = await posts(60);
    expect((await bulk("publish", { instanceIds: ids })).status).toBe(202);
    runBulkBatches(w.h.capa.services, w.h.clock.now());
    const r = await bulk("unpublish", { modelId: "post", expectedCount: 60 });
    expect(r.status).toBe(202);
    runBulkBatches(w.h.capa.services, w.h.clock.now());
    expect(await poll(r.body.poll)).toMatchObject({ action: "unpublish", status: "done", counts: { done: 60 } });
    expect(events(w, "instance.unpublished")).toHaveLength(60);
  });
});
