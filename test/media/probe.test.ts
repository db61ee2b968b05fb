// Kind and MIME type from the bytes (never the name), image facts and ThumbHash from sharp, and the
// decompression bomb refused from its header.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { thumbHashToApproximateAspectRatio } from "thumbhash";
import { AppError, v2Body } from "../../src/errors.ts";
import { probeFile } from "../../src/domain/media/probe.ts";
import { ManualClock } from "../../src/infra/clock.ts";
import { RenderQueue } from "../../src/infra/render-queue.ts";
import { sniffFile } from "../../src/domain/media/sniff.ts";
import { HTML_PAGE, SVG_WITH_SCRIPT, jpeg1600, mp4Header, png64, pngBomb, tempDir, wav } from "./fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
const files: Record<string, string> = {};
beforeAll(async () => {
  tmp = tempDir();
  const write = async (name: string, bytes: Uint8Array | string) => {
    files[name] = join(tmp.dir, name);
    await Bun.write(files[name]!, bytes);
  };
  const png = await png64();
  await write("photo.jpg", await jpeg1600());
  await write("image.exe", png);
  await write("page.jpg", HTML_PAGE);
  await write("logo.svg", SVG_WITH_SCRIPT);
  await write("bomb.png", pngBomb());
  await write("cut.png", png.subarray(0, 80));
  await write("tone.wav", wav(2));
  await write("clip.mov", mp4Header(3.5));
  await write("doc.pdf", "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
  await write("notes.jpg", "Just some notes.\nLine two.\n");
  await write("feed.png", '<?xml version="1.0"?><rss version="2.0"></rss>');
  await write("noise.png", new Uint8Array(4096).map((_, i) => (i * 7919) % 256 || 1).fill(0, 100, 101));
  await write("archive.bin", await new Response(Bun.gzipSync(new TextEncoder().encode("x"))).bytes());
  await write(
    "rotated.jpg",
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "#808080" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  );
});
afterAll(() => tmp.remove());

describe("sniffFile: from the bytes, never the name", () => {
  const cases: [string, string, string][] = [
    ["photo.jpg", "image", "image/jpeg"],
    ["image.exe", "image", "image/png"],
    ["page.jpg", "document", "text/html"],
    ["logo.svg", "image", "image/svg+xml"],
    ["tone.wav", "audio", "audio/wav"],
    ["clip.mov", "video", "video/mp4"],
    ["doc.pdf", "pdf", "application/pdf"],
    ["notes.jpg", "document", "text/plain"],
    ["feed.png", "document", "application/xml"],
    ["noise.png", "unknown", "application/octet-stream"],
    ["archive.bin", "file", "application/gzip"],
  ];
  for (const [name, kind, mimeType] of cases) {
    test(`${name} is ${kind} (${mimeType})`, async () => {
      expect(await sniffFile(files[name]!)).toEqual({ kind: kind as never, mimeType });
    });
  }
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("probeFile", () => {
  const queue = new RenderQueue({ slots: 2, budgetBytes: 2 * 1024 ** 3, clock: new ManualClock(0) });
  const limit = { maxPixels: 100_000_000, queue, client: "user:test" };

  test("a 1600 px JPEG: its size and a ThumbHash of its aspect ratio", async () => {
    const p = await probeFile(files["photo.jpg"]!, { kind: "image", mimeType: "image/jpeg" }, limit);
    expect(p.width).toBe(1600);
    expect(p.height).toBe(1067);
    expect(p.duration).toBeNull();
    const hash = Buffer.from(p.placeholder!, "base64");
    expect(hash.byteLength).toBeGreaterThanOrEqual(20);
    expect(hash.byteLength).toBeLessThanOrEqual(25);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(1600 / 1067, 0);
  });

  test("a PNG named .exe is probed as the image it is", async () => {
    const p = await probeFile(files["image.exe"]!, await sniffFile(files["image.exe"]!), limit);
    expect([p.width, p.height]).toEqual([64, 48]);
    expect(p.placeholder).toBeString();
  });

  test("EXIF orientation is applied: a 300 x 200 JPEG turned 90 degrees is 200 x 300", async () => {
    const p = await probeFile(files["rotated.jpg"]!, { kind: "image", mimeType: "image/jpeg" }, limit);
    expect([p.width, p.height]).toEqual([200, 300]);
  });

  test("an SVG with a script: its declared size, read without running anything", async () => {
    const p = await probeFile(files["logo.svg"]!, { kind: "image", mimeType: "image/svg+xml" }, limit);
    expect([p.width, p.height]).toEqual([120, 80]);
  });

  test("audio and video: the duration from the container's headers", async () => {
    expect(await probeFile(files["tone.wav"]!, await sniffFile(files["tone.wav"]!), limit)).toEqual({
      width: null,
      height: null,
      duration: 2,
      placeholder: null,
    });
    expect(await probeFile(files["clip.mov"]!, await sniffFile(files["clip.mov"]!), limit)).toEqual({
      width: null,
      height: null,
      duration: 3.5,
      placeholder: null,
    });
  });

  test("an audio file whose headers say nothing keeps a null duration", async () => {
    expect(await probeFile(files["doc.pdf"]!, { kind: "audio", mimeType: "audio/mpeg" }, limit)).toEqual({
      width: null,
      height: null,
      duration: null,
      placeholder: null,
    });
  });

  test("HTML and PDF have no image facts", async () => {
    for (const name of ["page.jpg", "doc.pdf"]) {
      expect(await probeFile(files[name]!, await sniffFile(files[name]!), limit)).toEqual({ width: null, height: null, duration: null, placeholder: null });
    }
  });

  test("a PNG declaring 50,000 x 50,000: 400 image_too_large with the limit, from the header alone", async () => {
    const err = await refusal(probeFile(files["bomb.png"]!, { kind: "image", mimeType: "image/png" }, { ...limit, label: 'file part 1 ("bomb.png")' }));
    expect(err.status).toBe(400);
    expect(v2Body(err)).toEqual({
      error: 'File part 1 ("bomb.png") declares more pixels (50000 x 50000 = 2500000000 pixels) than the limit of 100000000.',
      code: "image_too_large",
      field: "file",
      limit: 100_000_000,
    });
  });

  test("a PNG cut after its header: 400 image_unreadable", async () => {
    const err = await refusal(probeFile(files["cut.png"]!, { kind: "image", mimeType: "image/png" }, limit));
    expect(err.status).toBe(400);
    expect(v2Body(err)).toEqual({ error: "The file is marked as image/png but cannot be decoded.", code: "image_unreadable", field: "file" });
  });
});
