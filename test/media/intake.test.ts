// Streaming upload intake: every file part lands in its own temp file with its sha256 and size;
// every bad body is refused with a code naming the part at fault and leaves no file behind.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { AppError, v2Body } from "../../src/errors.ts";
import { receiveUpload } from "../../src/domain/media/intake.ts";
import { multipart, tempDir, uploadRequest } from "./fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

const sha256 = (b: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

/** Runs the intake and returns the AppError it throws (failing the test if it does not throw one). */
async function refusal(req: Request, maxBytes = 1000): Promise<AppError> {
  try {
    await receiveUpload(req, { dir: tmp.dir, maxBytes });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected the upload to be refused");
}

describe("receiveUpload", () => {
  test("two files and the three text fields: each file on disk with its sha256 and size", async () => {
    const a = new Uint8Array(40_000).map((_, i) => i % 251);
    const mp = multipart([
      { name: "alt", body: "A red square" },
      { name: "file", filename: "one.bin", type: "application/octet-stream", body: a },
      { name: "title", body: "Squares" },
      { name: "file", filename: "zwei ü.txt", type: "text/plain", body: "hello" },
      { name: "folder", body: "0190c7a0-0000-7000-8000-000000000001" },
    ]);
    const up = await receiveUpload(uploadRequest(mp), { dir: tmp.dir, maxBytes: 100_000 });
    expect(up.fields).toEqual({ alt: "A red square", title: "Squares", folder: "0190c7a0-0000-7000-8000-000000000001" });
    expect(up.files.map(({ path: _p, ...f }) => f)).toEqual([
      { part: 1, filename: "one.bin", size: 40_000, sha256: sha256(a) },
      { part: 2, filename: "zwei ü.txt", size: 5, sha256: sha256("hello") },
    ]);
    expect(new Uint8Array(readFileSync(up.files[0]!.path))).toEqual(a);
    expect(readdirSync(tmp.dir).length).toBe(2);
    await up.discard();
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a file of exactly the limit is accepted", async () => {
    const up = await receiveUpload(uploadRequest(multipart([{ name: "file", filename: "x.bin", body: new Uint8Array(1000).fill(1) }])), {
      dir: tmp.dir,
      maxBytes: 1000,
    });
    expect(up.files[0]!.size).toBe(1000);
    await up.discard();
  });

  test("one byte over the limit: 413 file_too_large with the limit, nothing kept", async () => {
    const mp = multipart([
      { name: "file", filename: "ok.bin", body: new Uint8Array(10).fill(1) },
      { name: "file", filename: "big.bin", body: new Uint8Array(1001).fill(2) },
    ]);
    const err = await refusal(uploadRequest(mp));
    expect(err.status).toBe(413);
    expect(v2Body(err)).toEqual({ error: 'The file part 2 ("big.bin") is larger than the limit of 1000 bytes.', code: "file_too_large", limit: 1000 });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("the limit is enforced while the body streams: refused without reading the rest", async () => {
    const head = multipart([{ name: "file", filename: "endless.bin", body: new Uint8Array(0) }]).body;
    // The part's header, then 64 KiB chunks forever: only refusing mid-stream can finish this test.
    const prefix = head.subarray(0, head.indexOf(13, head.indexOf(13, head.indexOf(13, head.indexOf(13) + 1) + 1) + 1) + 2);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(prefix);
      },
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024).fill(7));
      },
    });
    const req = new Request("http://capa.test/v2/media", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=capa-test-boundary" },
      body,
    });
    const err = await refusal(req, 1024 * 1024);
    expect(err.code).toBe("file_too_large");
    expect(v2Body(err)).toEqual({
      error: 'The file part 1 ("endless.bin") is larger than the limit of 1048576 bytes.',
      code: "file_too_large",
      limit: 1048576,
    });
    // 16 chunks make the limit; a few more may be in flight in the parser, not the whole body.
    expect(pulled).toBeLessThan(40);
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a body cut short inside a file part: 400 upload_truncated naming the part, nothing kept", async () => {
    const mp = multipart([
      { name: "file", filename: "a.bin", body: new Uint8Array(5000).fill(1) },
      { name: "file", filename: "b.bin", body: new Uint8Array(50_000).fill(2) },
    ]);
    const err = await refusal(uploadRequest(mp, 20_000), 100_000);
    expect(err.status).toBe(400);
    expect(v2Body(err)).toEqual({ error: "The upload was cut short in file part 2.", code: "upload_truncated", field: "body" });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a body whose stream fails: 400 upload_truncated", async () => {
    const mp = multipart([{ name: "file", filename: "a.bin", body: new Uint8Array(5000).fill(1) }]);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(mp.body.subarray(0, 3000));
      },
      pull(c) {
        c.error(new Error("connection reset"));
      },
    });
    const req = new Request("http://capa.test/v2/media", { method: "POST", headers: { "content-type": mp.contentType }, body });
    const err = await refusal(req, 100_000);
    expect(v2Body(err)).toEqual({ error: "The upload was cut short in file part 1.", code: "upload_truncated", field: "body" });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("no file part: 400 file_required", async () => {
    const err = await refusal(uploadRequest(multipart([{ name: "alt", body: "x" }])));
    expect(err.status).toBe(400);
    expect(v2Body(err)).toEqual({ error: "The upload has no file part.", code: "file_required", field: "file" });
  });

  test("an empty file: 400 file_empty naming the part, the other file removed too", async () => {
    const mp = multipart([
      { name: "file", filename: "fine.txt", body: "fine" },
      { name: "file", filename: "empty.txt", body: "" },
    ]);
    const err = await refusal(uploadRequest(mp));
    expect(err.status).toBe(400);
    expect(v2Body(err)).toEqual({ error: 'The file part 2 ("empty.txt") is empty.', code: "file_empty", field: "file" });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  const badNames: [string, string][] = [
    ["../../etc/passwd", 'The name of file part 1 contains a path separator: "../../etc/passwd".'],
    ["..\\..\\boot.ini", 'The name of file part 1 contains a path separator: "..\\\\..\\\\boot.ini".'],
    ["..", 'The name of file part 1 starts with a dot: "..".'],
    [".htaccess", 'The name of file part 1 starts with a dot: ".htaccess".'],
    ["bell\u0007.jpg", 'The name of file part 1 contains a control or bidi character: "bell\\u0007.jpg".'],
    ["photo\u202egpj.exe", 'The name of file part 1 contains a control or bidi character: "photo\u202egpj.exe".'],
    ["", 'The name of file part 1 is empty: "".'],
    [`${"a".repeat(256)}`, `The name of file part 1 is longer than 255 bytes: "${"a".repeat(256)}".`],
  ];
  for (const [name, message] of badNames) {
    test(`the file name ${JSON.stringify(name.slice(0, 20))}: 400 invalid_filename`, async () => {
      const err = await refusal(uploadRequest(multipart([{ name: "file", filename: name, body: "x" }])));
      expect(err.status).toBe(400);
      expect(v2Body(err)).toEqual({ error: message, code: "invalid_filename", field: "filename" });
      expect(readdirSync(tmp.dir)).toEqual([]);
    });
  }

  test("not multipart: 400 upload_not_multipart", async () => {
    const req = new Request("http://capa.test/v2/media", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const err = await refusal(req);
    expect(err.status).toBe(400);
    expect(v2Body(err)).toEqual({ error: "Uploads must be sent as multipart/form-data.", code: "upload_not_multipart" });
  });

  test("an unknown text field: 400 invalid_body naming it, the file removed", async () => {
    const mp = multipart([
      { name: "file", filename: "a.txt", body: "a" },
      { name: "owner", body: "me" },
    ]);
    const err = await refusal(uploadRequest(mp));
    expect(v2Body(err)).toEqual({ error: 'Unknown field "owner": send file, alt, title or folder.', code: "invalid_body", field: "owner" });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a file under another part name: 400 invalid_body naming it", async () => {
    const err = await refusal(uploadRequest(multipart([{ name: "image", filename: "a.png", body: "a" }])));
    expect(v2Body(err)).toEqual({ error: 'Files go in parts named file; file part 1 is named "image".', code: "invalid_body", field: "image" });
  });

  test("more files than allowed: 400 invalid_body naming file, nothing kept", async () => {
    const mp = multipart([1, 2, 3].map((i) => ({ name: "file", filename: `${i}.txt`, body: "x" })));
    let err: unknown;
    try {
      await receiveUpload(uploadRequest(mp), { dir: tmp.dir, maxBytes: 1000, maxFiles: 2 });
    } catch (e) {
      err = e;
    }
    expect(v2Body(err as AppError)).toEqual({ error: "At most 2 files per upload.", code: "invalid_body", field: "file" });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("the temp folder missing: the file-system error is thrown as it is (an internal error, not the client's)", async () => {
    const mp = multipart([{ name: "file", filename: "a.txt", body: "a" }]);
    const err = await receiveUpload(uploadRequest(mp), { dir: `${tmp.dir}/missing`, maxBytes: 1000 }).catch((e) => e);
    expect(err).not.toBeInstanceOf(AppError);
    expect((err as { code?: string }).code).toBe("ENOENT");
  });

  test("a part header that never ends, or no boundary at all: 400 upload_truncated", async () => {
    for (const text of ['--capa-test-boundary\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nXXXX\r\n', "no boundary anywhere"]) {
      const err = await refusal(uploadRequest({ body: new TextEncoder().encode(text), contentType: "multipart/form-data; boundary=capa-test-boundary" }));
      expect(v2Body(err)).toEqual({ error: "The upload was cut short in the body.", code: "upload_truncated", field: "body" });
    }
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  test("a text field sent twice: 400 invalid_body naming it", async () => {
    const mp = multipart([
      { name: "alt", body: "one" },
      { name: "alt", body: "two" },
      { name: "file", filename: "a.txt", body: "a" },
    ]);
    const err = await refusal(uploadRequest(mp));
    expect(v2Body(err)).toEqual({ error: "The alt field is sent twice.", code: "invalid_body", field: "alt" });
  });
});
