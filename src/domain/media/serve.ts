// The public file URL (decisions.md section 10): `GET|HEAD /media/<projectId>/<mediaId>/<filename>`
// answered from the store or, with transform parameters, from the variant cache. Answers are
// immutable (a replaced file gets a new id, so a new URL) with a strong ETag, 304 on a matching
// If-None-Match, single byte ranges for every kind, and `nosniff`. Only kinds a browser shows
// without running script on our origin are sent inline; SVG, HTML, XML, unknown bytes and every other type
// go as attachments with `Content-Security-Policy: sandbox`, so an upload never scripts our origin.
// Errors are thrown as AppErrors (invalid_transform, transform_rate_limited,
// range_not_satisfiable, not_found) for the route to render in the /api envelope.
import { AppError } from "../../errors.ts";
import type { ByteRange, MediaStore } from "../../infra/media-store/types.ts";
import { contentDisposition } from "./filename.ts";
import { SHARP_INPUTS } from "./probe.ts";
import { FORMAT_MIME, parseTransform, resolveTransform, variantKey } from "./transform.ts";
import type { ServableMedia } from "./types.ts";
import { isThumbnail } from "./thumbnails.ts";
import type { VariantService } from "./variants.ts";

/** One year, immutable: the URL of a file's bytes never shows other bytes. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

// Shown inline: raster images, audio, video, PDF and plain text. Everything else is an attachment.
const INLINE = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "application/pdf", "text/plain"]);

/** Whether a MIME type may be shown inline on our origin. */
export function inlineSafe(mimeType: string): boolean {
  return INLINE.has(mimeType) || mimeType.startsWith("audio/") || mimeType.startsWith("video/");
}

/** What serving needs beyond the file: the variant maker and who is asking (for its limit). */
export interface ServeOptions {
  variants?: VariantService;
  /** The client of the per-client limit on new variants (e.g. the IP); default "anonymous". */
  client?: string;
}

/** Answers a GET or HEAD of a file URL; the query, if any, is a transform. */
export async function serveMedia(request: Request, media: ServableMedia, store: MediaStore, opts: ServeOptions = {}): Promise<Response> {
  // Most requests carry no query: skip parsing the URL for them.
  const q = request.url.indexOf("?");
  const params = q === -1 ? null : new URLSearchParams(request.url.slice(q + 1));
  const transform = params === null ? null : parseTransform(params);
  if (transform === null) {
    const inline = inlineSafe(media.mimeType);
    return answer(request, {
      size: media.size,
      etag: `"${media.checksum}"`,
      contentType: media.mimeType === "text/plain" ? "text/plain; charset=utf-8" : media.mimeType,
      disposition: contentDisposition(inline ? "inline" : "attachment", media.filename),
      sandbox: !inline,
      vary: false,
      open: async (range) => {
        const body = await store.get(media.storageKey, range);
        if (body === null) throw new AppError("not_found", { message: "The file's bytes are missing from the media store." });
        return body;
      },
    });
  }
  if (media.kind !== "image" || !SHARP_INPUTS.has(media.mimeType) || media.mimeType === "image/svg+xml") {
    const first = [...params!.keys()][0]!;
    throw new AppError("invalid_transform", { message: `Transforms apply to raster images only; this file is ${media.mimeType}.`, param: first });
  }
  if (!opts.variants) throw new Error("serveMedia: a transform needs a VariantService");
  const t = resolveTransform(transform, request.headers.get("accept"), media.mimeType);
  const etag = `"${media.checksum.slice(0, 32)}-${variantKey(t)}"`;
  // A revalidation needs no render: the ETag is known from the URL alone.
  if (notModified(request, etag)) return new Response(null, { status: 304, headers: baseHeaders(etag, t.negotiated) });
  const v = await opts.variants.get(media, store, t, opts.client ?? "anonymous", { exempt: isThumbnail(transform) });
  const stem = media.filename.replace(/\.[^.]*$/, "") || "image";
  return answer(request, {
    size: v.size,
    etag,
    contentType: FORMAT_MIME[t.format],
    disposition: contentDisposition("inline", `${stem}.${t.format}`),
    sandbox: false,
    vary: t.negotiated,
    open: async (range) => {
      const whole = "path" in v ? Bun.file(v.path) : new Blob([v.data as Uint8Array<ArrayBuffer>]);
      return range ? whole.slice(range.start, range.end + 1) : whole;
    },
  });
}

interface Answer {
  size: number;
  etag: string;
  contentType: string;
  disposition: string;
  sandbox: boolean;
  vary: boolean;
  open(range?: ByteRange): Promise<Blob | ReadableStream<Uint8Array>>;
}

function baseHeaders(etag: string, vary: boolean): Headers {
  // Public files are readable from any page (decisions.md 12): an <img crossorigin> can be drawn
  // into a canvas and read back. No credentials are involved, so `*` is exact.
  const h = new Headers({
    etag,
    "cache-control": IMMUTABLE,
    "x-content-type-options": "nosniff",
    "accept-ranges": "bytes",
    "access-control-allow-origin": "*",
  });
  if (vary) h.set("vary", "Accept");
  return h;
}

/** True when If-None-Match names this ETag (weak comparison, as RFC 9110 asks for this header) or is `*`. */
export function notModified(request: Request, etag: string): boolean {
  const inm = request.headers.get("if-none-match");
  if (!inm) return false;
  if (inm.trim() === "*") return true;
  return inm.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** Parses a single `bytes=` range against a size: the range, `unsatisfiable`, or null to ignore it. */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  // Several ranges (multipart/byteranges) and malformed values are ignored: the whole file is sent.
  const m = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

async function answer(request: Request, a: Answer): Promise<Response> {
  const headers = baseHeaders(a.etag, a.vary);
  if (notModified(request, a.etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", a.contentType);
  headers.set("content-disposition", a.disposition);
  if (a.sandbox) headers.set("content-security-policy", "sandbox");
  const ifRange = request.headers.get("if-range");
  const range = ifRange === null || ifRange.trim() === a.etag ? parseRange(request.headers.get("range"), a.size) : null;
  if (range === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", {
      message: `The range is outside the file's ${a.size} bytes.`,
      headers: { "content-range": `bytes */${a.size}` },
    });
  }
  const head = request.method === "HEAD";
  if (range) {
    headers.set("content-range", `bytes ${range.start}-${range.end}/${a.size}`);
    headers.set("content-length", String(range.end - range.start + 1));
    return new Response(head ? null : await a.open(range), { status: 206, headers });
  }
  headers.set("content-length", String(a.size));
  return new Response(head ? null : await a.open(), { status: 200, headers });
}
