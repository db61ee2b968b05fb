// Failures and retries against real HTTPS receivers: a 500, a receiver that never answers, one
// that closes the connection, a redirect. Retry waits are driven through the injected clock;
// every retry and redelivery carries the same webhook-id and Idempotency-Key.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Harness } from "../harness.ts";
import { closingServer, createHook, deliver, postModel, publishPost, Receiver, signIn, verifyAt, webhookApp, type Certs } from "./receiver.ts";

const SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

describe("retries", () => {
  let h: Harness;
  let token: string;
  let c: Certs;
  let rx: Receiver;
  beforeAll(async () => {
    ({ h, token, c } = await webhookApp());
    rx = new Receiver(c);
    await postModel(h, token);
  });
  afterAll(() => {
    rx.stop();
    h.close();
  });
  // Retry waits move the clock by days; a session lasts 24 hours of it.
  const fresh = async () => {
    token = await signIn(h);
  };
  beforeEach(fresh);

  const log = async (hookId: string) => (await h.json("GET", `/v2/webhooks/${hookId}/deliveries`, { token })).body.data;

  test("a 500 is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with the same id, then failed", async () => {
    const hook = await createHook(h, token, { url: rx.url("/500"), events: ["instance.published"] });
    rx.byPath.set("/500", 500);
    await publishPost(h, token, "Retry me");
    await deliver(h);
    expect(rx.on("/500")).toHaveLength(1);
    let [d] = await log(hook.id);
    expect(d).toMatchObject({ status: "retrying", attemptCount: 1, nextAttemptAt: new Date(h.clock.now() + 5_000).toISOString(), finishedAt: null });
    expect(d.attempts[0]).toMatchObject({ number: 1, statusCode: 500, succeeded: false, error: "Answered 500.", response: "receiver says no" });
    for (const [i, wait] of SCHEDULE.entries()) {
      // One millisecond early nothing is sent.
      h.clock.advance(wait - 1);
      await deliver(h);
      expect(rx.on("/500")).toHaveLength(i + 1);
      h.clock.advance(1);
      await deliver(h);
      expect(rx.on("/500")).toHaveLength(i + 2);
    }
    await fresh();
    [d] = await log(hook.id);
    expect(d).toMatchObject({ status: "failed", attemptCount: 8, nextAttemptAt: null, finishedAt: new Date(h.clock.now()).toISOString() });
    expect(d.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Much later nothing more is sent.
    h.clock.advance(86_400_000);
    await deliver(h);
    expect(rx.on("/500")).toHaveLength(8);
    await fresh();
    // Every attempt: same webhook-id and Idempotency-Key, its own timestamp, and a valid signature for that timestamp.
    const reqs = rx.on("/500");
    expect(new Set(reqs.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(reqs.every((r) => r.headers["idempotency-key"] === reqs[0]!.headers["webhook-id"])).toBe(true);
    expect(new Set(reqs.map((r) => r.headers["webhook-timestamp"])).size).toBe(8);
    expect(new Set(reqs.map((r) => r.body)).size).toBe(1);
    for (const r of reqs) expect(() => verifyAt(hook.secret, r, Number(r.headers["webhook-timestamp"]) * 1000)).not.toThrow();

    // Redelivery: a new delivery with the same event id and bytes, at the end of the queue.
    rx.byPath.set("/500", 200);
    const again = await h.json("POST", `/v2/webhooks/${hook.id}/deliveries/${d.id}/redeliver`, { token });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ eventId: d.eventId, eventType: "instance.published", status: "pending", redeliveryOf: d.id, attemptCount: 0 });
    expect(again.body.id).not.toBe(d.id);
    await deliver(h);
    const last = rx.on("/500").at(-1)!;
    expect(last.headers["webhook-id"]).toBe(reqs[0]!.headers["webhook-id"]!);
    expect(last.headers["idempotency-key"]).toBe(reqs[0]!.headers["webhook-id"]!);
    expect(last.body).toBe(reqs[0]!.body);
    expect(() => verifyAt(hook.secret, last, h.clock.now())).not.toThrow();
    const [re] = await log(hook.id);
    expect(re).toMatchObject({ id: again.body.id, status: "succeeded", attemptCount: 1 });
  });

  test("redeliver of a pending delivery is 409 delivery_in_progress; of a retrying one it sends again now and stops the old retries", async () => {
    const hook = await createHook(h, token, { url: rx.url("/busy"), events: ["instance.published"] });
    rx.byPath.set("/busy", 503);
    await publishPost(h, token, "Busy");
    const [pending] = await log(hook.id);
    expect(pending.status).toBe("pending");
    const a = await h.json("POST", `/v2/webhooks/${hook.id}/deliveries/${pending.id}/redeliver`, { token });
    expect(a.status).toBe(409);
    expect(a.body).toEqual({ error: "The delivery is being sent right now, or waits for its first attempt.", code: "delivery_in_progress" });
    await deliver(h);
    const [retrying] = await log(hook.id);
    expect(retrying.status).toBe("retrying");
    // While it retries: a new delivery of the same event, due now; the old one's retries stop.
    const b = await h.json("POST", `/v2/webhooks/${hook.id}/deliveries/${retrying.id}/redeliver`, { token });
    expect(b.status).toBe(202);
    expect(b.body).toMatchObject({ eventId: retrying.eventId, status: "pending", redeliveryOf: retrying.id, attemptCount: 0 });
    const old = (await log(hook.id)).find((x: { id: string }) => x.id === retrying.id);
    expect(old).toMatchObject({
      status: "failed",
      nextAttemptAt: null,
      attemptCount: 1,
      note: `Retries stopped: sent again as delivery ${b.body.id}.`,
      finishedAt: new Date(h.clock.now()).toISOString(),
    });
    rx.byPath.set("/busy", 200);
    await deliver(h);
    const sent = rx.on("/busy");
    expect(sent).toHaveLength(2);
    expect([sent[1]!.headers["webhook-id"], sent[1]!.headers["idempotency-key"], sent[1]!.body]).toEqual([
      sent[0]!.headers["webhook-id"],
      sent[0]!.headers["webhook-id"],
      sent[0]!.body,
    ]);
    // The old delivery's retry time passes: nothing more is sent for it.
    h.clock.advance(10_000);
    await deliver(h);
    expect(rx.on("/busy")).toHaveLength(2);
    // Switching the endpoint off ends open deliveries as failed; redelivering then needs it on.
    await publishPost(h, token, "Busy again");
    await h.json("PATCH", `/v2/webhooks/${hook.id}`, { token, body: { active: false } });
    const [ended] = await log(hook.id);
    expect(ended).toMatchObject({ status: "failed", nextAttemptAt: null, note: "The endpoint was switched off before this delivery was sent." });
    const c2 = await h.json("POST", `/v2/webhooks/${hook.id}/deliveries/${ended.id}/redeliver`, { token });
    expect(c2.status).toBe(409);
    expect(c2.body).toEqual({ error: "The webhook endpoint is switched off.", code: "webhook_inactive" });
  });

  test("a receiver that does not answer in time is a failed attempt; the retry has the same id", async () => {
    const hook = await createHook(h, token, { url: rx.url("/slow"), events: ["instance.published"] });
    rx.byPath.set("/slow", "hang");
    const sender = h.capa.services.webhooks;
    sender.timeoutMs = 300;
    try {
      await publishPost(h, token, "Slow");
      const t = performance.now();
      await deliver(h);
      expect(performance.now() - t).toBeLessThan(5_000);
      const [d] = await log(hook.id);
      expect(d).toMatchObject({ status: "retrying", attemptCount: 1 });
      expect(d.attempts[0]).toMatchObject({ statusCode: null, succeeded: false, error: "No answer within 0.3 s.", response: null });
      expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(250);
      rx.byPath.set("/slow", 200);
      h.clock.advance(5_000);
      await deliver(h);
      const reqs = rx.on("/slow");
      expect(reqs).toHaveLength(2);
      expect(reqs[1]!.headers["webhook-id"]).toBe(reqs[0]!.headers["webhook-id"]!);
      expect(reqs[1]!.headers["idempotency-key"]).toBe(reqs[0]!.headers["idempotency-key"]!);
      expect((await log(hook.id))[0]).toMatchObject({ status: "succeeded", attemptCount: 2 });
    } finally {
      sender.timeoutMs = 10_000;
    }
  });

  test("an endpoint switched off while an attempt is out: the failed attempt is not retried", async () => {
    const hook = await createHook(h, token, { url: rx.url("/off-midway"), events: ["instance.published"] });
    rx.byPath.set("/off-midway", "hang");
    const sender = h.capa.services.webhooks;
    sender.timeoutMs = 500;
    try {
      await publishPost(h, token, "Midway");
      const running = deliver(h);
      for (let i = 0; i < 200 && rx.on("/off-midway").length === 0; i++) await Bun.sleep(5);
      expect((await h.json("PATCH", `/v2/webhooks/${hook.id}`, { token, body: { active: false } })).status).toBe(200);
      await running;
      const [d] = await log(hook.id);
      expect(d).toMatchObject({ status: "failed", attemptCount: 1, nextAttemptAt: null, note: "The endpoint was switched off before this delivery was sent." });
      expect(d.attempts[0].error).toBe("No answer within 0.5 s.");
    } finally {
      sender.timeoutMs = 10_000;
    }
  });

  test("the default timeout is 10 s", () => {
    expect(h.capa.services.webhooks.timeoutMs).toBe(10_000);
  });

  test("a receiver that closes the connection is a failed attempt; the retry goes out with the same id", async () => {
    const closer = closingServer(c);
    try {
      const hook = await createHook(h, token, { url: closer.url, events: ["instance.published"] });
      await publishPost(h, token, "Closed");
      await deliver(h);
      const [d] = await log(hook.id);
      expect(d).toMatchObject({ status: "retrying", attemptCount: 1 });
      expect(d.attempts[0]).toMatchObject({ statusCode: null, succeeded: false, response: null });
      expect(d.attempts[0].error).toStartWith("Request failed: ");
      expect(closer.hits()).toBeGreaterThanOrEqual(1);
      const hits = closer.hits();
      h.clock.advance(5_000);
      await deliver(h);
      expect(closer.hits()).toBeGreaterThan(hits);
      const [d2] = await log(hook.id);
      expect(d2).toMatchObject({ id: d.id, eventId: d.eventId, status: "retrying", attemptCount: 2 });
    } finally {
      closer.stop();
    }
  });

  test("a redirect is not followed and counts as a failure", async () => {
    const hook = await createHook(h, token, { url: rx.url("/moved"), events: ["instance.published"] });
    rx.byPath.set("/moved", "redirect");
    await publishPost(h, token, "Moved");
    await deliver(h);
    expect(rx.on("/elsewhere")).toHaveLength(0);
    const [d] = await log(hook.id);
    expect(d).toMatchObject({ status: "retrying" });
    expect(d.attempts[0]).toMatchObject({ statusCode: 302, succeeded: false, error: `Answered 302; redirects are not followed (to ${rx.url("/elsewhere")}).` });
  });

  test("only the first 4 KB of an answer are kept", async () => {
    const big = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: c.cert, key: c.key },
      fetch: () => new Response("x".repeat(20_000), { status: 400 }),
    });
    try {
      const hook = await createHook(h, token, { url: `https://127.0.0.1:${big.port}/big`, events: ["instance.published"] });
      await publishPost(h, token, "Big answer");
      await deliver(h);
      const [d] = await log(hook.id);
      expect(d.attempts[0].statusCode).toBe(400);
      expect(d.attempts[0].response).toBe("x".repeat(4096));
    } finally {
      big.stop(true);
    }
  });

  test("a delivery waiting for a retry does not hold back later ones; first tries keep their order", async () => {
    const hook = await createHook(h, token, { url: rx.url("/mixed"), events: ["instance.published"] });
    rx.byPath.set("/mixed", 500);
    await publishPost(h, token, "First");
    await deliver(h);
    rx.byPath.set("/mixed", 200);
    await publishPost(h, token, "Second");
    await publishPost(h, token, "Third");
    await deliver(h);
    h.clock.advance(5_000);
    await deliver(h);
    const titles = rx.on("/mixed").map((r) => (verifyAt(hook.secret, r, h.clock.now()) as { data: { title: string } }).data.title);
    expect(titles).toEqual(["First", "Second", "Third", "First"]);
  });

  test("an endpoint failing every attempt for 5 days is switched off and shown so", async () => {
    const hook = await createHook(h, token, { url: rx.url("/down"), events: ["instance.published"] });
    rx.byPath.set("/down", 500);
    const start = h.clock.now();
    await publishPost(h, token, "Down 0");
    await deliver(h);
    let ep = (await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body;
    expect(ep).toMatchObject({ active: true, failingSince: new Date(start).toISOString(), disabledReason: null });
    // Twelve-hour steps: a new event each step, due retries sent each step, all failing.
    let step = 0;
    while (h.clock.now() - start < 5 * 86_400_000 - 12 * 3_600_000) {
      h.clock.advance(12 * 3_600_000);
      await fresh();
      await publishPost(h, token, `Down ${++step}`);
      await deliver(h);
      ep = (await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body;
      expect(ep.active).toBe(true);
    }
    h.clock.advance(12 * 3_600_000);
    await fresh();
    await publishPost(h, token, "Down last");
    await deliver(h);
    ep = (await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body;
    expect(ep).toMatchObject({ active: false, disabledReason: "failing", disabledAt: new Date(h.clock.now()).toISOString() });
    const list = (await h.json("GET", "/v2/webhooks", { token })).body.data.find((e: { id: string }) => e.id === hook.id);
    expect(list).toMatchObject({ active: false, disabledReason: "failing" });
    // Its open deliveries ended; nothing more goes out.
    const open = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries?status=retrying`, { token })).body;
    expect(open.total).toBe(0);
    const sent = rx.on("/down").length;
    h.clock.advance(86_400_000);
    await fresh();
    await publishPost(h, token, "After");
    await deliver(h);
    expect(rx.on("/down")).toHaveLength(sent);
    // Switching it on again clears the state.
    const on = await h.json("PATCH", `/v2/webhooks/${hook.id}`, { token, body: { active: true } });
    expect(on.body).toMatchObject({ active: true, disabledAt: null, disabledReason: null, failingSince: null });
  });

  test("one success ends a run of failures", async () => {
    const hook = await createHook(h, token, { url: rx.url("/flaky"), events: ["instance.published"] });
    rx.byPath.set("/flaky", 500);
    await publishPost(h, token, "Flaky");
    await deliver(h);
    expect((await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body.failingSince).not.toBeNull();
    rx.byPath.set("/flaky", 204);
    h.clock.advance(5_000);
    await deliver(h);
    expect((await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body.failingSince).toBeNull();
  });
});

describe("secret rotation overlap", () => {
  let h: Harness;
  let token: string;
  let rx: Receiver;
  beforeAll(async () => {
    const app = await webhookApp();
    ({ h, token } = app);
    rx = new Receiver(app.c);
    await postModel(h, token);
  });
  afterAll(() => {
    rx.stop();
    h.close();
  });

  test("while the old secret is valid both signatures are sent and each verifies; afterwards only the new one", async () => {
    const hook = await createHook(h, token, { url: rx.url("/rot"), events: ["instance.published"] });
    const rot = await h.json("POST", `/v2/webhooks/${hook.id}/rotate-secret`, { token, body: { graceHours: 1 } });
    expect(rot.status).toBe(200);
    const fresh = rot.body.secret as string;
    await publishPost(h, token, "During");
    await deliver(h);
    const during = rx.on("/rot")[0]!;
    const sigs = during.headers["webhook-signature"]!.split(" ");
    expect(sigs).toHaveLength(2);
    expect(sigs.every((x) => /^v1,[A-Za-z0-9+/]{43}=$/.test(x))).toBe(true);
    // Verify with each secret on its own, and with each signature alone.
    expect(() => verifyAt(fresh, during, h.clock.now())).not.toThrow();
    expect(() => verifyAt(hook.secret, during, h.clock.now())).not.toThrow();
    expect(() => verifyAt(fresh, { ...during, headers: { ...during.headers, "webhook-signature": sigs[0]! } }, h.clock.now())).not.toThrow();
    expect(() => verifyAt(hook.secret, { ...during, headers: { ...during.headers, "webhook-signature": sigs[1]! } }, h.clock.now())).not.toThrow();

    h.clock.advance(3_600_000);
    await publishPost(h, token, "After");
    await deliver(h);
    const after = rx.on("/rot")[1]!;
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => verifyAt(fresh, after, h.clock.now())).not.toThrow();
    expect(() => verifyAt(hook.secret, after, h.clock.now())).toThrow("No matching signature found");
    expect((await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body.previousSecretExpiresAt).toBeNull();
  });

  test("graceHours 0 retires the old secret at once", async () => {
    const hook = await createHook(h, token, { url: rx.url("/rot0"), events: ["instance.published"] });
    const rot = await h.json("POST", `/v2/webhooks/${hook.id}/rotate-secret`, { token, body: { graceHours: 0 } });
    await publishPost(h, token, "Now");
    await deliver(h);
    const r = rx.on("/rot0")[0]!;
    expect(r.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => verifyAt(rot.body.secret, r, h.clock.now())).not.toThrow();
    expect(() => verifyAt(hook.secret, r, h.clock.now())).toThrow("No matching signature found");
  });
});

describe("private destinations at send time", () => {
  test("a name that resolves to 127.0.0.1 is not sent to once private targets are off", async () => {
    const { h, token, c } = await webhookApp();
    const rx = new Receiver(c);
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: rx.url("/dns", "localhost"), events: ["instance.published"] });
      // Through the name the receiver is reachable while private targets are allowed.
      await publishPost(h, token, "Allowed");
      await deliver(h);
      expect(rx.on("/dns")).toHaveLength(1);
      h.capa.services.config.webhookAllowPrivate = false;
      await publishPost(h, token, "Refused");
      await deliver(h);
      expect(rx.on("/dns")).toHaveLength(1);
      const [d] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
      expect(d).toMatchObject({ status: "retrying", attemptCount: 1 });
      expect(d.attempts[0]).toMatchObject({ statusCode: null, succeeded: false, response: null });
      expect(d.attempts[0].error).toMatch(/^Not sent: localhost (resolves to (127\.0\.0\.1|::1), which is a loopback address|is a loopback name)\.$/);
    } finally {
      rx.stop();
      h.close();
    }
  });

  test("an attempt connects to the address that was checked, with the name as Host and TLS server name", async () => {
    const { h, token, c } = await webhookApp();
    const rx = new Receiver(c);
    try {
      await postModel(h, token);
      const port = new URL(rx.url()).port;
      const good = await createHook(h, token, { url: `https://hooks.test:${port}/pinned?x=1`, events: ["instance.published"] });
      const wrong = await createHook(h, token, { url: `https://other.test:${port}/wrong`, events: ["instance.published"] });
      h.capa.services.config.webhookAllowPrivate = false;
      // Stands in for DNS answering a public address: the test receiver's.
      const sender = h.capa.services.webhooks;
      const seen: string[] = [];
      sender.resolve = async (u) => {
        seen.push(u.hostname);
        return { address: "127.0.0.1" };
      };
      await publishPost(h, token, "Pinned");
      await deliver(h);
      expect(seen.sort()).toEqual(["hooks.test", "other.test"]);
      const [r] = rx.on("/pinned");
      expect(r!.headers.host).toBe(`hooks.test:${port}`);
      expect(() => verifyAt(good.secret, r!, h.clock.now())).not.toThrow();
      // The certificate is checked against the name, not the address: other.test is not on it.
      expect(rx.on("/wrong")).toHaveLength(0);
      const [d] = (await h.json("GET", `/v2/webhooks/${wrong.id}/deliveries`, { token })).body.data;
      expect(d.attempts[0]).toMatchObject({ statusCode: null, succeeded: false });
      expect(d.attempts[0].error).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
    } finally {
      rx.stop();
      h.close();
    }
  });
});
