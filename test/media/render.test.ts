// Variant rendering with real sharp: sizes, formats, no enlargement, and cover crops that keep the
// focal point in view.
import { beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { AppError, v2Body } from "../../src/errors.ts";
import { coverGeometry, renderVariant } from "../../src/domain/media/render.ts";
import { parseTransform, resolveTransform } from "../../src/domain/media/transform.ts";
import { jpeg1600, png64 } from "./fixtures.ts";

const resolved = (q: string, mime = "image/jpeg") => resolveTransform(parseTransform(new URLSearchParams(q))!, null, mime);

/** A 200 x 100 PNG: red left half, blue right half. */
async function halves(): Promise<Uint8Array> {
  const w = 200;
  const h = 100;
  const px = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) px.set(i % w < w / 2 ? [255, 0, 0] : [0, 0, 255], i * 3);
  return new Uint8Array(
    await sharp(px, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

async function meanRgb(data: Uint8Array): Promise<number[]> {
  const s = await sharp(data).stats();
  return s.channels.slice(0, 3).map((c) => Math.round(c.mean));
}

describe("coverGeometry", () => {
  test("centre by default; the focal point moves the window, clamped to the edges", () => {
    const src = { width: 1600, height: 1067 };
    const box = { width: 400, height: 400 };
    expect(coverGeometry(src, box, null)).toEqual({ resize: { width: 600, height: 400 }, crop: { left: 100, top: 0, width: 400, height: 400 } });
    expect(coverGeometry(src, box, { x: 0, y: 0 }).crop).toEqual({ left: 0, top: 0, width: 400, height: 400 });
    expect(coverGeometry(src, box, { x: 1, y: 1 }).crop).toEqual({ left: 200, top: 0, width: 400, height: 400 });
    expect(coverGeometry(src, box, { x: 0.6, y: 0.5 }).crop).toEqual({ left: 160, top: 0, width: 400, height: 400 });
  });

  test("a box larger than the image shrinks to the image, keeping the box's aspect ratio", () => {
    expect(coverGeometry({ width: 100, height: 50 }, { width: 400, height: 400 }, null)).toEqual({
      resize: { width: 100, height: 50 },
      crop: { left: 25, top: 0, width: 50, height: 50 },
    });
  });
});

describe("renderVariant", () => {
  let photo: Uint8Array;
  beforeAll(async () => {
    photo = await jpeg1600();
  });

  test("a 1600 px JPEG to a 400 px WebP", async () => {
    const out = await renderVariant(photo, resolved("w=400&fm=webp"), null, 100_000_000);
    expect([out.width, out.height]).toEqual([400, 267]);
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 400, 267]);
  });

  test("AVIF, JPEG and PNG outputs; JPEG flattens alpha onto white", async () => {
    expect((await sharp((await renderVariant(photo, resolved("w=100&fm=avif"), null, 1e8)).data).metadata()).format).toBe("heif");
    const flat = await renderVariant(await png64(), resolved("fm=jpg", "image/png"), null, 1e8);
    const meta = await sharp(flat.data).metadata();
    expect([meta.format, meta.channels, meta.hasAlpha]).toEqual(["jpeg", 3, false]);
    // The half-transparent blue half becomes light blue on white.
    const right = await sharp(flat.data).extract({ left: 40, top: 10, width: 10, height: 10 }).raw().toBuffer();
    expect(right[0]).toBeGreaterThan(100);
    expect(right[2]).toBeGreaterThan(240);
    expect((await sharp((await renderVariant(photo, resolved("w=50&fm=png"), null, 1e8)).data).metadata()).format).toBe("png");
  });

  test("never enlarges: w=4000 of a 64 px PNG is 64 px", async () => {
    const out = await renderVariant(await png64(), resolved("w=4000", "image/png"), null, 1e8);
    expect([out.width, out.height]).toEqual([64, 48]);
  });

  test("contain, inside and fill fit the box their own way", async () => {
    const src = await halves();
    expect(await renderVariant(src, resolved("w=50&h=50&fit=inside", "image/png"), null, 1e8).then((o) => [o.width, o.height])).toEqual([50, 25]);
    expect(await renderVariant(src, resolved("w=50&h=50&fit=contain", "image/png"), null, 1e8).then((o) => [o.width, o.height])).toEqual([50, 50]);
    expect(await renderVariant(src, resolved("w=50&h=50&fit=fill", "image/png"), null, 1e8).then((o) => [o.width, o.height])).toEqual([50, 50]);
  });

  test("cover crops around the focal point: left edge red, right edge blue", async () => {
    const src = await halves();
    const t = resolved("w=40&h=40", "image/png");
    const left = await renderVariant(src, t, { x: 0.1, y: 0.5 }, 1e8);
    const right = await renderVariant(src, t, { x: 0.9, y: 0.5 }, 1e8);
    expect([left.width, left.height, right.width, right.height]).toEqual([40, 40, 40, 40]);
    expect(await meanRgb(left.data)).toEqual([255, 0, 0]);
    expect(await meanRgb(right.data)).toEqual([0, 0, 255]);
    // Centred, the window straddles both halves.
    const mid = await meanRgb((await renderVariant(src, t, null, 1e8)).data);
    expect(mid[0]).toBeGreaterThan(100);
    expect(mid[2]).toBeGreaterThan(100);
  });

  test("a source over the pixel limit (a limit lowered since its upload): 400 image_too_large with the limit", async () => {
    try {
      await renderVariant(await png64(), resolved("w=10", "image/png"), null, 100);
      throw new Error("expected a refusal");
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect(v2Body(err as AppError)).toEqual({ error: "The image has more pixels than the limit of 100.", code: "image_too_large", limit: 100 });
    }
  });

  test("bytes that do not decode: 400 image_unreadable", async () => {
    try {
      await renderVariant(photo.subarray(0, 300), resolved("w=10"), null, 1e8);
      throw new Error("expected a refusal");
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("image_unreadable");
      expect((err as AppError).status).toBe(400);
    }
  });
});
