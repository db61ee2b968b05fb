// The public file URL, both ways: built for records and entry reads (`url`, GraphQL
// `Media.url(transform:)`), and taken apart for the route, which refuses any path whose ids could
// name something outside the store (traversal, encoded dots, extra segments).
import { filenameProblem } from "./filename.ts";
import { type Fit, type Format, parseTransform } from "./transform.ts";

/** A transform as GraphQL's `transform:` argument or a caller spells it; every key optional. */
export interface TransformInput {
  w?: number | null;
  h?: number | null;
  fit?: Fit | null;
  fm?: Format | "auto" | null;
  q?: number | null;
  dpr?: number | null;
}

const ORDER = ["w", "h", "fit", "fm", "q", "dpr"] as const;
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The middle segment of a file's URL: its id, with `_<revision>` once its bytes were replaced, so
 * a replaced file gets a new URL and the old one (cached as immutable anywhere) never shows other bytes.
 */
export function fileSegment(mediaId: string, revision: number): string {
  return revision > 0 ? `${mediaId}_${revision}` : mediaId;
}

/** The id and revision a URL's middle segment names. */
export function parseFileSegment(segment: string): { mediaId: string; revision: number } {
  const m = /^(.+)_(\d{1,9})$/.exec(segment);
  return m ? { mediaId: m[1]!, revision: Number(m[2]) } : { mediaId: segment, revision: 0 };
}

/** `<base>/media/<projectId>/<mediaId>/<filename>[?transform]`; throws invalid_transform for a bad transform. */
export function mediaUrl(base: string, projectId: string, mediaId: string, filename: string, transform?: TransformInput | null): string {
  const path = `${base.replace(/\/+$/, "")}/media/${encodeURIComponent(projectId)}/${encodeURIComponent(mediaId)}/${encodeURIComponent(filename)}`;
  return withTransform(path, transform);
}

/**
 * A file URL with a transform's query (GraphQL `Media.url(transform:)`); a URL that is not one of
 * our file URLs (an old full object's own URL) is returned as it is, since no transform applies.
 */
export function transformedUrl(url: string, transform?: TransformInput | null): string {
  if (!transform) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.search !== "" || parseMediaPath(parsed.pathname.replace(/^.*(?=\/media\/[^/]+\/[^/]+\/[^/]+$)/, "")) === null) return url;
  return withTransform(url, transform);
}

function withTransform(path: string, transform?: TransformInput | null): string {
  if (!transform) return path;
  const params = new URLSearchParams();
  for (const k of ORDER) {
    const v = transform[k];
    if (v !== undefined && v !== null) params.set(k, String(v));
  }
  // The same grammar as the URL itself, so a transform the route would refuse is refused here too.
  parseTransform(params);
  const q = params.toString();
  return q ? `${path}?${q}` : path;
}

/** The parts of a file URL's path, or null when it is not one (the route answers 404). */
export function parseMediaPath(pathname: string): { projectId: string; mediaId: string; filename: string } | null {
  const m = /^\/media\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(pathname);
  if (!m) return null;
  let parts: string[];
  try {
    parts = [m[1]!, m[2]!, m[3]!].map(decodeURIComponent);
  } catch {
    return null;
  }
  const [projectId, mediaId, filename] = parts as [string, string, string];
  if (!ID.test(projectId) || !ID.test(mediaId) || filenameProblem(filename) !== null) return null;
  return { projectId, mediaId, filename };
}
