// The runner (decisions.md 7): due actions run once, with actor `schedule` on their events; the
// latest draft or the versionId; failures retry after 1, 5 and 15 minutes, then dead with a
// schedule.failed event; overlapping ticks, a second process on the same files and restarts
// never run an action twice. Time moves through the injected clock; nothing sleeps.
import { afterEach, describe, expect, test } from "bun:test";
import { startApp } from "../harness.ts";
import { claimDue, runClaimed, runDueActions } from "../../src/domain/scheduling/runner.ts";
import { events, entryStatus, MIN, post, restart, schedule, signIn, wallIn, world, type World } from "./helpers.ts";

let w: World;
afterEach(() => w.h.close());

function tick(ms: number): number {
  w.h.clock.advance(ms);
  return runDueActions(w.h.capa.services, w.h.clock.now());
}
const get = async (id: string) => (await w.h.json("GET", `/v2/scheduled-actions/${id}`, { token: w.token })).body;
const publishOf = (id: string) => events(w, "instance.published").filter((e) => e.data.instanceId === id);

describe("running due actions", () => {
  test("an action runs when due, not before, once, as actor schedule", async () => {
    w = await world();
    const e = await post(w, "Launch");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    const id = r.actions[0].id;
    expect(tick(MIN + 59_000)).toBe(0);
    expect((await get(id)).status).toBe("pending");
    expect(await entryStatus(w, e.id)).toBe("draft");
    expect(tick(1000)).toBe(1);
    expect(await get(id)).toMatchObject({ status: "done", attempts: 1, lastError: null, finishedAt: "2026-11-21T12:02:00.000Z" });
    expect(await entryStatus(w, e.id)).toBe("published");
    const [ev, ...more] = publishOf(e.id);
    expect(more).toEqual([]);
    expect(ev.actor).toEqual({ kind: "schedule", id });
    expect(ev.data).toMatchObject({ instanceId: e.id, scheduledActionId: id, versionNumber: 1, title: "Launch" });
    expect(tick(60 * MIN)).toBe(0);
    expect(publishOf(e.id)).toHaveLength(1);
    // The entry's upcoming actions no longer list it.
    expect((await w.h.json("GET", `/v2/model-instances/${e.id}/scheduled`, { token: w.token })).body.data).toEqual([]);
  });

  test("without versionId the latest draft at run time is published; with one, that version", async () => {
    w = await world();
    const latest = await post(w, "v1");
    const pinned = await post(w, "v1");
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: latest.id }], wallTime: wallIn(w, 2 * MIN) });
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: pinned.id }], versionId: pinned.draft.versionId, wallTime: wallIn(w, 2 * MIN) });
    for (const id of [latest.id, pinned.id]) await w.h.json("PATCH", `/v2/model-instances/${id}`, { token: w.token, body: { data: { title: "v2" } } });
    tick(2 * MIN);
    const a = (await w.h.json("GET", `/v2/model-instances/${latest.id}`, { token: w.token })).body;
    expect(a).toMatchObject({ status: "published", publishedVersion: 2, published: { data: { title: "v2" } } });
    const b = (await w.h.json("GET", `/v2/model-instances/${pinned.id}`, { token: w.token })).body;
    expect(b).toMatchObject({ status: "changed", publishedVersion: 1, published: { versionId: pinned.draft.versionId, data: { title: "v1" } } });
  });

  test("unpublish at its time, with its event", async () => {
    w = await world();
    const e = await post(w, "Sale");
    await w.h.json("POST", `/v2/model-instances/${e.id}/publish`, { token: w.token });
    const r = await schedule(w, { action: "unpublish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 5 * MIN) });
    tick(5 * MIN);
    expect(await entryStatus(w, e.id)).toBe("draft");
    const ev = events(w, "instance.unpublished");
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ actor: { kind: "schedule", id: r.actions[0].id }, data: { instanceId: e.id, scheduledActionId: r.actions[0].id } });
  });

  test("a model target publishes every entry of the model that is not live; one that cannot be published fails the action", async () => {
    w = await world();
    const a = await post(w, "A");
    const live = await post(w, "Live");
    await w.h.json("POST", `/v2/model-instances/${live.id}/publish`, { token: w.token });
    const broken = await post(w, null);
    const r = await schedule(w, { action: "publish", targets: [{ type: "model", id: "post" }], wallTime: wallIn(w, 2 * MIN) });
    tick(2 * MIN);
    expect(await entryStatus(w, a.id)).toBe("published");
    expect(publishOf(live.id)).toHaveLength(1);
    const act = await get(r.actions[0].id);
    expect(act).toMatchObject({ status: "failed", attempts: 1 });
    expect(act.lastError).toContain(`1 of 3 entries could not be published; first: ${broken.id}: title is required`);
    // The rules each entry broke are kept with the failure (decisions.md 15).
    expect(act.lastErrors).toEqual([
      { entryId: broken.id, field: "data.title", rule: "required", message: "title is required before the entry can be published" },
    ]);
    // Fixed before the automatic retry: the retry publishes only what is left.
    await w.h.json("PATCH", `/v2/model-instances/${broken.id}`, { token: w.token, body: { data: { title: "Now" } } });
    tick(MIN);
    expect((await get(r.actions[0].id)).status).toBe("done");
    expect(publishOf(a.id)).toHaveLength(1);
    expect(await entryStatus(w, broken.id)).toBe("published");
  });
});

