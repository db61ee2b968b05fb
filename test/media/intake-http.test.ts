// The intake behind a real Bun.serve: a standard client's FormData upload, a refusal over the limit
// before the body is read, and a client that disconnects mid-body (a raw socket).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { AppError, v2Body } from "../../src/errors.ts";
import { receiveUpload } from "../../src/domain/media/intake.ts";
import { tempDir } from "./fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
let server: ReturnType<typeof Bun.serve>;
/** Each handled upload's outcome, for the test that cannot read the answer (its socket is gone). */
let outcome: (body: unknown) => void = () => {};

beforeAll(() => {
  tmp = tempDir();
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      try {
        const up = await receiveUpload(request, { dir: tmp.dir, maxBytes: 1024 * 1024 });
        const body = { files: up.files.map(({ path: _p, ...f }) => f), fields: up.fields };
        await up.discard();
        outcome(body);
        return Response.json(body, { status: 201 });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        outcome(v2Body(err));
        return Response.json(v2Body(err), { status: err.status });
      }
    },
  });
});
afterAll(() => {
  server.stop(true);
  tmp.remove();
});

const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

describe("receiveUpload over HTTP", () => {
  test("a FormData upload from fetch: two files and alt", async () => {
    const a = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const b = new TextEncoder().encode("hello");
    const form = new FormData();
    form.append("file", new Blob([a]), "a.bin");
    form.append("file", new Blob([b], { type: "text/plain" }), "b.txt");
    form.append("alt", "Two files");
    const r = await fetch(`http://127.0.0.1:${server.port}/v2/media`, { method: "POST", body: form });
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({
      files: [
        { part: 1, filename: "a.bin", size: 300_000, sha256: sha256(a) },
        { part: 2, filename: "b.txt", size: 5, sha256: sha256(b) },
      ],
      fields: { alt: "Two files" },
    });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a file over the limit: 413 file_too_large answered, nothing kept", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(3 * 1024 * 1024)]), "big.bin");
    const r = await fetch(`http://127.0.0.1:${server.port}/v2/media`, { method: "POST", body: form });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: 'The file part 1 ("big.bin") is larger than the limit of 1048576 bytes.', code: "file_too_large", limit: 1048576 });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a client that sends half the announced body and hangs up: upload_truncated, nothing kept", async () => {
    const seen = new Promise<unknown>((resolve) => {
      outcome = resolve;
    });
    const part = `--xyz\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n${"x".repeat(50_000)}`;
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port: server.port!,
      socket: { data() {}, open() {} },
    });
    socket.write(
      `POST /v2/media HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${part.length + 100_000}\r\n\r\n${part}`,
    );
    socket.flush();
    socket.end();
    expect(await seen).toEqual({ error: "The upload was cut short in file part 1.", code: "upload_truncated", field: "body" });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });
});
