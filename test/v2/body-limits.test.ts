// Body limits are per route (src/http/v2/body.ts): JSON routes keep 1 MB, a route may take more,
// and a streamed body is cut off as soon as it crosses the route's limit, never read whole.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { JSON_BODY_LIMIT, readLimited } from "../../src/http/v2/body.ts";

const MB = 1024 * 1024;

/** A request whose body is `total` bytes made on demand, counting what the reader pulled. */
function streamed(total: number, chunk = 64 * 1024) {
  const stats = { pulled: 0 };
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(chunk, total - sent);
      sent += n;
      stats.pulled += n;
      c.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
  return { request: new Request("http://capa.test/v2/x", { method: "POST", body }), stats };
}

describe("per-route body limits", () => {
  test("a 300 MB stream to a 1 MB route is refused with 413 after at most one chunk past the limit", async () => {
    const { request, stats } = streamed(300 * MB);
    let error: unknown;
    try {
      await readLimited(request, JSON_BODY_LIMIT);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("payload_too_large");
    expect(stats.pulled).toBeLessThanOrEqual(JSON_BODY_LIMIT + 2 * 64 * 1024);
  });

  test("a route with a larger limit reads a 3 MB body whole; a declared length over its limit is refused before reading", async () => {
    const { request } = streamed(3 * MB);
    expect((await readLimited(request, 4 * MB)).byteLength).toBe(3 * MB);
    const declared = new Request("http://capa.test/v2/x", { method: "POST", body: "x", headers: { "content-length": String(5 * MB) } });
    await expect(readLimited(declared, 4 * MB)).rejects.toMatchObject({ code: "payload_too_large", status: 413 });
  });
});
