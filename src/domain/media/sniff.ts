// The kind and MIME type of a file, from its bytes alone (decisions.md section 10): never from the
// client's name or Content-Type. Binary formats come from file-type's magic numbers; text formats
// (which have none) from a look at the first bytes, after the WHATWG MIME sniffing standard's
// idea: HTML and SVG are recognised so they can be served as attachments, never inline.
import { open } from "node:fs/promises";
import type { MediaKind } from "./types.ts";

/** What the bytes are. */
export interface Sniffed {
  kind: MediaKind;
  mimeType: string;
}

/** How many leading bytes the text sniffing reads. */
const TEXT_SNIFF_BYTES = 8192;

// Office and e-book containers file-type names: documents, though they are zip files inside.
const DOCUMENT_MIMES = new Set([
  "application/rtf",
  "application/epub+zip",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/x-cfb",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
]);

/** The MediaKind of a sniffed MIME type. */
export function kindOf(mimeType: string): MediaKind {
  if (mimeType === "application/octet-stream") return "unknown";
  if (mimeType === "application/pdf") return "pdf";
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.startsWith("video/")) return "video";
  if (mimeType.startsWith("audio/")) return "audio";
  if (mimeType.startsWith("text/") || DOCUMENT_MIMES.has(mimeType) || mimeType === "application/xml") return "document";
  return "file";
}

/** Sniffs a file on disk: file-type first, then the text formats, else `unknown`. */
export async function sniffFile(path: string): Promise<Sniffed> {
  // Loaded on the first upload, not at start: it costs an idle server about 10 MB (docs/performance.md).
  const { fileTypeFromFile } = await import("file-type");
  const found = await fileTypeFromFile(path);
  // file-type names any XML document application/xml; an SVG is one, and must be known as such.
  if (found && found.mime !== "application/xml") return { kind: kindOf(found.mime), mimeType: found.mime };
  const mimeType = sniffText(await head(path, TEXT_SNIFF_BYTES));
  return { kind: kindOf(mimeType), mimeType };
}

async function head(path: string, n: number): Promise<Uint8Array> {
  const fh = await open(path, "r");
  try {
    const buf = new Uint8Array(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

// The tags the WHATWG sniffing algorithm takes as the start of an HTML document.
const HTML_START = /^<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>]/i;

/** The MIME type of bytes file-type does not know: SVG, HTML, XML, plain text, or octet-stream. */
export function sniffText(bytes: Uint8Array): string {
  if (bytes.includes(0)) return "application/octet-stream";
  let text: string;
  try {
    // stream: true tolerates a character cut in half at the end of the sample.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
  } catch {
    return "application/octet-stream";
  }
  const start = text.replace(/^\s+/, "");
  const lower = start.slice(0, 1024).toLowerCase();
  if (
    lower.startsWith("<svg") ||
    lower.startsWith("<!doctype svg") ||
    ((lower.startsWith("<?xml") || lower.startsWith("<!--")) && /<svg[\s>]/.test(text.toLowerCase()))
  ) {
    return "image/svg+xml";
  }
  if (HTML_START.test(start)) return "text/html";
  if (lower.startsWith("<?xml")) return "application/xml";
  return "text/plain";
}
