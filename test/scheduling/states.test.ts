// interface.md, States and transitions: Scheduled action, one row of the table at a time.
// Actions reach running, done, failed and dead through the real runner driven by the clock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { claimDue, runDueActions } from "../../src/domain/scheduling/runner.ts";
import { MIN, post, schedule, wallIn, world, type World } from "./helpers.ts";

let w: World;
beforeAll(async () => {
  w = await world();
});
afterAll(() => w.h.close());

/** Moves the clock and runs one runner tick. */
function tick(ms: number): number {
  w.h.clock.advance(ms);
  return runDueActions(w.h.capa.services, w.h.clock.now());
}

const get = async (id: string) => (await w.h.json("GET", `/v2/scheduled-actions/${id}`, { token: w.token })).body;
const call = (method: string, path: string, body?: unknown) => w.h.json(method, path, { token: w.token, body });
const one = async (action: string, id: string, inMs = 2 * MIN) =>
  (await schedule(w, { action, targets: [{ type: "instance", id }], wallTime: wallIn(w, inMs) })).actions[0];

/** An action in each state: a pending one needs nothing; the others go through the runner. */
async function inState(state: "pending" | "running" | "done" | "failed" | "dead" | "cancelled"): Promise<{ id: string; entryId: string }> {
  // No title: publishing fails, which is how failed and dead are reached.
  const e = await post(w, state === "failed" || state === "dead" ? null : `In ${state}`);
  const a = await one("publish", e.id);
  if (state === "pending") return { id: a.id, entryId: e.id };
  if (state === "cancelled") {
    await call("POST", `/v2/scheduled-actions/${a.id}/cancel`);
    return { id: a.id, entryId: e.id };
  }
  w.h.clock.advance(2 * MIN);
  if (state === "running") {
    claimDue(w.h.capa.services, w.ph(), w.h.clock.now());
  } else {
    runDueActions(w.h.capa.services, w.h.clock.now());
    if (state === "dead") for (const m of [1, 5, 15]) tick(m * MIN);
  }
  expect((await get(a.id)).status).toBe(state);
  return { id: a.id, entryId: e.id };
}

describe("pending: PATCH reschedule (single)", () => {
  test("the time changes and the action stays pending", async () => {
    const { id } = await inState("pending");
    const r = await call("PATCH", `/v2/scheduled-actions/${id}`, { wallTime: "2026-12-24T18:00", timezone: "America/New_York" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      status: "pending",
      wallTime: "2026-12-24T18:00",
      timezone: "America/New_York",
      resolved: { at: "2026-12-24T23:00:00.000Z", offset: "-05:00" },
    });
    // Without a zone the action's own zone is kept.
    const r2 = await call("PATCH", `/v2/scheduled-actions/${id}`, { wallTime: "2026-12-25T09:00" });
    expect(r2.body).toMatchObject({ timezone: "America/New_York", resolved: { at: "2026-12-25T14:00:00.000Z" } });
  });

  test("a refused time changes nothing", async () => {
    const { id } = await inState("pending");
    const before = await get(id);
    for (const body of [{ wallTime: wallIn(w, 30_000) }, { wallTime: "soon" }, { wallTime: "2026-12-25T09:00", timezone: "Atlantis" }, { at: "x" }]) {
      const r = await call("PATCH", `/v2/scheduled-actions/${id}`, body);
      expect(r.status).toBe(400);
    }
    expect(await get(id)).toEqual(before);
  });

  test.each(["running", "done", "failed", "dead", "cancelled"] as const)("%s: 409 action_not_pending", async (state) => {
    const { id } = await inState(state);
    const r = await call("PATCH", `/v2/scheduled-actions/${id}`, { wallTime: wallIn(w, 60 * MIN) });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "action_not_pending", status: state });
    expect((await get(id)).status).toBe(state);
  });
});

describe("pending: PATCH reschedule (batch)", () => {
  test("moves the batch's pending actions only", async () => {
    const ids = [(await post(w, "x")).id, (await post(w, "y")).id, (await post(w, "z")).id];
    const r = await schedule(w, { action: "publish", targets: ids.map((id) => ({ type: "instance", id })), wallTime: wallIn(w, 3 * MIN) });
    const [a, b] = r.actions;
    await call("POST", `/v2/scheduled-actions/${b.id}/cancel`);
    const moved = await call("PATCH", `/v2/scheduled-actions/batch/${r.batchId}`, { wallTime: "2027-01-01T00:00", timezone: "Asia/Tokyo" });
    expect(moved.status).toBe(200);
    expect(moved.body.batchId).toBe(r.batchId);
    expect(moved.body.resolved).toEqual({ at: "2026-12-31T15:00:00.000Z", offset: "+09:00" });
    expect(moved.body.actions.map((x: { id: string }) => x.id).sort()).toEqual([a.id, r.actions[2].id].sort());
    expect(await get(b.id)).toMatchObject({ status: "cancelled", resolved: r.resolved });
  });

  test("a batch with nothing pending: 409; an unknown batch: 404", async () => {
    const { id } = await inState("done");
    const batchId = (await get(id)).batchId;
    const r = await call("PATCH", `/v2/scheduled-actions/batch/${batchId}`, { wallTime: wallIn(w, 60 * MIN) });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("action_not_pending");
    expect((await call("PATCH", `/v2/scheduled-actions/batch/${crypto.randomUUID()}`, { wallTime: wallIn(w, 60 * MIN) })).status).toBe(404);
  });
});

