// The agent mount (interface.md, Agent mount; decisions.md 9): scheduled publishing, publishing
// now and bulk again under /v2/agent for legacy keys. What a key may do follows its permission;
// a refusal is a bare 403; scoped keys are refused like unknown ones.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runBulkBatches } from "../../src/domain/bulk/runner.ts";
import { runDueActions } from "../../src/domain/scheduling/runner.ts";
import { events, key, MIN, post, wallIn, world, type World } from "./helpers.ts";

let w: World;
let write: string;
let read: string;
let scoped: string;
let writeId: string;
beforeAll(async () => {
  w = await world();
  write = await key(w, { permission: "write", name: "Publisher" });
  read = await key(w, { permission: "read", name: "Reader" });
  scoped = await key(w, { scopes: ["instance:read", "instance:publish"], name: "Scoped" });
  writeId = (await w.h.json("GET", "/v2/tenants/api-keys", { token: w.token })).body.data.find((k: { name: string }) => k.name === "Publisher").id;
});
afterAll(() => w.h.close());

const agent = (method: string, path: string, secret: string | null, body?: unknown) =>
  w.h.json(method, `/v2/agent${path}`, { headers: secret === null ? {} : { "x-api-key": secret }, body });

describe("a legacy key with write permission", () => {
  test("schedules, reads, reschedules and cancels; the action records the key", async () => {
    const e = await post(w, "By key");
    const r = await agent("POST", "/scheduled-actions", write, {
      action: "publish",
      targets: [{ type: "instance", id: e.id }],
      wallTime: wallIn(w, 5 * MIN),
      timezone: "UTC",
    });
    expect(r.status).toBe(201);
    const a = r.body.actions[0];
    expect(a.createdBy).toEqual({ kind: "api_key", id: writeId });
    expect((await agent("GET", `/scheduled-actions/${a.id}`, write)).body).toEqual(a);
    expect((await agent("GET", `/scheduled-actions?targetId=${e.id}`, write)).body.total).toBe(1);
    expect((await agent("GET", `/scheduled-actions/batch/${a.batchId}`, write)).body.total).toBe(1);
    expect((await agent("GET", "/scheduled-actions/failures", write)).body.count).toBe(0);
    expect((await agent("GET", "/scheduled-actions/defaults", write)).body).toEqual({ timezone: null });
    expect((await agent("GET", `/model-instances/${e.id}/scheduled`, write)).body.data).toHaveLength(1);
    expect((await agent("PATCH", `/scheduled-actions/${a.id}`, write, { wallTime: wallIn(w, 9 * MIN) })).status).toBe(200);
    expect((await agent("PATCH", `/scheduled-actions/batch/${a.batchId}`, write, { wallTime: wallIn(w, 8 * MIN) })).status).toBe(200);
    expect((await agent("POST", `/scheduled-actions/${a.id}/cancel`, write)).body.status).toBe("cancelled");
    expect((await agent("POST", `/scheduled-actions/batch/${a.batchId}/cancel`, write)).status).toBe(200);
    // A person sees the key's action on the /v2 mount: one project, two doors.
    expect((await w.h.json("GET", `/v2/scheduled-actions/${a.id}`, { token: w.token })).body.status).toBe("cancelled");
  });

  test("an action the key scheduled runs as schedule, and a failed one can be retried by the key", async () => {
    const e = await post(w, null);
    const r = await agent("POST", "/scheduled-actions", write, {
      action: "publish",
      targets: [{ type: "instance", id: e.id }],
      wallTime: wallIn(w, 2 * MIN),
      timezone: "UTC",
    });
    w.h.clock.advance(2 * MIN);
    runDueActions(w.h.capa.services, w.h.clock.now());
    await w.h.json("PATCH", `/v2/model-instances/${e.id}`, { token: w.token, body: { data: { title: "Now fine" } } });
    const retry = await agent("POST", `/scheduled-actions/${r.body.actions[0].id}/retry`, write);
    expect(retry.status).toBe(201);
    runDueActions(w.h.capa.services, w.h.clock.now());
    const ev = events(w, "instance.published").filter((x) => x.data.instanceId === e.id);
    expect(ev.map((x) => x.actor)).toEqual([{ kind: "schedule", id: retry.body.actions[0].id }]);
  });

  test("publishes now and in bulk; the poll link is on the agent mount", async () => {
    const e = await post(w, "Now");
    const r = await agent("POST", `/model-instances/${e.id}/publish`, write, {});
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("published");
    expect(events(w, "instance.published").find((x) => x.data.instanceId === e.id).actor).toEqual({ kind: "api_key", id: writeId });
    expect((await agent("POST", `/model-instances/${e.id}/unpublish`, write)).body.status).toBe("draft");

    const ids: string[] = [];
    for (let i = 0; i < 51; i++) ids.push((await post(w, `Agent ${i}`)).id);
    const dry = await agent("POST", "/model-instances/bulk-publish", write, { instanceIds: ids, dryRun: true });
    expect(dry.body.count).toBe(51);
    const b = await agent("POST", "/model-instances/bulk-publish", write, { instanceIds: ids, expectedCount: 51 });
    expect(b.status).toBe(202);
    expect(b.body.poll).toBe(`/v2/agent/model-instances/bulk/${b.body.batchId}`);
    runBulkBatches(w.h.capa.services, w.h.clock.now());
    const polled = await w.h.json("GET", b.body.poll, { headers: { "x-api-key": write } });
    expect(polled.body).toMatchObject({ status: "done", counts: { done: 51 }, createdBy: { kind: "api_key", id: writeId } });
    const small = await agent("POST", "/model-instances/bulk-unpublish", write, { instanceIds: ids.slice(0, 3) });
    expect(small.body.counts.done).toBe(3);
  });

  test("a model target needs model:publish, which no key holds: 403 bare", async () => {
    const r = await agent("POST", "/scheduled-actions", write, {
      action: "publish",
      targets: [{ type: "model", id: "post" }],
      wallTime: wallIn(w, 5 * MIN),
      timezone: "UTC",
    });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient permissions" });
  });

  test("a project setting is never a key's: PUT defaults is 403", async () => {
    const r = await agent("PUT", "/scheduled-actions/defaults", write, { timezone: "UTC" });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient permissions" });
  });
});

