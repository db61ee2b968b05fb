// The entries-read grammar of decisions.md section 4: select, sort, limit, count and cursors.
// Parsing here is pure (no model); names are resolved against the model in query.ts.
import { fail } from "../../errors.ts";

/** A parsed select list: plain names (`"quoted"` ones unquoted), `$system` names, and expansions. */
export interface SelectList {
  all: boolean;
  items: SelectItem[];
}
export interface SelectItem {
  name: string;
  /** `$name`: always the system key. */
  system: boolean;
  /** `rel(...)`: the expansion's own list. */
  expand: SelectList | null;
  /**
   * GraphQL only (a localized field's own `locale` argument): the value of this field in that
   * locale, kept beside the read's own under localeKey(locale, name) (render.ts). REST has no
   * syntax for it: printSelect writes the plain name.
   */
  locale?: string;
}

const SELECT_HINT = 'Example: select=title,author(name,avatar),"odd,name" (relations expand up to 3 levels)';

function selectError(message: string): never {
  fail("invalid_select", { message, param: "select", hint: SELECT_HINT });
}

/**
 * Reads a double-quoted name starting at `src[start]` (the opening quote); inner quotes are
 * doubled. Answers the name and the index after the closing quote, or null when it never closes.
 */
function readQuoted(src: string, start: number): { name: string; end: number } | null {
  let i = start + 1;
  let out = "";
  while (i < src.length) {
    if (src[i] === '"') {
      if (src[i + 1] !== '"') return { name: out, end: i + 1 };
      out += '"';
      i += 2;
      continue;
    }
    out += src[i++];
  }
  return null;
}

/** Parses `select`; nesting deeper than `maxDepth` levels of expansion is refused. */
export function parseSelect(src: string, maxDepth = 3): SelectList {
  let i = 0;
  const peek = () => src[i];
  const skipWs = () => {
    while (i < src.length && (src[i] === " " || src[i] === "\t")) i++;
  };
  function name(): { name: string; system: boolean; quoted: boolean } {
    skipWs();
    if (peek() === '"') {
      const q = readQuoted(src, i);
      if (!q) selectError("A quoted name in select is not closed.");
      i = q.end;
      if (q.name.length === 0) selectError("An empty quoted name in select.");
      return { name: q.name, system: false, quoted: true };
    }
    let system = false;
    if (peek() === "$") {
      system = true;
      i++;
    }
    const start = i;
    while (i < src.length && !',()"$'.includes(src[i]!)) i++;
    const n = src.slice(start, i).trim();
    if (n.length === 0) selectError(`select expects a field name at position ${start + 1}.`);
    return { name: n, system, quoted: false };
  }
  function list(depth: number): SelectList {
    const out: SelectList = { all: false, items: [] };
    for (;;) {
      skipWs();
      if (peek() === "*") {
        i++;
        out.all = true;
      } else {
        const n = name();
        skipWs();
        let expand: SelectList | null = null;
        if (peek() === "(") {
          if (n.system) selectError(`The system key $${n.name} cannot be expanded.`);
          if (depth >= maxDepth) selectError(`select expands relations at most ${maxDepth} levels deep.`);
          i++;
          expand = list(depth + 1);
          skipWs();
          if (peek() !== ")") selectError("A parenthesis in select is not closed.");
          i++;
        }
        out.items.push({ name: n.name, system: n.system, expand });
      }
      skipWs();
      if (peek() === ",") {
        i++;
        continue;
      }
      return out;
    }
  }
  const result = list(0);
  skipWs();
  if (i < src.length) selectError(`Unexpected "${src[i]}" at position ${i + 1} of select.`);
  return result;
}

/** A sort term: a path of one name or a relation hop (`author.name`), and its direction. */
export interface SortTerm {
  path: { name: string; system: boolean }[];
  desc: boolean;
}

const SORT_HINT = "Example: sort=-publishedAt,title,author.name (up to 3 keys; - for descending)";

