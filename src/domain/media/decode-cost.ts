// What decoding an image costs in memory, from its header alone (issue 24). Some decoders stream
// rows and hold little whatever the size (baseline JPEG, which also shrinks on load; plain PNG;
// still WebP); others hold the whole frame before the first row comes out. The figures are what
// one decode of a 10,000 x 10,000 image grew a fresh process's RSS by (sharp 0.35, libvips 8.18,
// Bun 1.4, linux/x64; docs/performance.md, "Image decodes under a budget"), rounded up:
//   GIF 440 MB (the decoder renders whole RGBA frames), animated WebP 467 MB (every frame is
//   composed on the whole canvas), AVIF 1,842 MB (libheif's planes plus the RGB copy), progressive
//   JPEG with 4:2:0 chroma 306 MB (the coefficients of every block, kept for the last scan),
//   interlaced PNG 320 MB for RGB (Adam7 passes need the whole image);
//   plain PNG, TIFF in strips, baseline JPEG and still WebP 7 to 55 MB: a working set of row
//   buffers that grows with the width (13 MB at 2,000 px wide, 31 at 10,000, 54 at 20,000).
// TIFF is charged its whole frame all the same: its compressions are too many to have measured.
import type { Metadata } from "sharp";
import { AppError } from "../../errors.ts";
import type { Format, ResolvedTransform } from "./transform.ts";

const MIB = 1024 * 1024;
/** Memory any decode takes besides a whole frame: row buffers and resizing, by the width (rounded up from the figures above). */
export function workingBytes(width: number): number {
  return 8 * MIB + width * 5 * 1024;
}

/** What reading a header holds: no pixels, only the decoder's state. */
export const HEADER_BYTES = 8 * MIB;

/** What an image's header says that decides the cost of decoding it. */
export interface ImageFacts {
  /** sharp's name of the format: jpeg, png, gif, webp, heif, tiff, svg. */
  format: string;
  /** Upright (EXIF orientation applied). */
  width: number;
  height: number;
  /** The width of the rows as stored (before orientation), which the working set grows with. */
  rowWidth: number;
  /** Frames or pages (1 for a still image). */
  pages: number;
  /** A progressive JPEG or an interlaced PNG. */
  progressive: boolean;
  channels: number;
  bytesPerSample: number;
  /** JPEG chroma subsampling (`4:2:0`, `4:4:4`, ...), when stated. */
  chroma: string | null;
}

const SAMPLE_BYTES: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, double: 8 };

/** The facts of sharp's metadata, or null when it states no size. */
export function factsOf(meta: Metadata): ImageFacts | null {
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) return null;
  return {
    format: meta.format ?? "unknown",
    width,
    height,
    rowWidth: meta.width ?? width,
    pages: meta.pages ?? 1,
    progressive: meta.isProgressive === true,
    channels: meta.channels ?? 4,
    bytesPerSample: SAMPLE_BYTES[meta.depth ?? "uchar"] ?? 1,
    chroma: meta.chromaSubsampling ?? null,
  };
}

/** Bytes per pixel of the whole frame a decode of these facts holds; 0 when the decoder streams rows. */
export function frameBytesPerPixel(f: ImageFacts): number {
  switch (f.format) {
    case "gif":
      return 4.5;
    case "webp":
      return f.pages > 1 ? 4.8 : 0;
    case "heif":
      // Measured for 8 bits; deeper samples are taken to double it.
      return 19 * f.bytesPerSample;
    case "jpeg":
      // Two bytes per coefficient: 3 per pixel with 4:2:0 chroma, 2 per channel without subsampling.
      if (!f.progressive) return 0;
      return f.chroma === "4:2:0" ? 3.3 : 2.2 * f.channels;
    case "png":
      return f.progressive ? 1.1 * f.channels * f.bytesPerSample : 0;
    case "tiff":
      return 1.1 * f.channels * f.bytesPerSample;
    default:
      // SVG is drawn at the size asked for; its cost is in what it draws (svg-guard.ts).
      return 0;
  }
}

/**
 * The most a decode of a file of this MIME type can hold per pixel, before its header is read:
 * the largest frameBytesPerPixel of the type (16-bit AVIF; CMYK progressive JPEG; 16-bit RGBA
 * interlaced PNG; 32-bit float RGBA TIFF, which also covers any other type).
 */
