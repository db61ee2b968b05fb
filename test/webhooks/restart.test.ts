// Nothing in the outbox is lost across a stop: an event committed while the sender was not
// running is delivered by the next process on the same data directory, and a delivery cut off
// in the middle of its request is sent again with the same id.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { createHook, deliver, postModel, publishPost, Receiver, signIn, testCerts, verifyAt, webhookApp, type Certs } from "./receiver.ts";

describe("kill and restart", () => {
  let c: Certs;
  let rx: Receiver;
  beforeAll(async () => {
    c = await testCerts();
    rx = new Receiver(c);
  });
  afterAll(() => rx.stop());

  const restart = (h: Harness): Harness => {
    h.capa.close();
    return startApp({ webhookAllowPrivate: true, webhookCaFile: c.caFile }, h.dir);
  };

  test("an event committed before a stop is delivered after the restart", async () => {
    const { h, token } = await webhookApp();
    let h2: Harness | undefined;
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: rx.url("/restart"), events: ["instance.published"] });
      const entryId = await publishPost(h, token, "Survives");
      // The sender never ran in this process; the job table was never started either.
      expect(rx.on("/restart")).toHaveLength(0);
      const [queued] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
      expect(queued).toMatchObject({ status: "pending", attemptCount: 0 });

      h2 = restart(h);
      await deliver(h2);
      const got = rx.on("/restart");
      expect(got).toHaveLength(1);
      const payload = verifyAt(hook.secret, got[0]!, h2.clock.now()) as { id: string; data: { instanceId: string } };
      expect(payload.id).toBe(queued.eventId);
      expect(payload.data.instanceId).toBe(entryId);
      const token2 = await signIn(h2);
      const [done] = (await h2.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token: token2 })).body.data;
      expect(done).toMatchObject({ id: queued.id, status: "succeeded", attemptCount: 1 });
      // Delivered once: another tick sends nothing more.
      await deliver(h2);
      expect(rx.on("/restart")).toHaveLength(1);
    } finally {
      (h2 ?? h).close();
    }
  });

  test("a delivery cut off mid-request by a stop is sent again, with the same id, after the restart", async () => {
    const { h, token } = await webhookApp();
    let h2: Harness | undefined;
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: rx.url("/cut"), events: ["instance.published"] });
      rx.byPath.set("/cut", "hang");
      await publishPost(h, token, "Cut off");
      // The request goes out and hangs; the process stops before the answer.
      const running = deliver(h);
      for (let i = 0; i < 200 && rx.on("/cut").length === 0; i++) await Bun.sleep(10);
      expect(rx.on("/cut")).toHaveLength(1);
      const [sending] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
      expect(sending).toMatchObject({ status: "sending", attemptCount: 0 });

      h2 = restart(h);
      rx.byPath.set("/cut", 200);
      await deliver(h2);
      const got = rx.on("/cut");
      expect(got).toHaveLength(2);
      expect(got[1]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]!);
      expect(got[1]!.headers["idempotency-key"]).toBe(got[0]!.headers["idempotency-key"]!);
      expect(got[1]!.body).toBe(got[0]!.body);
      expect(() => verifyAt(hook.secret, got[1]!, h2!.clock.now())).not.toThrow();
      const token2 = await signIn(h2);
      const [done] = (await h2.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token: token2 })).body.data;
      expect(done).toMatchObject({ id: sending.id, status: "succeeded", attemptCount: 1 });
      // The stopped process's request ends without writing anything.
      rx.release();
      await running;
      const [after] = (await h2.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token: token2 })).body.data;
      expect(after).toMatchObject({ id: sending.id, status: "succeeded", attemptCount: 1 });
    } finally {
      (h2 ?? h).close();
    }
  });

  test("the sender is a job of the app's job table", async () => {
    const { h } = await webhookApp();
    try {
      expect(h.capa.jobs.status().find((j) => j.name === "webhooks")).toMatchObject({ name: "webhooks", pattern: "* * * * * *", running: false });
    } finally {
      h.close();
    }
  });
});