function sortError(message: string): never {
  fail("invalid_sort", { message, param: "sort", hint: SORT_HINT });
}

/** Parses `sort`: up to 3 comma-separated terms, `-` for descending, one `.` hop, quoted names allowed. */
export function parseSort(src: string): SortTerm[] {
  const terms: SortTerm[] = [];
  let i = 0;
  while (i <= src.length) {
    let desc = false;
    while (src[i] === " ") i++;
    if (src[i] === "-") {
      desc = true;
      i++;
    }
    const path: SortTerm["path"] = [];
    for (;;) {
      let seg = "";
      let system = false;
      if (src[i] === '"') {
        const q = readQuoted(src, i);
        if (!q) sortError("A quoted name in sort is not closed.");
        seg = q.name;
        i = q.end;
      } else {
        if (src[i] === "$") {
          system = true;
          i++;
        }
        const start = i;
        while (i < src.length && !',."'.includes(src[i]!)) i++;
        seg = src.slice(start, i).trim();
      }
      if (seg.length === 0) sortError("sort names an empty field.");
      path.push({ name: seg, system });
      if (src[i] === ".") {
        i++;
        continue;
      }
      break;
    }
    if (path.length > 2) sortError("sort hops at most once into a relation (author.name).");
    terms.push({ path, desc });
    while (src[i] === " ") i++;
    if (i >= src.length) break;
    if (src[i] !== ",") sortError(`Unexpected "${src[i]}" in sort.`);
    i++;
  }
  if (terms.length > 3) sortError(`sort takes up to 3 keys; got ${terms.length}.`);
  return terms;
}

/** Parses `limit`: a whole number from 1 to 200. */
export function parseLimit(v: string | null, dflt = 25): number {
  if (v === null) return dflt;
  if (!/^\d{1,4}$/.test(v) || Number(v) < 1 || Number(v) > 200) {
    fail("invalid_limit", { message: `limit must be a whole number from 1 to 200; got ${JSON.stringify(v.slice(0, 20))}.`, param: "limit" });
  }
  return Number(v);
}

/** Parses a boolean parameter (`true` or `false`). */
export function parseBool(v: string | null, param: string): boolean {
  if (v === null) return false;
  if (v === "true") return true;
  if (v === "false") return false;
  fail("invalid_parameter", { message: `${param} must be true or false.`, param, hint: `Example: ${param}=true` });
}

/** A decoded cursor: the sort signature it was made for, the sort values and the entry id. */
export interface Cursor {
  sig: string;
  values: CursorValue[];
  id: string;
}
/** A sort value as carried: the value itself, or a digest of a value over 128 bytes. */
export type CursorValue = { v: string | number | null } | { d: string };

export const MAX_CURSOR_VALUE_BYTES = 128;

const CURSOR_HINT = "Pass meta.page.next or meta.page.prev exactly as returned, with the same sort and where.";

export function encodeCursor(c: Cursor): string {
  const values = c.values.map((x) => ("d" in x ? { d: x.d } : x.v));
  return Buffer.from(JSON.stringify([c.sig, values, c.id])).toString("base64url");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Decodes a cursor; anything malformed is `invalid_cursor`. */
export function decodeCursor(raw: string, param: "after" | "before"): Cursor {
  const bad = () => fail("invalid_cursor", { message: "The cursor is not valid.", param, hint: CURSOR_HINT });
  if (raw.length === 0 || raw.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(raw)) bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) bad();
  const [sig, values, id] = parsed as [unknown, unknown, unknown];
  if (typeof sig !== "string" || !Array.isArray(values) || values.length > 3 || typeof id !== "string" || !UUID.test(id)) bad();
  const vals: CursorValue[] = (values as unknown[]).map((v) => {
    if (v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) return { v };
    if (v && typeof v === "object" && typeof (v as { d?: unknown }).d === "string") return { d: (v as { d: string }).d };
    return bad();
  });
  return { sig: sig as string, values: vals, id: id as string };
}
