// Hardening item 10: every special-purpose address (the IANA registries, through ipaddr.js) and
// every IPv6 form that carries a private or loopback IPv4 address is refused, when an endpoint
// is saved and again before each attempt.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { privateReason } from "../../src/domain/webhooks/safety.ts";
import { createHook, deliver, postModel, publishPost, webhookApp } from "./receiver.ts";
import { LOCAL_RECEIVER } from "../../src/domain/webhooks/endpoint-checks.ts";

const RESERVED_V4 = "is a reserved address (documentation, benchmarking or future use)";

/** Addresses and the reason each is refused, as privateReason words it. */
const REFUSED: [string, string][] = [
  ["::ffff:0:7f00:1", "is the IPv4-translated form of 127.0.0.1, which is a loopback address"],
  ["2002:7f00:1::", "is the 6to4 form of 127.0.0.1, which is a loopback address"],
  ["2002:a00:1::1", "is the 6to4 form of 10.0.0.1, which is a private address"],
  ["2002:808:808::1", "is a 6to4 relay address"],
  ["::7f00:1", "is the IPv4-compatible form of 127.0.0.1, which is a loopback address"],
  ["::808:808", "is an IPv4-compatible address (deprecated)"],
  ["64:ff9b::7f00:1", "is the NAT64 form of 127.0.0.1, which is a loopback address"],
  ["64:ff9b:1::808:808", "is a local-use NAT64 address"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "is a Teredo tunnel address"],
  ["192.0.2.1", RESERVED_V4],
  ["198.51.100.7", RESERVED_V4],
  ["203.0.113.255", RESERVED_V4],
  ["198.19.255.1", RESERVED_V4],
  ["240.0.0.1", RESERVED_V4],
  ["192.88.99.1", RESERVED_V4],
  ["100.127.255.254", "is a shared (carrier-grade NAT) address"],
  ["239.255.255.250", "is a multicast address"],
  ["192.175.48.1", "is a special-purpose address (as112)"],
  ["2001:db8::1", "is a reserved address (documentation or future use)"],
  ["3fff::1", "is a reserved address (documentation or future use)"],
  ["2001:2::1", "is a benchmarking address"],
  ["100::1", "is a discard-only address"],
  ["2001:20::1", "is a special-purpose address (orchid2)"],
  ["5f00::1", "is a special-purpose address (segmentRouting)"],
  ["4000::1", "is outside the global unicast range 2000::/3"],
];

describe("special-purpose and embedded addresses", () => {
  test.each(REFUSED)("%s %s", (ip, why) => {
    expect(privateReason(ip)).toBe(why);
  });

  test.each(["93.184.215.14", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2a00:1450:4001:80b::200e"])("%s is public", (ip) => {
    expect(privateReason(ip)).toBeNull();
  });
});

describe("saving an endpoint (CAPA_WEBHOOK_ALLOW_PRIVATE off)", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = startApp({ webhookAllowPrivate: false });
    ({ token } = await withOwner(h));
  });
  afterAll(() => h.close());

  test.each([
    ["https://[::ffff:0:7f00:1]/", "::ffff:0:7f00:1 is the IPv4-translated form of 127.0.0.1, which is a loopback address"],
    ["https://[2002:7f00:1::]/", "2002:7f00:1:: is the 6to4 form of 127.0.0.1, which is a loopback address"],
    ["https://[::127.0.0.1]/x", "::7f00:1 is the IPv4-compatible form of 127.0.0.1, which is a loopback address"],
    ["https://192.0.2.10/hook", `192.0.2.10 ${RESERVED_V4}`],
    ["https://198.51.100.10/hook", `198.51.100.10 ${RESERVED_V4}`],
    ["https://203.0.113.10/hook", `203.0.113.10 ${RESERVED_V4}`],
    ["https://198.18.0.1/hook", `198.18.0.1 ${RESERVED_V4}`],
    ["https://100.64.0.1/hook", "100.64.0.1 is a shared (carrier-grade NAT) address"],
    ["https://224.0.0.251/hook", "224.0.0.251 is a multicast address"],
    ["https://[2001:db8::5]/hook", "2001:db8::5 is a reserved address (documentation or future use)"],
  ])("create refuses %s with 400 webhook_url_refused and stores nothing", async (url, why) => {
    const r = await h.json("POST", "/v2/webhooks", { token, body: { url } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `The URL is refused: ${why}. ${LOCAL_RECEIVER}`, code: "webhook_url_refused", field: "url" });
    const list = await h.json("GET", "/v2/webhooks", { token });
    expect(list.body.data).toEqual([]);
  });
});

describe("sending (CAPA_WEBHOOK_ALLOW_PRIVATE turned off after the endpoint was saved)", () => {
  test("an attempt to an embedded loopback form is not sent and says why", async () => {
    const { h, token } = await webhookApp();
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: "https://[2002:7f00:1::]:9/hook", events: ["instance.published"] });
      h.capa.services.config.webhookAllowPrivate = false;
      await publishPost(h, token, "Refused");
      await deliver(h);
      const [d] = (await h.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token })).body.data;
      expect(d).toMatchObject({ status: "retrying", attemptCount: 1 });
      expect(d.attempts[0]).toMatchObject({
        statusCode: null,
        succeeded: false,
        response: null,
        error: "Not sent: 2002:7f00:1:: is the 6to4 form of 127.0.0.1, which is a loopback address.",
      });
    } finally {
      h.close();
    }
  });
});
