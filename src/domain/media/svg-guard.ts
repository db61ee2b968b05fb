// An SVG is refused before librsvg draws it when drawing it would cost too much (issue 24). The
// cost of an SVG is not its size: ten <use> elements per level, eight levels deep, draw 10^8
// rectangles from 2 KB (librsvg stops at 500,000 drawn elements, after 3 to 6 s of CPU), and an
// <image> with a data: URL holds a PNG that decodes to 1.2 GB. So the text is read here first
// (a few milliseconds for a large drawing): every element counts once, and once more each time a
// reference (href="#id", url(#id), markers on each vertex) draws it again, and so do the points
// of its path (a drawing of few elements can still take seconds); embedded SVGs are read
// the same way and embedded rasters are charged their declared pixels. XML entities are refused
// outright (the "billion laughs" of XML).
import { AppError } from "../../errors.ts";
import { capital } from "./decode-cost.ts";
import { loadSharp } from "./sharp.ts";

/** Elements an SVG may draw, references followed (the bomb of 10^5 took 0.7 s to draw at 100 x 100). */
export const MAX_SVG_ELEMENTS = 50_000;
/** Path points an SVG may draw, references followed (2,000,000 took 2.4 s to draw at 100 x 100). */
export const MAX_SVG_VERTICES = 1_000_000;
/** Pixels the raster images embedded in an SVG may declare together (they decode at about 12 bytes a pixel). */
export const MAX_SVG_EMBEDDED_PIXELS = 4_000_000;
/** How deep references may chain, and SVGs nest in data: URLs. */
const MAX_CHAIN = 256;
const MAX_NESTING = 2;

