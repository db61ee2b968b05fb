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

  test("a delivery cut off by a stop whose endpoint is switched off before the restart sends nothing more", async () => {
    const { h, token } = await webhookApp();
    let h2: Harness | undefined;
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: rx.url("/cut-off"), events: ["instance.published"] });
      rx.byPath.set("/cut-off", "hang");
      await publishPost(h, token, "Cut and off");
      const running = deliver(h);
      for (let i = 0; i < 200 && rx.on("/cut-off").length === 0; i++) await Bun.sleep(10);
      h2 = restart(h);
      const token2 = await signIn(h2);
      expect((await h2.json("PATCH", `/v2/webhooks/${hook.id}`, { token: token2, body: { active: false } })).status).toBe(200);
      await deliver(h2);
      expect(rx.on("/cut-off")).toHaveLength(1);
      const [d] = (await h2.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token: token2 })).body.data;
      expect(d).toMatchObject({ status: "failed", attemptCount: 0, note: "The endpoint was switched off before this delivery was sent." });
      rx.release();
      await running;
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

describe("retention", () => {
  test("finished deliveries are pruned with their attempts after 30 days; open ones stay", async () => {
    const { h, token, c } = await webhookApp();
    const rx = new Receiver(c);
    try {
      await postModel(h, token);
      const ok = await createHook(h, token, { url: rx.url("/kept"), events: ["instance.published"] });
      const down = await createHook(h, token, { url: rx.url("/down"), events: ["instance.published"] });
      rx.byPath.set("/down", 500);
      await publishPost(h, token, "Old");
      await deliver(h);
      // 30 days later: the succeeded delivery is still inside the window.
      h.clock.advance(30 * 86_400_000 - 1000);
      await deliver(h);
      let t = await signIn(h);
      expect((await h.json("GET", `/v2/webhooks/${ok.id}/deliveries`, { token: t })).body.total).toBe(1);
      // An hour later it is pruned. The other delivery failed its second attempt at day 30, which
      // switched its endpoint off (failing for 5 days) and ended it then: it stays.
      h.clock.advance(3_600_000);
      await deliver(h);
      t = await signIn(h);
      expect((await h.json("GET", `/v2/webhooks/${ok.id}/deliveries`, { token: t })).body).toEqual({ data: [], page: 1, limit: 25, total: 0 });
      const failed = (await h.json("GET", `/v2/webhooks/${down.id}/deliveries`, { token: t })).body;
      expect(failed.total).toBe(1);
      expect(failed.data[0].status).toBe("failed");
      const attempts = h.capa.services.projects
        .get((await h.json("GET", "/v2/projects", { token: t })).body.data[0].id)
        .sqlite.query("SELECT count(*) AS n FROM webhook_attempts")
        .get() as { n: number };
      // What is left: the two attempts of the delivery that stays.
      expect(failed.data[0].attempts).toHaveLength(2);
      expect(attempts.n).toBe(2);
    } finally {
      rx.stop();
      h.close();
    }
  });
  test("events older than 30 days are pruned once no delivery refers to them", async () => {
    const { h, token, c, project } = await webhookApp();
    const rx = new Receiver(c);
    const events = () =>
      (h.capa.services.projects.get(project.id).sqlite.query("SELECT type FROM events ORDER BY seq").all() as { type: string }[]).map((r) => r.type);
    try {
      // model.published has no subscriber: nothing refers to it.
      await postModel(h, token);
      await createHook(h, token, { url: rx.url("/kept"), events: ["instance.published"] });
      const down = await createHook(h, token, { url: rx.url("/down"), events: ["instance.published"] });
      rx.byPath.set("/down", 500);
      await publishPost(h, token, "Old");
      await deliver(h);
      h.clock.advance(30 * 86_400_000 - 1000);
      await deliver(h);
      expect(events()).toEqual(["model.published", "instance.published"]);
      // Past 30 days: the unreferenced event goes; the publish stays while the failed delivery
      // (finished at day 30, when its endpoint was switched off) still refers to it.
      h.clock.advance(3_600_000);
      await deliver(h);
      expect(events()).toEqual(["instance.published"]);
      const t = await signIn(h);
      expect((await h.json("GET", `/v2/webhooks/${down.id}/deliveries`, { token: t })).body.total).toBe(1);
      // Once that delivery is pruned too, so is its event.
      h.clock.advance(31 * 86_400_000);
      await deliver(h);
      expect(events()).toEqual([]);
    } finally {
      rx.stop();
      h.close();
    }
  });
});