export function worstBytesPerPixel(mimeType: string): number {
  return ({ "image/gif": 4.5, "image/webp": 4.8, "image/avif": 38, "image/jpeg": 8.8, "image/png": 8.8 } as Record<string, number>)[mimeType] ?? 17.6;
}

/** The whole frame a decode of these facts holds (0 when it streams rows). */
export function frameBytes(f: ImageFacts): number {
  return Math.ceil(f.width * f.height * frameBytesPerPixel(f));
}

/** Memory of a decode of these facts at full size: the whole frame, if one is held, and the working set. */
export function decodeBytes(f: ImageFacts): number {
  return workingBytes(f.rowWidth) + frameBytes(f);
}

// Bytes per output pixel the encoders held at 4096 x 4096 (AVIF 377 MB at effort 2, JPEG 146,
// WebP 113, PNG 49), less nothing: they stand in for the working set of a render's far side.
const OUTPUT_BYTES_PER_PIXEL: Record<Format, number> = { avif: 23, jpg: 9, webp: 7, png: 3 };

/** The pixels a variant of a source of `width` x `height` comes out at, at most (nothing is enlarged). */
export function outputPixels(width: number, height: number, t: ResolvedTransform): number {
  const source = width * height;
  if (t.width === null && t.height === null) return source;
  if (t.width !== null && t.height !== null) return t.fit === "outside" ? source : Math.min(source, t.width * t.height);
  const scale = t.width !== null ? t.width / width : t.height! / height;
  return Math.min(source, Math.ceil(source * scale * scale));
}

/** Memory a render of `t` holds: the decode, and the encoder's share of the output. */
export function renderBytes(f: ImageFacts, t: ResolvedTransform): number {
  return decodeBytes(f) + Math.ceil(outputPixels(f.width, f.height, t) * OUTPUT_BYTES_PER_PIXEL[t.format]);
}

/** The most a render of `t` of a `mimeType` file of `width` x `height` can hold: what the queue reserves before the header is read. */
export function worstRenderBytes(mimeType: string, width: number, height: number, t: ResolvedTransform): number {
  const frame = Math.ceil(width * height * worstBytesPerPixel(mimeType));
  // The record's size is upright: the rows as stored may be either side.
  return workingBytes(Math.max(width, height)) + frame + Math.ceil(outputPixels(width, height, t) * OUTPUT_BYTES_PER_PIXEL[t.format]);
}

const FORMAT_NAMES: Record<string, string> = { gif: "GIF", webp: "animated WebP", heif: "AVIF", jpeg: "progressive JPEG", png: "interlaced PNG", tiff: "TIFF" };

/**
 * Refuses an upload whose decode would hold more than one decode may (`limitBytes`), naming the
 * limit in pixels for its format (image_too_large, as the pixel limit does): checked from the
 * header, before anything is decoded.
 */
export function checkDecode(f: ImageFacts, limitBytes: number, label: string): void {
  const need = decodeBytes(f);
  if (need <= limitBytes) return;
  const perPixel = frameBytesPerPixel(f);
  const limit = Math.max(0, Math.floor((limitBytes - workingBytes(f.rowWidth)) / perPixel));
  const name = FORMAT_NAMES[f.format] ?? f.format.toUpperCase();
  throw new AppError("image_too_large", {
    message:
      `${capital(label)} is ${/^[aeiou]/i.test(name) ? "an" : "a"} ${name} of ${f.width} x ${f.height} pixels, which is decoded whole (about ${need} bytes); ` +
      `one decode may use ${limitBytes} bytes on this server (half of CAPA_MEDIA_DECODE_BUDGET), so the limit for such a file is ${limit} pixels.`,
    param: "file",
    extra: { field: "file", limit },
  });
}

/** What to do about a variant too large to render. */
export const RENDER_HINT = "Ask for a smaller w or h, or another fm (AVIF takes the most memory to encode, PNG the least).";

/** Refuses a render that would hold more than one decode may, before it decodes (image_too_large). */
export function checkRender(f: ImageFacts, t: ResolvedTransform, limitBytes: number): number {
  const need = renderBytes(f, t);
  if (need > limitBytes) {
    throw new AppError("image_too_large", {
      message: `This variant of a ${f.width} x ${f.height} image needs about ${need} bytes of memory; one render may use ${limitBytes} bytes on this server (half of CAPA_MEDIA_DECODE_BUDGET).`,
      hint: RENDER_HINT,
    });
  }
  return need;
}

/** Upper-cases the first letter. */
export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