interface Element {
  children: number[];
  /** Ids this element draws again: its href and url(#...) references. */
  refs: string[];
  /** url(#...) of marker-start/-mid/-end: drawn once per vertex. */
  markers: string[];
  vertices: number;
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<\/[^>]*>|<([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
const ATTR = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const URL_REF = /url\(\s*['"]?#([^'")\s]+)['"]?\s*\)/g;
const MARKER = /marker(?:-start|-mid|-end)?\s*[:=]\s*["']?\s*url\(\s*['"]?#([^'")\s]+)/g;

function refused(label: string, message: string, limit: number): AppError {
  return new AppError("image_too_complex", { message: `${capital(label)} ${message}`, param: "file", extra: { field: "file", limit } });
}

/** What an SVG draws, counted: the elements with references followed, and the embedded raster pixels. */
interface Tally {
  elements: number;
  vertices: number;
  rasterPixels: number;
}

/** Throws image_too_complex when drawing the SVG `text` would pass a limit; otherwise returns. */
export async function guardSvg(text: string, label: string): Promise<void> {
  const tally: Tally = { elements: 0, vertices: 0, rasterPixels: 0 };
  await countSvg(text, label, tally, 0);
}

async function countSvg(text: string, label: string, tally: Tally, nesting: number): Promise<void> {
  if (/<!ENTITY/i.test(text)) throw refused(label, "declares XML entities, which are not accepted in an SVG.", 0);
  const elements: Element[] = [];
  const ids = new Map<string, number>();
  const embedded: string[] = [];
  const stack: number[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const tok = m[0];
    if (tok.startsWith("</")) {
      stack.pop();
      continue;
    }
    if (m[1] === undefined) continue;
    const el: Element = { children: [], refs: [], markers: [], vertices: 0 };
    const index = elements.push(el) - 1;
    if (stack.length > 0) elements[stack.at(-1)!]!.children.push(index);
    for (const a of (m[2] ?? "").matchAll(ATTR)) {
      const name = a[1]!.toLowerCase();
      const value = a[2] ?? a[3] ?? a[4] ?? "";
      if (name === "id") ids.set(value, index);
      else if (name === "href" || name === "xlink:href") {
        if (value.startsWith("#")) el.refs.push(value.slice(1));
        else if (/^\s*data:/i.test(value)) embedded.push(value);
      } else if (name === "d" || name === "points") el.vertices = Math.ceil((value.match(/-?[\d.]+(?:e-?\d+)?/gi)?.length ?? 0) / 2);
      for (const r of value.matchAll(URL_REF)) el.refs.push(r[1]!);
      for (const r of `${name}=${value}`.matchAll(MARKER)) el.markers.push(r[1]!);
    }
    // A marker reference is also matched as a plain url(#...): count it once per vertex, not also once.
    el.refs = el.refs.filter((r) => !el.markers.includes(r));
    if (m[3] !== "/") stack.push(index);
  }

  // What each element draws, references followed: memoised, saturating past the limit, and a
  // reference back into its own chain (librsvg refuses those) adds nothing. Counted twice: in
  // elements (each counts 1) and in path vertices (what drawing costs when elements are few).
  const count = (own: (el: Element) => number, cap: number): number => {
    const memo = new Map<number, number>();
    const visiting = new Set<number>();
    const drawn = (i: number, depth: number): number => {
      const known = memo.get(i);
      if (known !== undefined) return known;
      if (visiting.has(i)) return 0;
      if (depth > MAX_CHAIN) throw refused(label, `chains references more than ${MAX_CHAIN} deep.`, MAX_CHAIN);
      visiting.add(i);
      const el = elements[i]!;
      let n = Math.min(cap, own(el));
      for (const c of el.children) n = Math.min(cap, n + drawn(c, depth + 1));
      for (const r of el.refs) {
        const target = ids.get(r);
        if (target !== undefined) n = Math.min(cap, n + drawn(target, depth + 1));
      }
      for (const r of el.markers) {
        const target = ids.get(r);
        if (target !== undefined) n = Math.min(cap, n + Math.max(1, el.vertices) * drawn(target, depth + 1));
      }
      visiting.delete(i);
      memo.set(i, n);
      return n;
    };
    // Warmed up from the last element back, so children are known before their parents and the
    // recursion stays shallow however long the file.
    for (let i = elements.length - 1; i >= 0; i--) drawn(i, 0);
    return elements.length > 0 ? drawn(0, 0) : 0;
  };
  tally.elements = Math.min(MAX_SVG_ELEMENTS + 1, tally.elements + count(() => 1, MAX_SVG_ELEMENTS + 1));
  if (tally.elements > MAX_SVG_ELEMENTS)
    throw refused(label, `would draw more than ${MAX_SVG_ELEMENTS} elements once its references are followed.`, MAX_SVG_ELEMENTS);
  tally.vertices = Math.min(MAX_SVG_VERTICES + 1, tally.vertices + count((el) => el.vertices, MAX_SVG_VERTICES + 1));
  if (tally.vertices > MAX_SVG_VERTICES)
    throw refused(label, `would draw more than ${MAX_SVG_VERTICES} path points once its references are followed.`, MAX_SVG_VERTICES);

  for (const url of embedded) {
    const data = decodeDataUrl(url);
    if (data === null) continue;
    if (data.mime === "image/svg+xml") {
      if (nesting >= MAX_NESTING) throw refused(label, `nests SVGs in data: URLs more than ${MAX_NESTING} deep.`, MAX_NESTING);
      await countSvg(new TextDecoder().decode(data.bytes), label, tally, nesting + 1);
      continue;
    }
    const sharp = await loadSharp();
    const meta = await sharp(data.bytes, { limitInputPixels: false })
      .metadata()
      .catch(() => null);
    tally.rasterPixels += (meta?.width ?? 0) * (meta?.height ?? 0);
    if (tally.rasterPixels > MAX_SVG_EMBEDDED_PIXELS) {
      throw refused(label, `embeds raster images of more than ${MAX_SVG_EMBEDDED_PIXELS} pixels together.`, MAX_SVG_EMBEDDED_PIXELS);
    }
  }
}

/** The bytes and MIME type of a data: URL (base64 or percent-encoded), or null when it is not one. */
function decodeDataUrl(url: string): { mime: string; bytes: Uint8Array } | null {
  const m = /^\s*data:([^,;]*)((?:;[^,;]*)*),([\s\S]*)$/i.exec(url);
  if (!m) return null;
  const mime = (m[1] || "text/plain").trim().toLowerCase();
  const body = m[3]!;
  try {
    const bytes = /;\s*base64/i.test(m[2]!) ? Buffer.from(body.replace(/\s+/g, ""), "base64") : new TextEncoder().encode(decodeURIComponent(body));
    return { mime, bytes };
  } catch {
    return null;
  }
}
