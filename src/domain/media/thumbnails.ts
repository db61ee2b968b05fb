// The media grid's thumbnails (issue 27, media library): two fixed variants of every raster image,
// 160 and 320 pixels wide in WebP (`?w=160&fm=webp`, `?w=320&fm=webp`: 1x and 2x of a 160 px
// tile). They are exempt from the per-client bucket of new variants and wait their turn in the
// render queue instead of being refused, since a grid of fresh uploads asks for dozens at once
// and each is made only once per file (their number is bounded by the library, not the client).
// `GET /v2/media?thumbnails=true` answers each image with its thumbnail URLs and starts the
// renders the page still needs, so the grid's requests find them made or join them in flight.
import type { MediaStore } from "../../infra/media-store/types.ts";
import { SHARP_INPUTS } from "./probe.ts";
import type { MediaRow } from "./records.ts";
import { resolveTransform, type Transform } from "./transform.ts";
import type { ServableMedia } from "./types.ts";
import { fileSegment, mediaUrl } from "./url.ts";
import type { VariantService } from "./variants.ts";

/** The widths of the grid's thumbnails. */
export const THUMB_WIDTHS = [160, 320] as const;

/** A record's thumbnail as the list gives it: the 1x URL, and a srcset with the 2x one. */
export interface Thumbnail {
  url: string;
  srcset: string;
}

/** Whether a file has thumbnails: a raster image the transforms take (never SVG). */
export function hasThumbnails(m: { kind: string; mimeType: string }): boolean {
  return m.kind === "image" && SHARP_INPUTS.has(m.mimeType) && m.mimeType !== "image/svg+xml";
}

/** Whether a file URL's transform is exactly one of the thumbnails (and so exempt from the bucket). */
export function isThumbnail(t: Transform): boolean {
  return (THUMB_WIDTHS as readonly number[]).includes(t.w ?? -1) && t.fm === "webp" && t.h === null && t.fit === null && t.q === null && t.dpr === null;
}

const thumbTransform = (w: number): Transform => ({ w, h: null, fit: null, fm: "webp", q: null, dpr: null });

/** The thumbnail URLs of a row, or null when it has none. */
export function thumbnailOf(base: string, projectId: string, row: MediaRow): Thumbnail | null {
  if (!hasThumbnails(row)) return null;
  const urls = THUMB_WIDTHS.map((w) => mediaUrl(base, projectId, fileSegment(row.id, row.revision), row.filename, { w, fm: "webp" }));
  return { url: urls[0]!, srcset: urls.map((u, i) => `${u} ${THUMB_WIDTHS[i]}w`).join(", ") };
}

/**
 * Starts the thumbnails a page of the library still needs (without waiting for them): made ones
 * cost a cache lookup, ones in flight are joined. `client` is who listed, for the queue's fairness.
 */
export function warmThumbnails(variants: VariantService, store: MediaStore, files: ServableMedia[], client: string, onError: (e: unknown) => void): void {
  for (const f of files) {
    if (!hasThumbnails(f)) continue;
    for (const w of THUMB_WIDTHS) {
      variants.get(f, store, resolveTransform(thumbTransform(w), null, f.mimeType), client, { exempt: true }).catch(onError);
    }
  }
}