describe("failures", () => {
  test("failed, retried after 1, 5 and 15 minutes, then dead with a schedule.failed event", async () => {
    w = await world();
    const e = await post(w, null);
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    const id = r.actions[0].id;
    tick(2 * MIN);
    let a = await get(id);
    expect(a).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: "2026-11-21T12:03:00.000Z", lastFailedAt: "2026-11-21T12:02:00.000Z" });
    expect(a.lastError).toContain("title is required");
    expect(a.lastErrors).toEqual([{ entryId: e.id, field: "data.title", rule: "required", message: "title is required before the entry can be published" }]);
    const steps: [number, number, string | null][] = [
      [5, 2, "2026-11-21T12:08:00.000Z"],
      [15, 3, "2026-11-21T12:23:00.000Z"],
    ];
    for (const [, attempts, next] of steps) {
      expect(tick(a.nextAttemptAt === null ? 0 : Date.parse(a.nextAttemptAt) - w.h.clock.now() - 1)).toBe(0);
      expect(tick(1)).toBe(1);
      a = await get(id);
      expect(a).toMatchObject({ status: "failed", attempts, nextAttemptAt: next });
    }
    expect(events(w, "schedule.failed")).toEqual([]);
    tick(15 * MIN);
    a = await get(id);
    expect(a).toMatchObject({ status: "dead", attempts: 4, nextAttemptAt: null, finishedAt: "2026-11-21T12:23:00.000Z" });
    const failed = events(w, "schedule.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].actor).toEqual({ kind: "schedule", id });
    expect(failed[0].data).toEqual(a);
    expect(publishOf(e.id)).toEqual([]);
    // Dead actions are never retried on their own.
    expect(tick(24 * 60 * MIN)).toBe(0);
    w.token = await signIn(w);

    const summary = await w.h.json("GET", "/v2/scheduled-actions/failures", { token: w.token });
    expect(summary.body).toMatchObject({ count: 1, latest: { id, status: "dead" } });
    // Answered by a retry: no longer counted.
    await w.h.json("PATCH", `/v2/model-instances/${e.id}`, { token: w.token, body: { data: { title: "Fixed" } } });
    const retry = await w.h.json("POST", `/v2/scheduled-actions/${id}/retry`, { token: w.token });
    tick(0);
    expect((await get(retry.body.actions[0].id)).status).toBe("done");
    expect(publishOf(e.id)[0].data.scheduledActionId).toBe(retry.body.actions[0].id);
    expect((await w.h.json("GET", "/v2/scheduled-actions/failures", { token: w.token })).body).toMatchObject({ count: 0, latest: null });
  });

  test("an automatic retry succeeds once the entry is fixed", async () => {
    w = await world();
    const e = await post(w, null);
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    tick(2 * MIN);
    await w.h.json("PATCH", `/v2/model-instances/${e.id}`, { token: w.token, body: { data: { title: "Late" } } });
    tick(MIN);
    expect(await get(r.actions[0].id)).toMatchObject({ status: "done", attempts: 2, lastError: null });
    expect(await entryStatus(w, e.id)).toBe("published");
  });

  test("failures counts the last 7 days only", async () => {
    w = await world();
    const e = await post(w, null);
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    tick(2 * MIN);
    expect((await w.h.json("GET", "/v2/scheduled-actions/failures", { token: w.token })).body.count).toBe(1);
    for (const m of [1, 5, 15]) tick(m * MIN);
    // The last failure was at 12:23; seven days later it is still inside the window, a moment after it is not.
    w.h.clock.advance(7 * 24 * 60 * MIN);
    w.token = await signIn(w);
    expect((await w.h.json("GET", "/v2/scheduled-actions/failures", { token: w.token })).body.count).toBe(1);
    w.h.clock.advance(1);
    expect((await w.h.json("GET", "/v2/scheduled-actions/failures", { token: w.token })).body).toMatchObject({ count: 0, latest: null });
  });

  test("an entry deleted before its time fails the action with a clear error", async () => {
    w = await world();
    const e = await post(w, "Gone");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    await w.h.json("DELETE", `/v2/model-instances/${e.id}`, { token: w.token });
    tick(2 * MIN);
    expect(await get(r.actions[0].id)).toMatchObject({ status: "failed", lastError: "The entry is in the trash.", lastErrors: null });
  });
});

