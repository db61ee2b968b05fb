// Hostile images written byte by byte (issue 24): files of a few bytes to a few kilobytes that
// declare up to CAPA_MEDIA_MAX_PIXELS, cut short, with thousands of frames, an SVG whose <use>
// references multiply, and a PNG whose zTXt chunk inflates to gigabytes. No binary is committed,
// and none of these needs sharp to be made (so making them costs the test nothing).
import { deflateSync } from "node:zlib";

const enc = new TextEncoder();
const le16 = (n: number) => [n & 255, (n >> 8) & 255];
const le24 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];

/**
 * The GIF of issue 24, 35 bytes: header and image descriptor declare `w` x `h`, a two-colour
 * palette, and LZW data that ends after one code. A GIF decoder renders the whole frame.
 */
export function gifBomb(w = 10_000, h = 10_000): Uint8Array {
  return new Uint8Array([
    ...enc.encode("GIF89a"),
    ...le16(w),
    ...le16(h),
    0x80,
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255,
    0x2c,
    ...le16(0),
    ...le16(0),
    ...le16(w),
    ...le16(h),
    0x00,
    0x02,
    0x02,
    0x44,
    0x01,
    0x00,
    0x3b,
  ]);
}

/** A GIF of a `w` x `h` screen with `frames` frames of 1 x 1 pixel each (an animation). */
export function gifFrames(w: number, h: number, frames: number): Uint8Array {
  const head = [...enc.encode("GIF89a"), ...le16(w), ...le16(h), 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
  // NETSCAPE2.0 loop extension, then per frame a graphic control extension and a 1 x 1 image.
  const loop = [0x21, 0xff, 0x0b, ...enc.encode("NETSCAPE2.0"), 3, 1, 0, 0, 0];
  const frame = [0x21, 0xf9, 4, 0, 1, 0, 0, 0, 0x2c, ...le16(0), ...le16(0), ...le16(1), ...le16(1), 0, 2, 2, 0x44, 0x01, 0];
  const out = new Uint8Array(head.length + loop.length + frame.length * frames + 1);
  out.set(head, 0);
  out.set(loop, head.length);
  for (let i = 0; i < frames; i++) out.set(frame, head.length + loop.length + i * frame.length);
  out[out.length - 1] = 0x3b;
  return out;
}

function be32(n: number): number[] {
  return [(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** One PNG chunk with its CRC. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(enc.encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const PNG_SIG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

function ihdr(w: number, h: number, colour: number, interlace: number): Uint8Array {
  return pngChunk("IHDR", new Uint8Array([...be32(w), ...be32(h), 8, colour, 0, 0, interlace]));
}

/**
 * A PNG declaring `w` x `h` RGBA pixels with one scan line of data and no end: cut short. With
 * `interlace` (Adam7) a decoder must hold the whole image before it can give the first row.
 */
export function pngDeclaring(w: number, h: number, opts: { interlace?: boolean } = {}): Uint8Array {
  const idat = deflateSync(new Uint8Array(1 + w * 4));
  return Buffer.concat([PNG_SIG, ihdr(w, h, 6, opts.interlace ? 1 : 0), pngChunk("IDAT", idat)]);
}

/** A complete 16 x 16 RGB PNG holding extra chunks between its header and its data. */
function pngWith(extra: Uint8Array[], idat = deflateSync(new Uint8Array(16 * 49))): Uint8Array {
  return Buffer.concat([PNG_SIG, ihdr(16, 16, 2, 0), ...extra, pngChunk("IDAT", idat), pngChunk("IEND", new Uint8Array())]);
}

/** A 16 x 16 PNG whose zTXt chunk inflates to `bytes` bytes of zeros (a zip bomb in the metadata). */
export function pngZtxtBomb(bytes = 1024 * 1024 * 1024): Uint8Array {
  const text = deflateSync(Buffer.alloc(bytes), { level: 9 });
  return pngWith([pngChunk("zTXt", Buffer.concat([enc.encode("Comment"), new Uint8Array([0, 0]), text]))]);
}

/** An APNG of 16 x 16 with `frames` frames (acTL, then fcTL and fdAT per frame after the first). */
export function apng(frames: number): Uint8Array {
  const row = deflateSync(new Uint8Array(16 * 49));
  const fctl = (seq: number) => pngChunk("fcTL", new Uint8Array([...be32(seq), ...be32(16), ...be32(16), ...be32(0), ...be32(0), 0, 1, 0, 100, 0, 0]));
  const chunks: Uint8Array[] = [pngChunk("acTL", new Uint8Array([...be32(frames), ...be32(0)])), fctl(0)];
  const tail: Uint8Array[] = [];
  let seq = 1;
  for (let i = 1; i < frames; i++) {
    tail.push(fctl(seq++));
    tail.push(pngChunk("fdAT", Buffer.concat([new Uint8Array(be32(seq++)), row])));
  }
  return Buffer.concat([PNG_SIG, ihdr(16, 16, 2, 0), ...chunks, pngChunk("IDAT", row), ...tail, pngChunk("IEND", new Uint8Array())]);
}

/** A RIFF chunk (little-endian size, padded to even). */
function riff(type: string, data: Uint8Array): Uint8Array {
  const pad = data.length % 2;
  const out = new Uint8Array(8 + data.length + pad);
  out.set(enc.encode(type), 0);
  out.set(le32(data.length), 4);
  out.set(data, 8);
  return out;
}

/** A VP8L (lossless) bitstream of a 1 x 1 green pixel. */
const VP8L_1X1 = new Uint8Array([0x2f, 0x00, 0x00, 0x00, 0x00, 0x88, 0x88, 0x08, 0x00]);

/**
 * An animated WebP whose canvas is `w` x `h`, with `frames` frames of 1 x 1 pixel: small on disk,
 * while a decoder composes every frame on the whole canvas.
 */
export function animatedWebp(w: number, h: number, frames: number): Uint8Array {
  const vp8x = riff("VP8X", new Uint8Array([0x12, 0, 0, 0, ...le24(w - 1), ...le24(h - 1)]));
  const anim = riff("ANIM", new Uint8Array([0, 0, 0, 0, 0, 0]));
  const frame = riff("ANMF", Buffer.concat([new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 2]), riff("VP8L", VP8L_1X1)]));
  const body = Buffer.concat([enc.encode("WEBP"), vp8x, anim, ...Array.from({ length: frames }, () => frame)]);
  return Buffer.concat([enc.encode("RIFF"), new Uint8Array(le32(body.length)), body]);
}

/**
 * A still WebP whose VP8X canvas declares `w` x `h` around a 1 x 1 lossless image: the canvas and
 * the image disagree, as a hand-edited file would.
 */
export function webpDeclaring(w: number, h: number): Uint8Array {
  const vp8x = riff("VP8X", new Uint8Array([0x10, 0, 0, 0, ...le24(w - 1), ...le24(h - 1)]));
  const body = Buffer.concat([enc.encode("WEBP"), vp8x, riff("VP8L", VP8L_1X1)]);
  return Buffer.concat([enc.encode("RIFF"), new Uint8Array(le32(body.length)), body]);
}

/** A little-endian TIFF declaring `w` x `h` 8-bit RGB in one uncompressed strip that is missing. */
export function tiffDeclaring(w: number, h: number): Uint8Array {
  const entries: [number, number, number, number][] = [
    [256, 4, 1, w],
    [257, 4, 1, h],
    [258, 3, 1, 8],
    [259, 3, 1, 1],
    [262, 3, 1, 2],
    [273, 4, 1, 8 + 2 + 9 * 12 + 4],
    [277, 3, 1, 3],
    [278, 4, 1, h],
    [279, 4, 1, w * h * 3],
  ];
  const ifd = [...le16(entries.length)];
  for (const [tag, type, count, value] of entries)
    ifd.push(...le16(tag), ...le16(type), ...le32(count), ...(type === 3 ? [...le16(value), 0, 0] : le32(value)));
  ifd.push(...le32(0));
  return new Uint8Array([0x49, 0x49, 42, 0, ...le32(8), ...ifd, 0x80, 0x80, 0x80]);
}

/** Replaces the height and width of the first SOFn marker of a JPEG (the frame it declares). */
export function jpegDeclaring(jpeg: Uint8Array, w: number, h: number, keep = jpeg.length): Uint8Array {
  const out = Uint8Array.from(jpeg.subarray(0, keep));
  for (let i = 2; i + 9 < out.length; ) {
    if (out[i] !== 0xff) break;
    const marker = out[i + 1]!;
    const len = (out[i + 2]! << 8) | out[i + 3]!;
    if (marker >= 0xc0 && marker <= 0xc2) {
      out.set([(h >> 8) & 255, h & 255, (w >> 8) & 255, w & 255], i + 5);
      return out;
    }
    i += 2 + len;
  }
  throw new Error("no SOF marker");
}

/**
 * An SVG whose <use> references multiply: each of `levels` groups uses the one before `fan` times,
 * so it draws fan^levels rectangles from a file of a few kilobytes.
 */
export function svgUseBomb(levels = 8, fan = 10): string {
  let s =
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><rect id="l0" width="1" height="1"/>';
  for (let i = 1; i < levels; i++) s += `<g id="l${i}">${`<use xlink:href="#l${i - 1}"/>`.repeat(fan)}</g>`;
  return `${s}</defs><use xlink:href="#l${levels - 1}"/></svg>`;
}

/** Replaces the size an AVIF's `ispe` box declares (the decoder finds the AV1 frame smaller and stops). */
export function avifDeclaring(avif: Uint8Array, w: number, h: number): Uint8Array {
  const out = Uint8Array.from(avif);
  const at = Buffer.from(out).indexOf("ispe");
  if (at < 0) throw new Error("no ispe box");
  const view = new DataView(out.buffer);
  view.setUint32(at + 8, w);
  view.setUint32(at + 12, h);
  return out;
}

/** One file of every kind the issue's bad-input list names (declared sizes at and past the limits, truncated, many frames, bombs), by name. */
export async function everyKindOfBadInput(): Promise<[string, Uint8Array | string][]> {
  const { default: sharp } = await import("sharp");
  const { jpeg1600 } = await import("./fixtures.ts");
  const grey = () => sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } });
  const jpeg = new Uint8Array(await grey().jpeg().toBuffer());
  const progressive = new Uint8Array(await grey().jpeg({ progressive: true }).toBuffer());
  const avif = new Uint8Array(await grey().avif({ effort: 0 }).toBuffer());
  return [
    ["gif.gif", gifBomb(9999, 10000)],
    ["frames.gif", gifFrames(100, 100, 20000)],
    ["cut.jpg", jpegDeclaring(jpeg, 10000, 10000, 300)],
    ["progressive.jpg", jpegDeclaring(progressive, 10000, 10000)],
    ["cut.png", pngDeclaring(10000, 10000)],
    ["interlaced.png", pngDeclaring(10000, 10000, { interlace: true })],
    ["ztxt.png", pngZtxtBomb()],
    ["apng.png", apng(5000)],
    ["canvas.webp", animatedWebp(10000, 10000, 5000)],
    ["frames.webp", animatedWebp(100, 100, 5000)],
    ["big.avif", avifDeclaring(avif, 10000, 10000)],
    ["avif.avif", avifDeclaring(avif, 5000, 5000)],
    ["strip.tiff", tiffDeclaring(10000, 10000)],
    ["use.svg", svgUseBomb(8, 10)],
    ["photo.jpg", await jpeg1600()],
  ];
}