describe("refusals", () => {
  test("a read key reads but may not publish: 403 { error } and nothing more", async () => {
    const e = await post(w, "Read only");
    expect((await agent("GET", "/scheduled-actions", read)).status).toBe(200);
    expect((await agent("GET", `/model-instances/${e.id}/scheduled`, read)).status).toBe(200);
    const writes: [string, string, unknown][] = [
      ["POST", "/scheduled-actions", { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: wallIn(w, 5 * MIN), timezone: "UTC" }],
      ["PATCH", `/scheduled-actions/${crypto.randomUUID()}`, { wallTime: wallIn(w, 5 * MIN) }],
      ["POST", `/scheduled-actions/${crypto.randomUUID()}/cancel`, {}],
      ["POST", `/scheduled-actions/${crypto.randomUUID()}/retry`, {}],
      ["PATCH", `/scheduled-actions/batch/${crypto.randomUUID()}`, { wallTime: wallIn(w, 5 * MIN) }],
      ["POST", `/scheduled-actions/batch/${crypto.randomUUID()}/cancel`, {}],
      ["POST", `/model-instances/${e.id}/publish`, {}],
      ["POST", `/model-instances/${e.id}/unpublish`, {}],
      ["POST", "/model-instances/bulk-publish", { instanceIds: [e.id] }],
      ["POST", "/model-instances/bulk-unpublish", { instanceIds: [e.id] }],
    ];
    for (const [method, path, body] of writes) {
      const r = await agent(method, path, read, body);
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 403, body: { error: "Insufficient permissions" } });
    }
    expect(events(w, "instance.published").filter((x) => x.data.instanceId === e.id)).toEqual([]);
  });

  test("a scoped key, no key and an unknown key: 401 { error: Invalid API key }", async () => {
    for (const secret of [scoped, null, "sk_not_a_real_key"]) {
      for (const [method, path] of [
        ["GET", "/scheduled-actions"],
        ["POST", "/scheduled-actions"],
        ["POST", "/model-instances/bulk-publish"],
      ] as const) {
        const r = await agent(method, path, secret, {});
        expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 401, body: { error: "Invalid API key" } });
      }
    }
  });

  test("a legacy key on the people's mount is refused like an unknown key", async () => {
    const r = await w.h.json("GET", "/v2/scheduled-actions", { headers: { "x-api-key": write } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Invalid API key" });
  });
});
