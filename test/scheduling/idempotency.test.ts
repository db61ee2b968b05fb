// Idempotency-Key on the POST routes of publishing: the same key and request replay the stored
// answer without acting; the same key with another request is 409 idempotency_key_reused; keys
// belong to their caller and last 24 hours; refusals are not stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runBulkBatches } from "../../src/domain/bulk/runner.ts";
import { runDueActions } from "../../src/domain/scheduling/runner.ts";
import { events, key, MIN, post, schedule, signIn, wallIn, world, type World } from "./helpers.ts";

let w: World;
beforeAll(async () => {
  w = await world();
});
afterAll(() => w.h.close());

const send = (path: string, body: unknown, idem?: string, token = w.token) =>
  w.h.json("POST", path, { token, body, headers: idem === undefined ? {} : { "idempotency-key": idem } });
const count = (sql: string) => (w.ph().sqlite.query(sql).get() as { n: number }).n;
const publishedOf = (id: string) => events(w, "instance.published").filter((e) => e.data.instanceId === id);

describe("replay and reuse", () => {
  test("publish now: the second send replays the answer and publishes nothing", async () => {
    const e = await post(w, "Once");
    const first = await send(`/v2/model-instances/${e.id}/publish`, {}, "pub-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    await w.h.json("PATCH", `/v2/model-instances/${e.id}`, { token: w.token, body: { data: { title: "Changed since" } } });
    const again = await send(`/v2/model-instances/${e.id}/publish`, {}, "pub-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(publishedOf(e.id)).toHaveLength(1);
    // A new key acts again.
    await send(`/v2/model-instances/${e.id}/publish`, {}, "pub-2");
    expect(publishedOf(e.id)).toHaveLength(2);
  });

  test("the same key with another body, or on another route, is 409 idempotency_key_reused", async () => {
    const e = await post(w, "Twice");
    await send(`/v2/model-instances/${e.id}/publish`, {}, "pub-3");
    const other = await send(`/v2/model-instances/${e.id}/publish`, { versionId: e.draft.versionId }, "pub-3");
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: "idempotency_key_reused", field: "Idempotency-Key" });
    const route = await send(`/v2/model-instances/${e.id}/unpublish`, {}, "pub-3");
    expect(route.status).toBe(409);
    expect(publishedOf(e.id)).toHaveLength(1);
    expect(events(w, "instance.unpublished").filter((x) => x.data.instanceId === e.id)).toHaveLength(0);
  });

  test("key order and spacing of the body do not make it another request", async () => {
    const e = await post(w, "Order");
    const wall = wallIn(w, 10 * MIN);
    const a = await w.h.req("POST", "/v2/scheduled-actions", {
      token: w.token,
      headers: { "idempotency-key": "order-1", "content-type": "application/json" },
      raw: JSON.stringify({ action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wall, timezone: "UTC" }),
    });
    const b = await w.h.req("POST", "/v2/scheduled-actions", {
      token: w.token,
      headers: { "idempotency-key": "order-1", "content-type": "application/json" },
      raw: `{ "timezone": "UTC", "wallTime": "${wall}",\n "targets": [{ "id": "${e.id}", "type": "instance" }], "action": "publish" }`,
    });
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotency-replayed")).toBe("true");
    expect(await b.json()).toEqual(await a.json());
  });

  test("scheduling: one batch however often it is sent", async () => {
    const e = await post(w, "Sched");
    const body = { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 10 * MIN), timezone: "UTC" };
    const first = await send("/v2/scheduled-actions", body, "sched-1");
    const again = await send("/v2/scheduled-actions", body, "sched-1");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const list = await w.h.json("GET", `/v2/scheduled-actions?targetId=${e.id}`, { token: w.token });
    expect(list.body.total).toBe(1);
    expect(list.body.data[0].status).toBe("pending");
  });

  test("cancel: a replay answers 200 with the stored answer instead of 409", async () => {
    const e = await post(w, "Cancel");
    const a = (await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 10 * MIN) })).actions[0];
    const first = await send(`/v2/scheduled-actions/${a.id}/cancel`, {}, "cancel-1");
    expect(first.body.status).toBe("cancelled");
    const again = await send(`/v2/scheduled-actions/${a.id}/cancel`, {}, "cancel-1");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // Without the key the second cancel is refused.
    expect((await send(`/v2/scheduled-actions/${a.id}/cancel`, {})).status).toBe(409);
    const batch = await send(`/v2/scheduled-actions/batch/${a.batchId}/cancel`, {}, "bcancel-1");
    expect((await send(`/v2/scheduled-actions/batch/${a.batchId}/cancel`, {}, "bcancel-1")).body).toEqual(batch.body);
  });

  test("retry: one new action", async () => {
    const e = await post(w, null);
    const a = (await schedule(w, { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 2 * MIN) })).actions[0];
    w.h.clock.advance(2 * MIN);
    runDueActions(w.h.capa.services, w.h.clock.now());
    const first = await send(`/v2/scheduled-actions/${a.id}/retry`, {}, "retry-1");
    expect(first.status).toBe(201);
    const again = await send(`/v2/scheduled-actions/${a.id}/retry`, {}, "retry-1");
    expect(again.body).toEqual(first.body);
    expect(count(`SELECT count(*) AS n FROM scheduled_actions WHERE retry_of = '${a.id}'`)).toBe(1);
  });

  test("bulk: one batch, the replay points at it", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push((await post(w, `Bulk ${i}`)).id);
    const first = await send("/v2/model-instances/bulk-publish", { instanceIds: ids }, "bulk-1");
    expect(first.status).toBe(202);
    const again = await send("/v2/model-instances/bulk-publish", { instanceIds: ids }, "bulk-1");
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(count("SELECT count(*) AS n FROM bulk_batches")).toBe(1);
    runBulkBatches(w.h.capa.services, w.h.clock.now());
    for (const id of ids) expect(publishedOf(id)).toHaveLength(1);
    const small = await send("/v2/model-instances/bulk-unpublish", { instanceIds: ids.slice(0, 2) }, "bulk-2");
    expect((await send("/v2/model-instances/bulk-unpublish", { instanceIds: ids.slice(0, 2) }, "bulk-2")).body).toEqual(small.body);
    expect(events(w, "instance.unpublished").filter((x) => ids.includes(x.data.instanceId))).toHaveLength(2);
  });
});

