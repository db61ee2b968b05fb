// Delivery to a real local HTTPS receiver: Standard Webhooks signatures checked by the
// `standardwebhooks` library, the envelope's key order and data per type, 'Include content
// data', webhook.test to one endpoint only, subscriptions, creation time and order per endpoint.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness } from "../harness.ts";
import { createHook, deliver, postModel, publishPost, Receiver, verifyAt, webhookApp } from "./receiver.ts";

const ENVELOPE_KEYS = ["id", "type", "apiVersion", "occurredAt", "tenantId", "actor", "data", "links"];

describe("delivery of events", () => {
  let h: Harness;
  let token: string;
  let userId: string;
  let projectId: string;
  let rx: Receiver;
  let hook: { id: string; secret: string };
  let model: { id: string; namespace: string };
  beforeAll(async () => {
    const app = await webhookApp({ publicUrl: "https://cdn.capa.test", apiUrl: "https://api.capa.test" });
    ({ h, token } = app);
    userId = app.user.id;
    projectId = app.project.id;
    rx = new Receiver(app.c);
    model = await postModel(h, token);
    hook = await createHook(h, token, {
      url: rx.url("/all"),
      events: ["instance.published", "instance.unpublished", "instance.deleted", "model.published", "model.deleted"],
    });
  });
  afterAll(() => {
    rx.stop();
    h.close();
  });

  test("an endpoint receives only events after its creation; history is never replayed", async () => {
    // The model was created before the endpoint: its model.published went nowhere.
    await deliver(h);
    expect(rx.on("/all")).toHaveLength(0);
  });

  test("instance.published: signed per Standard Webhooks, envelope in its fixed key order", async () => {
    h.clock.advance(1000);
    const id = await publishPost(h, token, "Hello");
    await deliver(h);
    const [r] = rx.on("/all");
    expect(r).toBeDefined();
    // The independent verifier accepts it and parses the same JSON.
    const payload = verifyAt(hook.secret, r!, h.clock.now()) as Record<string, any>;
    expect(r!.headers["content-type"]).toBe("application/json");
    expect(r!.headers["user-agent"]).toBe("Capa-Webhooks/1.0");
    expect(r!.headers["webhook-id"]).toMatch(/^evt_[0-9a-f-]{36}$/);
    expect(r!.headers["idempotency-key"]).toBe(r!.headers["webhook-id"]!);
    expect(r!.headers["webhook-timestamp"]).toBe(String(Math.floor(h.clock.now() / 1000)));
    expect(r!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(payload)).toEqual(ENVELOPE_KEYS);
    // The bytes are exactly the envelope serialised in that order.
    expect(r!.body).toBe(JSON.stringify(payload));
    const versions = (await h.json("GET", `/v2/model-instances/${id}/versions`, { token })).body.data;
    expect(payload).toEqual({
      id: r!.headers["webhook-id"],
      type: "instance.published",
      apiVersion: "2026-10-01",
      occurredAt: "2026-11-21T12:00:01.000Z",
      tenantId: projectId,
      actor: { kind: "user", id: userId },
      data: {
        instanceId: id,
        modelId: model.id,
        modelNamespace: "post",
        versionId: versions[0].id,
        versionNumber: 1,
        publishedAt: "2026-11-21T12:00:01.000Z",
        title: "Hello",
        scheduledActionId: null,
      },
      links: { self: `https://api.capa.test/v2/agent/model-instances/${id}`, public: `https://cdn.capa.test/api/entries/post/${id}` },
    });
    expect(Object.keys(payload.data)).toEqual([
      "instanceId",
      "modelId",
      "modelNamespace",
      "versionId",
      "versionNumber",
      "publishedAt",
      "title",
      "scheduledActionId",
    ]);
    expect(typeof payload.data.versionNumber).toBe("number");
    // Without 'Include content data' the body carries no content.
    expect(payload.data.data).toBeUndefined();
    // A wrong secret does not verify.
    expect(() => verifyAt(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, r!, h.clock.now())).toThrow("No matching signature found");
  });

  test("instance.unpublished and instance.deleted: modelNamespace vs namespace, no public link", async () => {
    rx.received.length = 0;
    const id = await publishPost(h, token, "Brief");
    expect((await h.json("POST", `/v2/model-instances/${id}/unpublish`, { token })).status).toBe(200);
    expect((await h.req("DELETE", `/v2/model-instances/${id}`, { token })).status).toBe(204);
    await deliver(h);
    const got = rx.on("/all").map((r) => verifyAt(hook.secret, r, h.clock.now()) as Record<string, any>);
    expect(got.map((p) => p.type)).toEqual(["instance.published", "instance.unpublished", "instance.deleted"]);
    const [, un, del] = got;
    expect(Object.keys(un!)).toEqual(ENVELOPE_KEYS);
    expect(un!.data).toEqual({ instanceId: id, modelId: model.id, modelNamespace: "post", scheduledActionId: null });
    expect(un!.links).toEqual({ self: `https://api.capa.test/v2/agent/model-instances/${id}` });
    expect(Object.keys(del!)).toEqual(ENVELOPE_KEYS);
    expect(del!.data).toEqual({ instanceId: id, modelId: model.id, namespace: "post" });
    expect(del!.links).toEqual({});
    // Each event has its own id.
    expect(new Set(got.map((p) => p.id)).size).toBe(3);
  });

  test("model.published and model.deleted: modelNamespace vs namespace", async () => {
    rx.received.length = 0;
    const m = await h.json("POST", "/v2/models", { token, body: { name: "Tag", namespace: "tag", fields: [{ namespace: "name", type: "string" }] } });
    expect(m.status).toBe(201);
    expect((await h.req("DELETE", `/v2/models/${m.body.id}`, { token, body: { namespace: "tag" } })).status).toBe(204);
    await deliver(h);
    const got = rx.on("/all").map((r) => verifyAt(hook.secret, r, h.clock.now()) as Record<string, any>);
    expect(got.map((p) => p.type)).toEqual(["model.published", "model.deleted"]);
    expect(Object.keys(got[0]!)).toEqual(ENVELOPE_KEYS);
    expect(got[0]!.data).toMatchObject({ modelId: m.body.id, modelNamespace: "tag" });
    expect(got[0]!.data.namespace).toBeUndefined();
    expect(got[0]!.links.public).toBeUndefined();
    expect(got[1]!.data).toEqual({ modelId: m.body.id, namespace: "tag" });
  });

  test("an endpoint gets only the types it subscribed to", async () => {
    const only = await createHook(h, token, { url: rx.url("/unpub-only"), events: ["instance.unpublished"] });
    const id = await publishPost(h, token, "Sub");
    await h.json("POST", `/v2/model-instances/${id}/unpublish`, { token });
    await deliver(h);
    const got = rx.on("/unpub-only");
    expect(got).toHaveLength(1);
    expect((verifyAt(only.secret, got[0]!, h.clock.now()) as { type: string }).type).toBe("instance.unpublished");
  });

  test("'Include content data' puts the published entry in data.data, deterministically, on instance.published only", async () => {
    const withContent = await createHook(h, token, { url: rx.url("/content"), includeContent: true });
    const id = await publishPost(h, token, "Full");
    await h.json("POST", `/v2/model-instances/${id}/unpublish`, { token });
    await deliver(h);
    const [pub, un] = rx.on("/content").map((r) => verifyAt(withContent.secret, r, h.clock.now()) as Record<string, any>);
    expect(Object.keys(pub!)).toEqual(ENVELOPE_KEYS);
    expect(Object.keys(pub!.data)).toEqual([
      "instanceId",
      "modelId",
      "modelNamespace",
      "versionId",
      "versionNumber",
      "publishedAt",
      "title",
      "scheduledActionId",
      "data",
    ]);
    // The content is the production read of the entry at publish time.
    expect(pub!.data.data).toMatchObject({ id, model: "post", status: "published", title: "Full", body: "About Full" });
    expect(Object.keys(pub!.data.data).slice(0, 3)).toEqual(["id", "model", "status"]);
    expect(un!.data.data).toBeUndefined();
    // The endpoint without the option got the same event id without content.
    const plain = rx
      .on("/all")
      .map((r) => JSON.parse(r.body))
      .find((p) => p.id === pub!.id);
    expect(plain.data.data).toBeUndefined();
    expect({ ...pub!, data: { ...pub!.data, data: undefined } }).toEqual({ ...plain, data: { ...plain.data, data: undefined } });
  });

  test("webhook.test goes only to the endpoint it was asked for, answers 202 with the queued delivery", async () => {
    const a = await createHook(h, token, { url: rx.url("/test-a") });
    await createHook(h, token, { url: rx.url("/test-b") });
    const r = await h.json("POST", `/v2/webhooks/${a.id}/test`, { token });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ endpointId: a.id, eventType: "webhook.test", status: "pending", attemptCount: 0, attempts: [] });
    rx.received.length = 0;
    await deliver(h);
    expect(rx.received.map((x) => x.path)).toEqual(["/test-a"]);
    const p = verifyAt(a.secret, rx.received[0]!, h.clock.now()) as Record<string, any>;
    expect(Object.keys(p)).toEqual(ENVELOPE_KEYS);
    expect(p).toMatchObject({
      id: r.body.eventId,
      type: "webhook.test",
      actor: { kind: "user", id: userId },
      data: { webhookId: a.id, url: rx.url("/test-a"), message: "This is a test event from Capa." },
    });
    // Webhook routes are not on the agent mount, so the test event names no `self`.
    expect(p.links).toEqual({});
    const log = await h.json("GET", `/v2/webhooks/${a.id}/deliveries`, { token });
    expect(log.body.data[0]).toMatchObject({ id: r.body.id, status: "succeeded", attemptCount: 1 });
    expect(log.body.data[0].attempts[0]).toMatchObject({
      number: 1,
      statusCode: 200,
      succeeded: true,
      error: null,
      response: expect.stringMatching(/^ok \d+$/),
    });
  });

  test("a switched-off endpoint gets no deliveries and its test is 409 webhook_inactive", async () => {
    const off = await createHook(h, token, { url: rx.url("/off") });
    await h.json("PATCH", `/v2/webhooks/${off.id}`, { token, body: { active: false } });
    await publishPost(h, token, "Quiet");
    await deliver(h);
    expect(rx.on("/off")).toHaveLength(0);
    const t = await h.json("POST", `/v2/webhooks/${off.id}/test`, { token });
    expect(t.status).toBe(409);
    expect(t.body).toEqual({ error: "The webhook endpoint is switched off.", code: "webhook_inactive" });
    expect((await h.json("GET", `/v2/webhooks/${off.id}/deliveries`, { token })).body).toEqual({ data: [], page: 1, limit: 25, total: 0 });
  });

  test("deliveries to one endpoint arrive in order of occurrence", async () => {
    const ordered = await createHook(h, token, { url: rx.url("/order"), events: ["instance.published"] });
    const titles = Array.from({ length: 12 }, (_, i) => `Post ${i}`);
    for (const t of titles) await publishPost(h, token, t);
    await deliver(h);
    const got = rx.on("/order").map((r) => verifyAt(ordered.secret, r, h.clock.now()) as { data: { title: string } });
    expect(got.map((p) => p.data.title)).toEqual(titles);
  });

  test("the delivery log pages newest first with attempts", async () => {
    const log = await h.json("GET", `/v2/webhooks/${hook.id}/deliveries?limit=2`, { token });
    expect(log.status).toBe(200);
    expect(log.body.limit).toBe(2);
    expect(log.body.page).toBe(1);
    expect(log.body.total).toBeGreaterThan(10);
    expect(log.body.data).toHaveLength(2);
    const [d] = log.body.data;
    expect(Object.keys(d)).toEqual([
      "id",
      "endpointId",
      "eventId",
      "eventType",
      "status",
      "attemptCount",
      "nextAttemptAt",
      "redeliveryOf",
      "note",
      "createdAt",
      "updatedAt",
      "finishedAt",
      "attempts",
    ]);
    expect(d.status).toBe("succeeded");
    expect(Object.keys(d.attempts[0])).toEqual([
      "number",
      "startedAt",
      "durationMs",
      "statusCode",
      "succeeded",
      "error",
      "response",
      "requestHeaders",
      "responseHeaders",
    ]);
    const filtered = await h.json("GET", `/v2/webhooks/${hook.id}/deliveries?status=failed`, { token });
    expect(filtered.body.total).toBe(0);
  });
});
