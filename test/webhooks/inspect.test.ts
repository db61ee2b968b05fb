// A delivery's request and answer, as the webhook screen shows them (issue 27, keys and webhooks):
// the headers Capa sent with the signature masked, the exact body, and the answer's status,
// headers and first 4 KB; and failed deliveries on the home screen.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness } from "../harness.ts";
import { answerProblems } from "../openapi/answer-check.ts";
import { closingServer, createHook, deliver, postModel, publishPost, signIn, webhookApp, type Certs } from "./receiver.ts";

const SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

let h: Harness;
let token: string;
let c: Certs;
let server: ReturnType<typeof Bun.serve>;
const got: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  ({ h, token, c } = await webhookApp());
  await postModel(h, token);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: c.cert, key: c.key },
    fetch: async (req) => {
      got.push({ headers: Object.fromEntries(req.headers), body: await req.text() });
      return new Response("x".repeat(10_000), { status: 202, headers: { "x-receiver": "kept", "content-type": "text/plain" } });
    },
  });
});
afterAll(() => {
  server.stop(true);
  h.close();
});

describe("one delivery's request and answer", () => {
  test("the headers sent (signature masked), the exact body, the answer's status, headers and first 4 KB", async () => {
    const hook = await createHook(h, token, { url: `https://127.0.0.1:${server.port}/in`, events: ["instance.published"] });
    await publishPost(h, token, "Shown");
    await deliver(h);
    const [d] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
    const r = await h.json("GET", `/v2/webhooks/${hook.id}/deliveries/${d.id}`, { token });
    expect(r.status).toBe(200);
    expect(answerProblems(h.capa, "GET", `/v2/webhooks/${hook.id}/deliveries/${d.id}`, 200, r.body)).toEqual([]);
    const sent = got.at(-1)!;
    expect(r.body.request).toEqual({ method: "POST", url: `https://127.0.0.1:${server.port}/in`, body: sent.body });
    const [a] = r.body.attempts;
    expect(a.requestHeaders).toEqual({
      "content-type": "application/json",
      "user-agent": "Capa-Webhooks/1.0",
      "webhook-id": sent.headers["webhook-id"],
      "webhook-timestamp": sent.headers["webhook-timestamp"],
      "webhook-signature": "v1,****",
      "idempotency-key": sent.headers["webhook-id"],
    });
    expect(sent.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]{40,}$/);
    expect([a.statusCode, a.succeeded, a.response]).toEqual([202, true, "x".repeat(4096)]);
    expect(a.responseHeaders).toMatchObject({ "x-receiver": "kept", "content-type": "text/plain" });
    // The list shows the same attempt, without the body.
    expect(d.attempts[0]).toEqual(a);
    expect(d.request).toBeUndefined();
  });

  test("an attempt with no answer keeps what was sent, and no answer headers", async () => {
    const closing = closingServer(c);
    const hook = await createHook(h, token, { url: closing.url, events: ["instance.published"] });
    await publishPost(h, token, "Dropped");
    await deliver(h);
    const [d] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
    const one = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries/${d.id}`, { token })).body;
    expect([one.status, one.attempts[0].statusCode, one.attempts[0].responseHeaders, one.attempts[0].requestHeaders["webhook-signature"]]).toEqual([
      "retrying",
      null,
      null,
      "v1,****",
    ]);
    closing.stop();
    await h.json("DELETE", `/v2/webhooks/${hook.id}`, { token });
  });

  test("an unknown delivery is 404", async () => {
    const hook = await createHook(h, token, { url: `https://127.0.0.1:${server.port}/x`, events: ["instance.published"] });
    const r = await h.json("GET", `/v2/webhooks/${hook.id}/deliveries/${crypto.randomUUID()}`, { token });
    expect([r.status, r.body]).toEqual([404, { error: "No delivery with that id for this webhook endpoint.", code: "not_found" }]);
  });
});

describe("failed deliveries on the home screen", () => {
  test("a delivery that failed every attempt is listed until it is sent again", async () => {
    const closing = closingServer(c);
    const hook = await createHook(h, token, { url: closing.url, events: ["instance.published"] });
    await publishPost(h, token, "Never arrives");
    await deliver(h);
    for (const wait of SCHEDULE) {
      h.clock.advance(wait);
      await deliver(h);
    }
    token = await signIn(h);
    const [d] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
    expect([d.status, d.attemptCount]).toEqual(["failed", 8]);
    const home = (await h.json("GET", "/v2/home", { token })).body;
    expect(home.failedDeliveries).toEqual({
      total: 1,
      data: [
        {
          id: d.id,
          endpointId: hook.id,
          url: closing.url,
          eventId: d.eventId,
          eventType: "instance.published",
          attempts: 8,
          failedAt: d.finishedAt,
          note: null,
          lastStatus: null,
        },
      ],
    });
    closing.stop();
    await h.json("PATCH", `/v2/webhooks/${hook.id}`, { token, body: { url: `https://127.0.0.1:${server.port}/fixed` } });
    expect((await h.json("POST", `/v2/webhooks/${hook.id}/deliveries/${d.id}/redeliver`, { token })).status).toBe(202);
    expect((await h.json("GET", "/v2/home", { token })).body.failedDeliveries).toEqual({ total: 0, data: [] });
  });
});
