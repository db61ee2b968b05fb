// Unit checks of the two pure parts: the signature against the standardwebhooks library's own
// signer, and the table of refused destination addresses.
import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { maskSecret, newSecret, signature, signedHeaders } from "../../src/domain/webhooks/signing.ts";
import { privateReason } from "../../src/domain/webhooks/safety.ts";

describe("signing", () => {
  test("a secret is whsec_ and 32 random bytes in base64; the mask shows 4 characters", () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
    expect(maskSecret(a)).toBe(a.slice(0, 10));
  });

  test("the signature equals the standardwebhooks library's for the same id, time and bytes", () => {
    const secret = newSecret();
    const body = JSON.stringify({ id: "evt_1", type: "x", data: { title: "Grüße — \u2028 ✓" } });
    const ts = 1_795_300_000;
    expect(signature(secret, "evt_1", ts, body)).toBe(new Webhook(secret).sign("evt_1", new Date(ts * 1000), body));
  });

  test("headers: one signature per secret, space-separated, newest first", () => {
    const [a, b] = [newSecret(), newSecret()];
    const hd = signedHeaders([a, b], "evt_2", 1_795_300_000_999, "{}");
    expect(hd).toEqual({
      "content-type": "application/json",
      "user-agent": "Capa-Webhooks/1.0",
      "webhook-id": "evt_2",
      "webhook-timestamp": "1795300000",
      "webhook-signature": `${signature(a, "evt_2", 1_795_300_000, "{}")} ${signature(b, "evt_2", 1_795_300_000, "{}")}`,
      "idempotency-key": "evt_2",
    });
  });
});

describe("refused destinations", () => {
  test.each([
    ["127.0.0.1", "is a loopback address"],
    ["127.255.255.254", "is a loopback address"],
    ["0.0.0.0", "is an unspecified address"],
    ["10.0.0.1", "is a private address"],
    ["172.16.0.1", "is a private address"],
    ["172.31.255.255", "is a private address"],
    ["192.168.0.1", "is a private address"],
    ["100.64.0.1", "is a shared (carrier-grade NAT) address"],
    ["169.254.169.254", "is a link-local address"],
    ["192.0.0.8", "is a reserved address (documentation, benchmarking or future use)"],
    ["198.18.0.1", "is a reserved address (documentation, benchmarking or future use)"],
    ["224.0.0.1", "is a multicast address"],
    ["255.255.255.255", "is a broadcast address"],
    ["::", "is an unspecified address"],
    ["::1", "is a loopback address"],
    ["::ffff:127.0.0.1", "is a loopback address"],
    ["::ffff:10.1.1.1", "is a private address"],
    ["::ffff:7f00:1", "is a loopback address"],
    ["64:ff9b::a9fe:a9fe", "is the NAT64 form of 169.254.169.254, which is a link-local address"],
    ["fc00::1", "is a private (unique local) address"],
    ["fd12:3456::1", "is a private (unique local) address"],
    ["fe80::1%eth0", "is a link-local address"],
    ["febf::1", "is a link-local address"],
    ["fec0::1", "is a site-local address"],
    ["ff02::1", "is a multicast address"],
  ])("%s %s", (ip, why) => {
    expect(privateReason(ip)).toBe(why);
  });

  test.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.0.1",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.255.0.1",
    "2606:4700::1111",
    "64:ff9b::808:808",
    "::ffff:8.8.8.8",
  ])("%s is public", (ip) => {
    expect(privateReason(ip)).toBeNull();
  });
});