describe("pending, failed, dead: POST cancel (single)", () => {
  test.each(["pending", "failed", "dead"] as const)("%s -> cancelled", async (state) => {
    const { id } = await inState(state);
    const r = await call("POST", `/v2/scheduled-actions/${id}/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, status: "cancelled", nextAttemptAt: null, finishedAt: new Date(w.h.clock.now()).toISOString() });
    // A cancelled action never runs, not even a failed one's automatic retry.
    tick(60 * MIN);
    expect(await get(id)).toEqual(r.body);
  });

  test.each(["done", "cancelled"] as const)("%s: 409 action_not_cancellable", async (state) => {
    const { id } = await inState(state);
    const r = await call("POST", `/v2/scheduled-actions/${id}/cancel`);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "action_not_cancellable", status: state });
  });
});

describe("running: POST cancel", () => {
  test("409 already_running, still running", async () => {
    const { id } = await inState("running");
    const r = await call("POST", `/v2/scheduled-actions/${id}/cancel`);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "The action is running and cannot be cancelled.", code: "already_running" });
    expect((await get(id)).status).toBe("running");
  });
});

describe("pending: POST batch cancel", () => {
  test("cancels the batch's pending actions and leaves the others", async () => {
    const good = await post(w, "Good");
    const bad = await post(w, null);
    const later = await post(w, "Later");
    const r = await schedule(w, { action: "publish", targets: [good, bad, later].map((e) => ({ type: "instance", id: e.id })), wallTime: wallIn(w, 2 * MIN) });
    const [g, b, l] = r.actions;
    await call("PATCH", `/v2/scheduled-actions/${l.id}`, { wallTime: wallIn(w, 30 * MIN) });
    tick(2 * MIN);
    const c = await call("POST", `/v2/scheduled-actions/batch/${r.batchId}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body.cancelled).toEqual([l.id]);
    expect(c.body.counts).toEqual({ pending: 0, running: 0, done: 1, failed: 1, dead: 0, cancelled: 1 });
    expect((await get(g.id)).status).toBe("done");
    expect((await get(b.id)).status).toBe("failed");
    const batch = await call("GET", `/v2/scheduled-actions/batch/${r.batchId}`);
    expect(batch.body.counts).toEqual(c.body.counts);
    // Again: nothing left to cancel.
    expect((await call("POST", `/v2/scheduled-actions/batch/${r.batchId}/cancel`)).body.cancelled).toEqual([]);
  });
});

describe("failed, dead: POST retry", () => {
  test.each(["failed", "dead"] as const)("%s: the original is unchanged and a new action is created", async (state) => {
    const { id, entryId } = await inState(state);
    const before = await get(id);
    await call("PATCH", `/v2/model-instances/${entryId}`, { data: { title: "Fixed" } });
    const r = await call("POST", `/v2/scheduled-actions/${id}/retry`);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["batchId", "resolved", "actions", "replaced"]);
    const retry = r.body.actions[0];
    expect(retry).toMatchObject({
      status: "pending",
      retryOf: id,
      action: "publish",
      targets: before.targets,
      attempts: 0,
      resolved: { at: new Date(w.h.clock.now()).toISOString() },
    });
    expect(retry.id).not.toBe(id);
    expect(r.body.replaced).toEqual([]);
    tick(0);
    expect((await get(retry.id)).status).toBe("done");
    const after = await get(id);
    // Unchanged as the client sees it, and it no longer retries on its own.
    expect({ ...after, nextAttemptAt: before.nextAttemptAt }).toEqual(before);
    expect(after.nextAttemptAt).toBeNull();
    tick(60 * MIN);
    expect(await get(id)).toEqual(after);
  });

  test("a retry at a chosen time", async () => {
    const { id } = await inState("failed");
    const r = await call("POST", `/v2/scheduled-actions/${id}/retry`, { wallTime: "2026-12-01T10:00", timezone: "Europe/Paris" });
    expect(r.status).toBe(201);
    expect(r.body.actions[0]).toMatchObject({ wallTime: "2026-12-01T10:00", timezone: "Europe/Paris", resolved: { at: "2026-12-01T09:00:00.000Z" } });
    const past = await call("POST", `/v2/scheduled-actions/${id}/retry`, { wallTime: wallIn(w, 10_000) });
    expect(past.body.code).toBe("in_the_past");
  });

  test.each(["pending", "running", "done", "cancelled"] as const)("%s: 409 action_not_retryable", async (state) => {
    const { id } = await inState(state);
    const r = await call("POST", `/v2/scheduled-actions/${id}/retry`);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "action_not_retryable", status: state });
  });
});

describe("any active action of a target: scheduling another of the same kind", () => {
  test("the older pending one is cancelled and listed in replaced; another kind is left alone", async () => {
    const e = await post(w, "Twice");
    const first = await one("publish", e.id, 5 * MIN);
    const unpub = await one("unpublish", e.id, 50 * MIN);
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 10 * MIN) });
    expect(r.replaced).toEqual([first.id]);
    expect(r.actions[0].replaced).toEqual([first.id]);
    expect(await get(first.id)).toMatchObject({ status: "cancelled", replacedBy: r.actions[0].id });
    expect((await get(unpub.id)).status).toBe("pending");
  });

  test("a failed one still due an automatic retry is replaced; a running one is left to finish", async () => {
    const { id: failedId, entryId } = await inState("failed");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: entryId }], wallTime: wallIn(w, 10 * MIN) });
    expect(r.replaced).toEqual([failedId]);
    expect((await get(failedId)).status).toBe("cancelled");

    const { id: runningId, entryId: e2 } = await inState("running");
    const r2 = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e2 }], wallTime: wallIn(w, 10 * MIN) });
    expect(r2.replaced).toEqual([]);
    expect((await get(runningId)).status).toBe("running");
  });
});
