// "Select all N that match" (issue 27, lists): bulk publish, delete to the trash and schedule act
// on exactly the entries the list selects with the same where, q and status; a selection too large
// for the request runs as a batch; scheduling makes one action per entry in one batch.
import { afterEach, describe, expect, test } from "bun:test";
import { runBulkBatches } from "../../src/domain/bulk/runner.ts";
import { answerProblems } from "../openapi/answer-check.ts";
import { events, post, world, type World } from "../scheduling/helpers.ts";

let w: World;
afterEach(() => w.h.close());

const call = (path: string, body: unknown) => w.h.json("POST", `/v2/model-instances/${path}`, { token: w.token, body });
const listed = async (query: string) => (await w.h.json("GET", `/v2/model-instances?model=post&${query}`, { token: w.token })).body;

async function seed(n: number, title: (i: number) => string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await post(w, title(i), i % 2 ? "odd body" : "even body")).id);
  return ids;
}

describe("bulk by the list's q and where", () => {
  test("publish by q selects what the list's q shows, and the dry run counts the list's total", async () => {
    w = await world();
    await seed(4, (i) => `Garden note ${i}`);
    await seed(3, (i) => `Kitchen ${i}`);
    const total = (await listed("q=garden")).total;
    expect(total).toBe(4);
    const dry = await call("bulk-publish", { modelId: "post", q: "garden", dryRun: true });
    expect([dry.status, dry.body.count, dry.body.failures]).toEqual([200, 4, []]);
    const r = await call("bulk-publish", { modelId: "post", q: "garden", expectedCount: total });
    expect([r.status, r.body.counts]).toEqual([200, { done: 4, skipped: 0, failed: 0 }]);
    expect((await listed("status=published")).total).toBe(4);
    // q with where and status narrows the same way the list does.
    const both = await call("bulk-unpublish", {
      modelId: "post",
      q: "garden",
      where: { body: { eq: "odd body" } },
      status: "published",
      dryRun: true,
    });
    expect(both.body.count).toBe((await listed(`q=garden&status=published&where=${encodeURIComponent('{"body":{"eq":"odd body"}}')}`)).total);
    expect(both.body.count).toBe(2);
  });

  test("a bad where or q is refused naming it, and ids cannot be mixed with a filter", async () => {
    w = await world();
    const [a] = await seed(1, () => "One");
    const cases: [unknown, number, Record<string, unknown>][] = [
      [{ modelId: "post", where: { nope: 1 } }, 400, { error: 'The model post has no field "nope".', code: "unknown_field", field: "where" }],
      [{ modelId: "post", q: "x".repeat(201) }, 400, { error: "q must be a text of up to 200 characters", code: "invalid_body", field: "q" }],
      [{ modelId: "post", status: "live" }, 400, { error: "status must be draft, published or changed", code: "invalid_body", field: "status" }],
      [
        { instanceIds: [a], q: "One" },
        400,
        { error: "Name entries by instanceIds or by modelId with where, q and status, not both", code: "invalid_body", field: "instanceIds" },
      ],
      [{ modelId: "ghost" }, 404, { error: 'No model "ghost" in this project.', code: "not_found", field: "modelId" }],
    ];
    for (const [body, status, want] of cases) {
      const r = await call("bulk-delete", body);
      expect([r.status, r.body]).toEqual([status, want]);
    }
  });
});

