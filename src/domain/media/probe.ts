// Facts about an image read with sharp: its upright width and height (EXIF orientation applied)
// and a ThumbHash placeholder. The pixel count is checked from the header before any pixel is
// decoded, so a decompression bomb (a tiny PNG declaring 50,000 x 50,000) costs nothing.
// Audio and video get their duration from the container's headers (music-metadata, told not to
// scan the whole file), where it is cheap; a file whose headers say nothing keeps a null duration.
import { readFile } from "node:fs/promises";
import { rgbaToThumbHash } from "thumbhash";
import { AppError } from "../../errors.ts";
import type { Sniffed } from "./sniff.ts";

/** The default of CAPA_MEDIA_MAX_PIXELS: 100 megapixels (for example 12,000 x 8,333). */
export const DEFAULT_MAX_PIXELS = 100_000_000;
/** ThumbHash wants images of at most 100 x 100. */
const THUMB_SIDE = 100;
/** SVGs larger than this are stored without dimensions rather than read into memory. */
const MAX_SVG_PROBE_BYTES = 10 * 1024 * 1024;

/** The image formats sharp decodes here; other image/* types are stored without dimensions. */
export const SHARP_INPUTS = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/tiff", "image/svg+xml"]);

/** What probing found; nulls where a kind has no such fact. */
export interface Probed {
  width: number | null;
  height: number | null;
  duration: number | null;
  placeholder: string | null;
}

/** Probes a stored or temp file of a sniffed type; throws image_too_large or image_unreadable. */
export async function probeFile(path: string, sniffed: Sniffed, opts: { maxPixels: number; label?: string }): Promise<Probed> {
  const none: Probed = { width: null, height: null, duration: null, placeholder: null };
  if (sniffed.kind === "audio" || sniffed.kind === "video") return { ...none, duration: await probeDuration(path, sniffed.mimeType) };
  if (sniffed.kind !== "image" || !SHARP_INPUTS.has(sniffed.mimeType)) return none;
  const label = opts.label ?? "the file";
  let input: string | Buffer = path;
  if (sniffed.mimeType === "image/svg+xml") {
    // An SVG is read from memory so librsvg has no base directory to resolve relative references in.
    const file = Bun.file(path);
    if (file.size > MAX_SVG_PROBE_BYTES) return none;
    input = await readFile(path);
  }
  try {
    // Loaded on first use, as in render.ts: libvips is not needed until an image arrives.
    const { default: sharp } = await import("sharp");
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error("no dimensions");
    if (width * height > opts.maxPixels) throw tooLarge(label, width, height, opts.maxPixels);
    const { data, info } = await sharp(input, { limitInputPixels: opts.maxPixels, autoOrient: true })
      .resize(THUMB_SIDE, THUMB_SIDE, { fit: "inside" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const hash = rgbaToThumbHash(info.width, info.height, data);
    return { width, height, duration: null, placeholder: Buffer.from(hash).toString("base64") };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (/pixel limit/i.test(String(err))) throw tooLarge(label, null, null, opts.maxPixels);
    throw new AppError("image_unreadable", {
      message: `${capital(label)} is marked as ${sniffed.mimeType} but cannot be decoded.`,
      param: "file",
      extra: { field: "file" },
    });
  }
}

/** Seconds (to the millisecond) from the container's headers, or null when they do not say. */
export async function probeDuration(path: string, mimeType: string): Promise<number | null> {
  try {
    // A Blob of the file is read lazily by range; its type (sniffed, not the name) picks the parser.
    // Loaded on the first audio or video file: 40-odd modules an idle server does not need.
    const { parseBlob } = await import("music-metadata");
    const { format } = await parseBlob(Bun.file(path, { type: mimeType }), { duration: false, skipCovers: true, skipPostHeaders: true });
    const seconds = format.duration ?? Math.max(0, ...format.trackInfo.map((t) => (t as { duration?: number }).duration ?? 0));
    return seconds > 0 && Number.isFinite(seconds) ? Math.round(seconds * 1000) / 1000 : null;
  } catch {
    // A duration is a nicety: a container music-metadata cannot read is stored without one.
    return null;
  }
}

function tooLarge(label: string, width: number | null, height: number | null, limit: number): AppError {
  const dims = width && height ? ` (${width} x ${height} = ${width * height} pixels)` : "";
  return new AppError("image_too_large", {
    message: `${capital(label)} declares more pixels${dims} than the limit of ${limit}.`,
    param: "file",
    extra: { field: "file", limit },
  });
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
