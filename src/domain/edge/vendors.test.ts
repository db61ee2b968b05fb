// One purge call (vendors.ts): a Varnish name checked before the call (refused without a request,
// or pinned to the checked address with the name as Host), and the wait a refusal names.
import { afterAll, describe, expect, test } from "bun:test";
import { retryAfterMs, sendPurge, VENDOR_APIS } from "./vendors.ts";

const seen: { host: string | null; purge: string | null }[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    seen.push({ host: req.headers.get("host"), purge: req.headers.get("xkey-purge") });
    return new Response("Purged 1");
  },
});
afterAll(() => server.stop(true));

const target = { id: "varnish:http://varnish.test/", vendor: "varnish" as const, address: `http://varnish.test:${server.port}/` };
const ctx = { token: "t".repeat(20), timeoutMs: 2000, apis: VENDOR_APIS };

describe("sendPurge to a Varnish named by DNS", () => {
  test("a name refused by the destination check is not called", async () => {
    seen.length = 0;
    const r = await sendPurge(target, ["entry:a"], {
      ...ctx,
      resolve: async () => ({ refused: "varnish.test resolves to 10.0.0.7, which is a private address" }),
    });
    expect(r).toEqual({ ok: false, status: null, error: "Not sent: varnish.test resolves to 10.0.0.7, which is a private address.", retryAfterMs: null });
    expect(seen).toEqual([]);
  });

  test("a checked name is called at the address checked, with the name as Host", async () => {
    seen.length = 0;
    const r = await sendPurge(target, ["entry:a", "model:post"], { ...ctx, resolve: async () => ({ address: "127.0.0.1" }) });
    expect(r).toEqual({ ok: true, status: 200 });
    expect(seen).toEqual([{ host: `varnish.test:${server.port}`, purge: "entry:a model:post" }]);
  });
});

describe("retryAfterMs", () => {
  const now = Date.UTC(2026, 10, 21, 12);
  test.each([
    ["Retry-After in seconds", { "retry-after": "120" }, 120_000],
    ["Retry-After as a date", { "retry-after": new Date(now + 30_000).toUTCString() }, 30_000],
    ["Fastly-RateLimit-Reset in epoch seconds", { "fastly-ratelimit-reset": String(now / 1000 + 45) }, 45_000],
    ["a date in the past", { "retry-after": new Date(now - 5000).toUTCString() }, 0],
    ["nothing", {}, null],
    ["nonsense", { "retry-after": "soon" }, null],
  ] as const)("%s", (_name, headers, ms) => {
    expect(retryAfterMs(new Headers(headers as Record<string, string>), now)).toBe(ms);
  });
});
