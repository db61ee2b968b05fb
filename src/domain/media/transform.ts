// The image transform grammar of the public file URL (decisions.md section 10): parsed once into a
// typed value, refused parameter by parameter with `invalid_transform`, then resolved against the
// request (device pixel ratio folded into pixels, `fm=auto` chosen from Accept) into the exact
// variant to make, whose canonical key names it in the variant cache.
import { AppError } from "../../errors.ts";

/** How an image fits a box of both sides (sharp's fit modes). */
export type Fit = "cover" | "contain" | "inside" | "outside" | "fill";
/** The output formats a variant may have. */
export type Format = "jpg" | "png" | "webp" | "avif";

/** The transform as the URL asked for it; null where a parameter was left out. */
export interface Transform {
  w: number | null;
  h: number | null;
  fit: Fit | null;
  fm: Format | "auto" | null;
  q: number | null;
  dpr: number | null;
}

/** The variant to make: exact pixels, fit, format and quality. */
export interface ResolvedTransform {
  width: number | null;
  height: number | null;
  /** Set only when both sides are: with one side the aspect ratio decides and fit means nothing. */
  fit: Fit | null;
  format: Format;
  /** null: the encoder's default (always null for png). */
  quality: number | null;
  /** True when the format came from Accept, so the answer must carry `Vary: Accept`. */
  negotiated: boolean;
}

/** The largest width or height asked for, and the largest made (after dpr). */
export const MAX_SIDE = 4096;
const FITS: readonly Fit[] = ["cover", "contain", "inside", "outside", "fill"];
const FORMATS: readonly (Format | "auto")[] = ["jpg", "png", "webp", "avif", "auto"];
const PARAMS = ["w", "h", "fit", "fm", "q", "dpr"] as const;

function refuse(param: string, message: string): never {
  throw new AppError("invalid_transform", { message, param });
}

function whole(param: string, raw: string, max: number): number {
  const n = /^[0-9]{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= max)) refuse(param, `${param} must be a whole number from 1 to ${max}, got ${JSON.stringify(raw)}.`);
  return n;
}

/** Parses the query of a file URL; null when it has no parameters (the original is wanted). */
export function parseTransform(params: URLSearchParams): Transform | null {
  const t: Transform = { w: null, h: null, fit: null, fm: null, q: null, dpr: null };
  let any = false;
  const seen = new Set<string>();
  for (const [name, raw] of params) {
    any = true;
    if (!(PARAMS as readonly string[]).includes(name)) refuse(name, `Unknown transform parameter ${JSON.stringify(name)}: use w, h, fit, fm, q or dpr.`);
    if (seen.has(name)) refuse(name, `The parameter ${name} is given twice.`);
    seen.add(name);
    switch (name) {
      case "w":
      case "h":
        t[name] = whole(name, raw, MAX_SIDE);
        break;
      case "q":
        t.q = whole(name, raw, 100);
        break;
      case "dpr": {
        const n = /^[1-3](\.[0-9])?$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(n >= 1 && n <= 3)) refuse(name, `dpr must be a number from 1 to 3 with at most one decimal, got ${JSON.stringify(raw)}.`);
        t.dpr = n;
        break;
      }
      case "fit":
        if (!(FITS as readonly string[]).includes(raw)) refuse(name, `fit must be one of ${FITS.join(", ")}, got ${JSON.stringify(raw)}.`);
        t.fit = raw as Fit;
        break;
      case "fm":
        if (!(FORMATS as readonly string[]).includes(raw)) refuse(name, `fm must be one of ${FORMATS.join(", ")}, got ${JSON.stringify(raw)}.`);
        t.fm = raw as Format | "auto";
        break;
    }
  }
  return any ? t : null;
}

/** The variant format of a source MIME type when no fm is asked: the same where possible, else png. */
export function formatOfSource(mimeType: string): Format {
  return ({ "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/avif": "avif" } as Record<string, Format>)[mimeType] ?? "png";
}

/** Whether an Accept header admits a MIME type by name (q=0 excludes it; wildcards do not count). */
export function accepts(accept: string | null, mimeType: string): boolean {
  if (!accept) return false;
  for (const range of accept.toLowerCase().split(",")) {
    const [type, ...params] = range.split(";").map((s) => s.trim());
    if (type !== mimeType) continue;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/**
 * Folds dpr into pixels and picks the format. `auto` goes by the Accept header's named types:
 * AVIF, then WebP, then the source's own JPEG or PNG, then JPEG, then PNG; with none of them
 * named (a bare wildcard), the source's own JPEG or PNG, else PNG.
 */
export function resolveTransform(t: Transform, accept: string | null, sourceMime: string): ResolvedTransform {
  const dpr = t.dpr ?? 1;
  // A size times dpr past the largest side is capped there: asking more than 4096 pixels is never an error.
  const px = (n: number | null) => (n === null ? null : Math.min(MAX_SIDE, Math.round(n * dpr)));
  let format: Format;
  if (t.fm === "auto") {
    const own = formatOfSource(sourceMime);
    const kept = own === "jpg" || own === "png" ? own : null;
    const order: [boolean, Format][] = [
      [accepts(accept, "image/avif"), "avif"],
      [accepts(accept, "image/webp"), "webp"],
      [kept !== null && accepts(accept, FORMAT_MIME[kept]), kept ?? "png"],
      [accepts(accept, "image/jpeg"), "jpg"],
      [accepts(accept, "image/png"), "png"],
    ];
    format = order.find(([ok]) => ok)?.[1] ?? kept ?? "png";
  } else {
    format = t.fm ?? formatOfSource(sourceMime);
  }
  const both = t.w !== null && t.h !== null;
  return {
    width: px(t.w),
    height: px(t.h),
    fit: both ? (t.fit ?? "cover") : null,
    format,
    quality: format === "png" ? null : t.q,
    negotiated: t.fm === "auto",
  };
}

/** The canonical key of a variant: equal for every URL that makes the same bytes (e.g. w=400&dpr=2 and w=800). */
export function variantKey(r: ResolvedTransform): string {
  const parts: string[] = [];
  if (r.width !== null) parts.push(`w${r.width}`);
  if (r.height !== null) parts.push(`h${r.height}`);
  if (r.fit !== null) parts.push(r.fit);
  if (r.quality !== null) parts.push(`q${r.quality}`);
  parts.push(r.format);
  return parts.join("_");
}

/** The MIME type of a variant format. */
export const FORMAT_MIME: Record<Format, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", avif: "image/avif" };