describe("scope and lifetime", () => {
  test("a refusal is not stored: the corrected request with the same key runs", async () => {
    const e = await post(w, "Fix me");
    const bad = await send(
      "/v2/scheduled-actions",
      { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 10_000), timezone: "UTC" },
      "fix-1",
    );
    expect(bad.body.code).toBe("in_the_past");
    const good = await send(
      "/v2/scheduled-actions",
      { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 10 * MIN), timezone: "UTC" },
      "fix-1",
    );
    expect(good.status).toBe(201);
  });

  test("keys belong to their caller: a key with the same Idempotency-Key acts for itself", async () => {
    const e = await post(w, "Two callers");
    const secret = await key(w, { permission: "write", name: "robot" });
    await send(`/v2/model-instances/${e.id}/publish`, {}, "shared-1");
    const r = await w.h.json("POST", `/v2/agent/model-instances/${e.id}/publish`, {
      headers: { "x-api-key": secret, "idempotency-key": "shared-1" },
      body: {},
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("idempotency-replayed")).toBeNull();
    expect(publishedOf(e.id).map((x) => x.actor.kind)).toEqual(["user", "api_key"]);
  });

  test("after 24 hours the key is forgotten", async () => {
    const e = await post(w, "Day");
    await send(`/v2/model-instances/${e.id}/publish`, {}, "day-1");
    w.h.clock.advance(24 * 60 * MIN - 1);
    w.token = await signIn(w);
    expect((await send(`/v2/model-instances/${e.id}/publish`, {}, "day-1")).headers.get("idempotency-replayed")).toBe("true");
    w.h.clock.advance(1);
    expect((await send(`/v2/model-instances/${e.id}/publish`, {}, "day-1")).headers.get("idempotency-replayed")).toBeNull();
    expect(publishedOf(e.id)).toHaveLength(2);
  });

  test("a malformed key is refused before anything happens", async () => {
    const e = await post(w, "Bad key");
    for (const k of ["x".repeat(256), "has space", "é"]) {
      const r = await w.h.json("POST", `/v2/model-instances/${e.id}/publish`, { token: w.token, headers: { "idempotency-key": k }, body: {} });
      expect(r.status).toBe(400);
      expect(r.body.field).toBe("Idempotency-Key");
    }
    expect(publishedOf(e.id)).toHaveLength(0);
  });
});
