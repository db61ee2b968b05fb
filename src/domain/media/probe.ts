// Facts about an image read with sharp: its upright width and height (EXIF orientation applied)
// and a ThumbHash placeholder. Everything that decodes runs in the render queue (issue 24): first
// the header alone, as a small job, which decides; then, if it is cheap, the placeholder.
// - More pixels than CAPA_MEDIA_MAX_PIXELS, or a decode that would hold more than one decode may
//   (a GIF, AVIF, progressive JPEG or interlaced PNG is decoded whole; decode-cost.ts), is refused
//   with image_too_large from the header, before any pixel is decoded.
// - The placeholder comes from a decode that shrinks on load or holds a small frame; a file
//   whose frame would be larger gets none (a 35-byte GIF declaring 10,000 x 10,000 is stored
//   without one rather than costing 440 MB).
// - An SVG is read by svg-guard.ts before librsvg sees it, and from memory, so librsvg has no
//   folder to resolve relative references in.
// Audio and video get their duration from the container's headers (music-metadata, told not to
// scan the whole file), where it is cheap; a file whose headers say nothing keeps a null duration.
import { readFile } from "node:fs/promises";
import { rgbaToThumbHash } from "thumbhash";
import { AppError } from "../../errors.ts";
import type { RenderQueue } from "../../infra/render-queue.ts";
import { capital, checkDecode, decodeBytes, factsOf, frameBytes, HEADER_BYTES, type ImageFacts } from "./decode-cost.ts";
import { loadSharp } from "./sharp.ts";
import type { Sniffed } from "./sniff.ts";
import { guardSvg } from "./svg-guard.ts";

/** The default of CAPA_MEDIA_MAX_PIXELS: 100 megapixels (for example 12,000 x 8,333). */
export const DEFAULT_MAX_PIXELS = 100_000_000;
/** ThumbHash wants images of at most 100 x 100. */
const THUMB_SIDE = 100;
/** SVGs larger than this are stored without dimensions rather than read into memory. */
const MAX_SVG_PROBE_BYTES = 10 * 1024 * 1024;
/** What librsvg holds per byte of an SVG while it reads and draws it (measured 15 to 17; docs/performance.md). */
const SVG_DOM_FACTOR = 20;
/** The largest whole frame a placeholder is decoded from (a GIF of 3.7 megapixels; JPEG and PNG mostly stream). */
export const PLACEHOLDER_FRAME_BYTES = 16 * 1024 * 1024;

/** The image formats sharp decodes here; other image/* types are stored without dimensions. */
export const SHARP_INPUTS = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/tiff", "image/svg+xml"]);

/** What probing found; nulls where a kind has no such fact. */
export interface Probed {
  width: number | null;
  height: number | null;
  duration: number | null;
  placeholder: string | null;
}

/** How a file is probed: the pixel limit, the queue its decodes run in and on whose behalf. */
export interface ProbeOptions {
  /** CAPA_MEDIA_MAX_PIXELS. */
  maxPixels: number;
  queue: RenderQueue;
  /** Who uploads (a user or key id): the queue is fair between clients. */
  client: string;
  /** Names the file in messages, e.g. `file part 1 ("a.png")`. */
  label?: string;
}

/** Probes a stored or temp file of a sniffed type; throws image_too_large, image_too_complex or image_unreadable. */
export async function probeFile(path: string, sniffed: Sniffed, opts: ProbeOptions): Promise<Probed> {
  const none: Probed = { width: null, height: null, duration: null, placeholder: null };
  if (sniffed.kind === "audio" || sniffed.kind === "video") return { ...none, duration: await probeDuration(path, sniffed.mimeType) };
  if (sniffed.kind !== "image" || !SHARP_INPUTS.has(sniffed.mimeType)) return none;
  const label = opts.label ?? "the file";
  let input: string | Buffer = path;
  if (sniffed.mimeType === "image/svg+xml") {
    if (Bun.file(path).size > MAX_SVG_PROBE_BYTES) return none;
    input = await readFile(path);
  }
  const unreadable = () =>
    new AppError("image_unreadable", {
      message: `${capital(label)} is marked as ${sniffed.mimeType} but cannot be decoded.`,
      param: "file",
      extra: { field: "file" },
    });
  const sharp = await loadSharp();
  const kind = sniffed.mimeType;
  // librsvg holds the whole document, about 17 times the file's size (a 6.4 MB drawing: 111 MB).
  const dom = typeof input === "string" ? 0 : input.byteLength * SVG_DOM_FACTOR;
  // The header (and an SVG's guard) first: no pixel is decoded yet.
  const facts = await opts.queue.run({ client: opts.client, pixels: 0, bytes: HEADER_BYTES + dom, kind: `probe:${kind}` }, async () => {
    if (typeof input !== "string" && kind === "image/svg+xml") await guardSvg(input.toString("utf8"), label);
    const meta = await sharp(input, { limitInputPixels: false })
      .metadata()
      .catch(() => null);
    return meta && factsOf(meta);
  });
  if (facts === null) throw unreadable();
  if (facts.width * facts.height > opts.maxPixels) throw tooLarge(label, facts.width, facts.height, opts.maxPixels);
  checkDecode(facts, opts.queue.decodeLimit, label);
  return { width: facts.width, height: facts.height, duration: null, placeholder: await placeholder(input, facts, opts, dom, unreadable) };
}

/** A ThumbHash from an RGBA copy of at most 100 x 100, or null when the decode would hold too large a frame. */
async function placeholder(input: string | Buffer, facts: ImageFacts, opts: ProbeOptions, dom: number, unreadable: () => AppError): Promise<string | null> {
  if (frameBytes(facts) > PLACEHOLDER_FRAME_BYTES) return null;
  const bytes = decodeBytes(facts) + dom;
  const sharp = await loadSharp();
  const pixels = facts.width * facts.height;
  try {
    const { data, info } = await opts.queue.run({ client: opts.client, pixels, bytes, kind: `placeholder:${facts.format}` }, () =>
      sharp(input, { limitInputPixels: opts.maxPixels, autoOrient: true })
        .resize(THUMB_SIDE, THUMB_SIDE, { fit: "inside" })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
  } catch (err) {
    if (/pixel limit/i.test(String(err))) throw tooLarge(opts.label ?? "the file", null, null, opts.maxPixels);
    throw unreadable();
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