describe("exactly once", () => {
  test("two overlapping ticks: the second finds the action claimed and leaves it", async () => {
    w = await world();
    const e = await post(w, "Once");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    w.h.clock.advance(2 * MIN);
    const s = w.h.capa.services;
    const claimedByA = claimDue(s, w.ph(), w.h.clock.now());
    expect(claimedByA.map((a) => a.id)).toEqual([r.actions[0].id]);
    // Tick B starts while A is still working.
    expect(runDueActions(s, w.h.clock.now())).toBe(0);
    expect(claimDue(s, w.ph(), w.h.clock.now())).toEqual([]);
    for (const a of claimedByA) runClaimed(s, w.ph(), a, w.h.clock.now());
    expect(runDueActions(s, w.h.clock.now())).toBe(0);
    expect(publishOf(e.id)).toHaveLength(1);
    expect((await get(r.actions[0].id)).status).toBe("done");
  });

  test("a second app on the same files: each action runs in one of them only", async () => {
    w = await world();
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push((await post(w, `P${i}`)).id);
    await schedule(w, { action: "publish", targets: ids.map((id) => ({ type: "instance", id })), wallTime: wallIn(w, 2 * MIN) });
    const other = startApp({}, w.h.dir);
    other.clock.set(w.h.clock.now() + 2 * MIN);
    w.h.clock.advance(2 * MIN);
    try {
      const mine = claimDue(w.h.capa.services, w.ph(), w.h.clock.now()).slice(0);
      const theirs = runDueActions(other.capa.services, other.clock.now());
      expect(mine.length + theirs).toBe(20);
      for (const a of mine) runClaimed(w.h.capa.services, w.ph(), a, w.h.clock.now());
      for (const id of ids) expect(publishOf(id)).toHaveLength(1);
    } finally {
      other.capa.close();
    }
  });

  test("a slow runner whose claim was taken over after 5 minutes does not run it a second time", async () => {
    w = await world();
    const e = await post(w, "Slow");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    w.h.clock.advance(2 * MIN);
    const s = w.h.capa.services;
    const [slow] = claimDue(s, w.ph(), w.h.clock.now());
    expect(tick(4 * MIN + 59_000)).toBe(0);
    expect(tick(1000)).toBe(1);
    runClaimed(s, w.ph(), slow!, w.h.clock.now());
    expect(publishOf(e.id)).toHaveLength(1);
    expect(await get(r.actions[0].id)).toMatchObject({ status: "done", attempts: 2 });
  });
});

describe("restarts", () => {
  test("an action scheduled before a restart runs after it", async () => {
    w = await world();
    const e = await post(w, "Across");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    w = restart(w, w.h.clock.now() + 10 * MIN);
    expect(runDueActions(w.h.capa.services, w.h.clock.now())).toBe(1);
    expect(await get(r.actions[0].id)).toMatchObject({ status: "done", attempts: 1 });
    expect(publishOf(e.id)).toHaveLength(1);
  });

  test("a process that stopped while an action was running: left alone while fresh, run again once stale", async () => {
    w = await world();
    const e = await post(w, "Crash");
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    w.h.clock.advance(2 * MIN);
    claimDue(w.h.capa.services, w.ph(), w.h.clock.now());
    // The process stops before the publish commits.
    w = restart(w, w.h.clock.now() + MIN);
    expect(runDueActions(w.h.capa.services, w.h.clock.now())).toBe(0);
    expect((await get(r.actions[0].id)).status).toBe("running");
    expect(tick(4 * MIN)).toBe(1);
    expect(await get(r.actions[0].id)).toMatchObject({ status: "done", attempts: 2 });
    expect(publishOf(e.id)).toHaveLength(1);
  });

  test("a failed action keeps its retry schedule across a restart", async () => {
    w = await world();
    const e = await post(w, null);
    const r = await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    tick(2 * MIN);
    await w.h.json("PATCH", `/v2/model-instances/${e.id}`, { token: w.token, body: { data: { title: "Fixed" } } });
    w = restart(w, w.h.clock.now() + 30_000);
    expect(runDueActions(w.h.capa.services, w.h.clock.now())).toBe(0);
    expect(tick(30_000)).toBe(1);
    expect(await get(r.actions[0].id)).toMatchObject({ status: "done", attempts: 2 });
  });
});

describe("the job table", () => {
  test("the app registers the runner and the batch loop; runNow is a tick", async () => {
    w = await world();
    const names = w.h.capa.jobs.status().map((j) => j.name);
    expect(names).toContain("scheduler");
    expect(names).toContain("bulk-batches");
    expect(w.h.capa.jobs.status().find((j) => j.name === "scheduler")!.pattern).toBe("* * * * * *");
    const e = await post(w, "Job");
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) });
    w.h.clock.advance(2 * MIN);
    await w.h.capa.jobs.runNow("scheduler");
    expect(await entryStatus(w, e.id)).toBe("published");
  });
});