describe("bulk delete to the trash", () => {
  test("inside the request: each entry moves to the trash with instance.deleted, and leaves the list", async () => {
    w = await world();
    const keep = await seed(2, (i) => `Keep ${i}`);
    const gone = await seed(3, (i) => `Old draft ${i}`);
    const r = await call("bulk-delete", { modelId: "post", where: { title: { startsWith: "Old" } }, expectedCount: 3 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ action: "delete", count: 3, counts: { done: 3, skipped: 0, failed: 0 }, results: gone.map((id) => ({ id, result: "done" })) });
    expect(answerProblems(w.h.capa, "POST", "/v2/model-instances/bulk-delete", 200, r.body)).toEqual([]);
    expect((await listed("")).data.map((e: { id: string }) => e.id).sort()).toEqual([...keep].sort());
    const trash = (await w.h.json("GET", "/v2/trash?model=post", { token: w.token })).body.data.map((e: { id: string }) => e.id);
    expect(trash.sort()).toEqual([...gone].sort());
    expect(
      events(w, "instance.deleted")
        .map((e) => e.data.instanceId)
        .sort(),
    ).toEqual([...gone].sort());
  });

  test("above 50 entries: 202 and a batch that trashes every one", async () => {
    w = await world();
    await seed(55, (i) => `Bulk ${i}`);
    const r = await call("bulk-delete", { modelId: "post", q: "bulk" });
    expect([r.status, r.body.count]).toEqual([202, 55]);
    runBulkBatches(w.h.capa.services, w.h.clock.now());
    const batch = (await w.h.json("GET", r.body.poll, { token: w.token })).body;
    expect([batch.action, batch.status, batch.counts]).toEqual(["delete", "done", { done: 55, skipped: 0, failed: 0, remaining: 0 }]);
    expect(batch.selection).toEqual({ modelId: batch.selection.modelId, model: "post", where: null, q: "bulk" });
    expect((await listed("")).total).toBe(0);
  });

  test("an editor may delete; a viewer may not", async () => {
    w = await world();
    await seed(1, () => "One");
    const { memberToken } = await import("../api/helpers.ts");
    const viewer = await memberToken(w.h, w.token, w.projectId, "viewer@example.com", "viewer");
    const r = await w.h.json("POST", "/v2/model-instances/bulk-delete", {
      token: viewer,
      body: { modelId: "post" },
      headers: { "x-svc-project": w.projectId },
    });
    expect([r.status, r.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner", "admin", "developer", "editor"], current: "viewer" }]);
  });
});

describe("bulk schedule", () => {
  test("one pending action per selected entry, in one batch at one time; a dry run writes nothing", async () => {
    w = await world();
    const news = await seed(3, (i) => `News ${i}`);
    await seed(2, (i) => `Other ${i}`);
    const body = { modelId: "post", q: "news", action: "publish", wallTime: "2026-11-22T09:00", timezone: "Europe/Berlin" };
    const dry = await call("bulk-schedule", { ...body, dryRun: true });
    expect([dry.status, dry.body]).toEqual([200, { dryRun: true, action: "publish", count: 3, ids: news }]);
    expect((await w.h.json("GET", "/v2/scheduled-actions", { token: w.token })).body.total).toBe(0);
    const r = await call("bulk-schedule", { ...body, expectedCount: 3 });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      action: "publish",
      count: 3,
      batchId: r.body.batchId,
      resolved: { at: "2026-11-22T08:00:00.000Z", offset: "+01:00" },
      replaced: 0,
      batch: `/v2/scheduled-actions/batch/${r.body.batchId}`,
    });
    expect(answerProblems(w.h.capa, "POST", "/v2/model-instances/bulk-schedule", 201, r.body)).toEqual([]);
    const batch = (await w.h.json("GET", r.body.batch, { token: w.token })).body;
    expect(batch.actions.map((a: { targets: { id: string }[] }) => a.targets[0]!.id).sort()).toEqual([...news].sort());
    // Scheduling the same selection again replaces each entry's pending publish.
    const again = await call("bulk-schedule", { ...body, wallTime: "2026-11-23T09:00" });
    expect([again.body.count, again.body.replaced]).toEqual([3, 3]);
  });

  test("refusals: a changed selection, nothing selected, a time in the past", async () => {
    w = await world();
    await seed(2, (i) => `News ${i}`);
    const body = { modelId: "post", action: "unpublish", wallTime: "2026-11-22T09:00", timezone: "UTC" };
    const moved = await call("bulk-schedule", { ...body, expectedCount: 5 });
    expect([moved.status, moved.body]).toEqual([
      409,
      { error: "The selection has 2 entries, not the 5 expected.", code: "selection_changed", expectedCount: 5, count: 2 },
    ]);
    const none = await call("bulk-schedule", { ...body, q: "nothing like this" });
    expect([none.status, none.body]).toEqual([400, { error: "The selection holds no entries, so nothing was scheduled.", code: "nothing_selected" }]);
    const past = await call("bulk-schedule", { ...body, wallTime: "2026-11-21T12:00" });
    expect([past.status, past.body.code]).toEqual([400, "in_the_past"]);
  });
});
