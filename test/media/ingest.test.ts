// An upload from Request to stored bytes: kinds from the bytes, image facts, and nothing left on
// disk (temp folder or store) when any part is refused.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { AppError, v2Body } from "../../src/errors.ts";
import { ingestUpload } from "../../src/domain/media/ingest.ts";
import { openLocalStore } from "../../src/infra/media-store/local.ts";
import type { MediaStore } from "../../src/infra/media-store/types.ts";
import { ManualClock } from "../../src/infra/clock.ts";
import { RenderQueue } from "../../src/infra/render-queue.ts";
import { HTML_PAGE, SVG_WITH_SCRIPT, multipart, png64, pngBomb, tempDir, uploadRequest } from "./fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
let store: MediaStore;
let n = 0;
const ids = { uuid: () => `0190c7a0-0000-7000-8000-${String(++n).padStart(12, "0")}` };
beforeEach(async () => {
  tmp = tempDir();
  store = await openLocalStore(join(tmp.dir, "media"));
  await Bun.write(join(tmp.dir, "incoming", ".keep"), "");
});
afterEach(() => tmp.remove());

const queue = new RenderQueue({ slots: 2, budgetBytes: 2 * 1024 ** 3, clock: new ManualClock(0) });
const deps = () => ({ store, ids, projectId: "proj", dir: join(tmp.dir, "incoming"), maxBytes: 1_000_000, maxPixels: 100_000_000, queue, client: "user:test" });
const stored = () => readdirSync(join(tmp.dir, "media")).filter((f) => f !== ".tmp");
const incoming = () => readdirSync(join(tmp.dir, "incoming")).filter((f) => f !== ".keep");

describe("ingestUpload", () => {
  test("a PNG named .exe, HTML named .jpg and an SVG: each stored with the kind its bytes say", async () => {
    n = 0;
    const png = await png64();
    const mp = multipart([
      { name: "file", filename: "setup.exe", type: "application/x-msdownload", body: png },
      { name: "file", filename: "cat.jpg", type: "image/jpeg", body: HTML_PAGE },
      { name: "file", filename: "logo.svg", type: "image/svg+xml", body: SVG_WITH_SCRIPT },
      { name: "alt", body: "Three files" },
    ]);
    const { files, fields } = await ingestUpload(uploadRequest(mp), deps());
    expect(fields).toEqual({ alt: "Three files" });
    const sha = (b: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(b).digest("hex");
    expect(files.map(({ placeholder, ...f }) => ({ ...f, placeholder: placeholder === null ? null : "set" }))).toEqual([
      {
        id: "0190c7a0-0000-7000-8000-000000000001",
        filename: "setup.exe",
        kind: "image",
        mimeType: "image/png",
        size: png.byteLength,
        width: 64,
        height: 48,
        duration: null,
        placeholder: "set",
        checksum: sha(png),
        storageKey: "proj/0190c7a0-0000-7000-8000-000000000001",
      },
      {
        id: "0190c7a0-0000-7000-8000-000000000002",
        filename: "cat.jpg",
        kind: "document",
        mimeType: "text/html",
        size: new TextEncoder().encode(HTML_PAGE).byteLength,
        width: null,
        height: null,
        duration: null,
        placeholder: null,
        checksum: sha(HTML_PAGE),
        storageKey: "proj/0190c7a0-0000-7000-8000-000000000002",
      },
      {
        id: "0190c7a0-0000-7000-8000-000000000003",
        filename: "logo.svg",
        kind: "image",
        mimeType: "image/svg+xml",
        size: new TextEncoder().encode(SVG_WITH_SCRIPT).byteLength,
        width: 120,
        height: 80,
        duration: null,
        placeholder: "set",
        checksum: sha(SVG_WITH_SCRIPT),
        storageKey: "proj/0190c7a0-0000-7000-8000-000000000003",
      },
    ]);
    expect(readdirSync(join(tmp.dir, "media", "proj")).length).toBe(3);
    expect(new Uint8Array(await new Response(await store.get(files[0]!.storageKey)).arrayBuffer())).toEqual(png);
    expect(incoming()).toEqual([]);
  });

  test("a decompression bomb in the second part: 400 image_too_large, the first file's bytes removed too", async () => {
    const mp = multipart([
      { name: "file", filename: "fine.png", body: await png64() },
      { name: "file", filename: "bomb.png", body: pngBomb() },
    ]);
    let err: unknown;
    try {
      await ingestUpload(uploadRequest(mp), deps());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(v2Body(err as AppError)).toEqual({
      error: 'File part 2 ("bomb.png") declares more pixels (50000 x 50000 = 2500000000 pixels) than the limit of 100000000.',
      code: "image_too_large",
      field: "file",
      limit: 100_000_000,
    });
    expect(stored()).toEqual([]);
    expect(incoming()).toEqual([]);
  });

  test("a file over the limit: 413 file_too_large, nothing stored", async () => {
    const mp = multipart([{ name: "file", filename: "big.bin", body: new Uint8Array(1_000_001) }]);
    let err: unknown;
    try {
      await ingestUpload(uploadRequest(mp), deps());
    } catch (e) {
      err = e;
    }
    expect(v2Body(err as AppError)).toEqual({
      error: 'The file part 1 ("big.bin") is larger than the limit of 1000000 bytes.',
      code: "file_too_large",
      limit: 1_000_000,
    });
    expect(stored()).toEqual([]);
    expect(incoming()).toEqual([]);
  });
});
