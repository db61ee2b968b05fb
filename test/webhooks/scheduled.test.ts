// Events of scheduled publishing reach webhooks like any other: a scheduled publish carries its
// action's id and the `schedule` actor; an action that dies after its retries sends
// `schedule.failed` (decisions.md sections 6 and 7).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness } from "../harness.ts";
import { runDueActions } from "../../src/domain/scheduling/runner.ts";
import { createHook, deliver, Receiver, verifyAt, webhookApp } from "./receiver.ts";

const MIN = 60_000;
const ENVELOPE_KEYS = ["id", "type", "apiVersion", "occurredAt", "tenantId", "actor", "data", "links"];

describe("scheduled publishing events", () => {
  let h: Harness;
  let token: string;
  let rx: Receiver;
  let hook: { id: string; secret: string };
  beforeAll(async () => {
    const app = await webhookApp({ apiUrl: "https://api.capa.test" });
    ({ h, token } = app);
    rx = new Receiver(app.c);
    const m = await h.json("POST", "/v2/models", {
      token,
      body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string", required: true }] },
    });
    expect(m.status).toBe(201);
    hook = await createHook(h, token, { url: rx.url("/sched"), events: ["instance.published", "schedule.failed"] });
  });
  afterAll(() => {
    rx.stop();
    h.close();
  });

  const scheduleAt = async (id: string, ms: number) => {
    const r = await h.json("POST", "/v2/scheduled-actions", {
      token,
      body: { action: "publish", timezone: "UTC", targets: [{ type: "instance", id }], wallTime: new Date(h.clock.now() + ms).toISOString().slice(0, 19) },
    });
    expect(r.status).toBe(201);
    return r.body.actions[0].id as string;
  };
  const tick = (ms: number) => {
    h.clock.advance(ms);
    runDueActions(h.capa.services, h.clock.now());
  };

  test("a scheduled publish is instance.published with the schedule actor and scheduledActionId", async () => {
    const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "On time" } } });
    const actionId = await scheduleAt(e.body.id, 2 * MIN);
    tick(2 * MIN);
    await deliver(h);
    const [r] = rx.on("/sched");
    const p = verifyAt(hook.secret, r!, h.clock.now()) as Record<string, any>;
    expect(Object.keys(p)).toEqual(ENVELOPE_KEYS);
    expect(p).toMatchObject({
      type: "instance.published",
      actor: { kind: "schedule", id: actionId },
      data: { instanceId: e.body.id, title: "On time", scheduledActionId: actionId },
    });
  });

  test("an action that dies after its retries sends schedule.failed with the action as data", async () => {
    rx.received.length = 0;
    const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: {} } });
    const actionId = await scheduleAt(e.body.id, 2 * MIN);
    tick(2 * MIN);
    for (const m of [1, 5, 15]) tick(m * MIN);
    await deliver(h);
    const got = rx.on("/sched").map((r) => verifyAt(hook.secret, r, h.clock.now()) as Record<string, any>);
    expect(got.map((p) => p.type)).toEqual(["schedule.failed"]);
    const [p] = got;
    expect(Object.keys(p!)).toEqual(ENVELOPE_KEYS);
    expect(p!.actor).toEqual({ kind: "schedule", id: actionId });
    expect(p!.data).toMatchObject({ id: actionId, status: "dead", lastError: "title is required before the entry can be published" });
    // The rules the entry broke, so the event says what to fix (decisions.md 15).
    expect(p!.data.lastErrors).toEqual([
      { entryId: e.body.id, field: "data.title", rule: "required", message: "title is required before the entry can be published" },
    ]);
    expect(p!.links).toEqual({ self: `https://api.capa.test/v2/agent/scheduled-actions/${actionId}` });
  });
});
