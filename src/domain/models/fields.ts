// Field definitions and the values each field kind accepts. Stored entry data is keyed by field
// id, so a namespace change never rewrites entries; reads map ids back to namespaces.
import { badField } from "../../errors.ts";

export const FIELD_TYPES = [
  "string",
  "markdown",
  "html",
  "code",
  "enum",
  "color",
  "number",
  "true_false",
  "date",
  "array",
  "relation",
  "image",
  "video",
  "file",
  "mixed",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const SCALAR_TYPES = ["string", "markdown", "html", "code", "enum", "color", "number", "true_false", "date"] as const;
export const ARRAY_TYPES = [...SCALAR_TYPES, "relation", "image", "video", "file", "mixed"] as const;
export type ArrayType = (typeof ARRAY_TYPES)[number];

export const TEXT_TYPES = new Set(["string", "markdown", "html", "code", "enum", "color"]);
export const MEDIA_TYPES = new Set(["image", "video", "file"]);
export const MEDIA_KINDS = ["image", "video", "audio", "document", "pdf", "file", "unknown"] as const;

export interface FieldDef {
  id: string;
  namespace: string;
  label: string | null;
  type: FieldType;
  arrayType: ArrayType | null;
  /** Target model id of a relation field (or an array of relations). */
  relation: string | null;
  required: boolean;
  options: { values?: string[] } | null;
  /**
   * One value per locale of the project (decisions.md 13): stored as an object keyed by locale
   * code, a blank value left out so it falls back (locales/values.ts). Stored only when set.
   */
  localized?: true;
  // The editing rules of decisions.md 15 (settings.ts checks them; entries/rules.ts enforces
  // them). Each is stored only when set, so a field without settings keeps its old shape.
  /** No other entry of the model may hold the same value (checked on every save). */
  unique?: true;
  /** A number field's least and greatest value; a list's least and greatest item count. */
  min?: number;
  max?: number;
  /** A text field's least and greatest length, in characters. */
  minLength?: number;
  maxLength?: number;
  /** A text field's ECMAScript regular expression (patterns.ts), and the message when a value does not match. */
  pattern?: string;
  patternMessage?: string;
  /** The value of a new entry created without the field. */
  default?: unknown;
  /** A sentence shown under the input. */
  help?: string;
  /** A slug field: filled from the text field `from` when empty, and unique in the model. */
  slug?: { from: string };
}

/** The kind of a single value of a field: its type, or its array type for arrays. */
export function itemType(f: FieldDef): FieldType {
  return f.type === "array" ? (f.arrayType as FieldType) : f.type;
}

export function isRelation(f: FieldDef): boolean {
  return itemType(f) === "relation";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether a string is a date (`YYYY-MM-DD`) or a date-time with a zone, and a real calendar instant. */
export function isDateValue(v: unknown): v is string {
  if (typeof v !== "string") return false;
  if (DATE_ONLY.test(v)) {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }
  return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
}

export function isUuid(v: unknown): v is string {
  return typeof v === "string" && UUID.test(v);
}

/** Whether a field holds media (a media field, or a list of media). */
export function isMediaField(f: Pick<FieldDef, "type" | "arrayType">): boolean {
  return MEDIA_TYPES.has(f.type) || (f.type === "array" && f.arrayType !== null && MEDIA_TYPES.has(f.arrayType));
}

/**
 * Whether a stored media value is a reference to the project's library (`{ id, alt }`, written
 * without a url) rather than a full object the client made up (which keeps working as before).
 */
export function isLibraryRef(v: unknown): v is { id: string; alt: string | null } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !Object.hasOwn(v, "url") && typeof (v as { id?: unknown }).id === "string";
}

function mediaValue(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    badField(path, `${path} must be a media reference { id, alt? } or a media object { id, url, alt, type, width, height }`);
  }
  const o = v as Record<string, unknown>;
  if (!Object.hasOwn(o, "url")) {
    // A reference to a file of the library: the id and, optionally, an alt of its own.
    for (const k of Object.keys(o)) if (k !== "id" && k !== "alt") badField(`${path}.${k}`, `${path}.${k} is not a key of a media reference; use id and alt`);
    if (typeof o.id !== "string" || o.id.length === 0 || o.id.length > 64) badField(`${path}.id`, `${path}.id must be the id of a media file`);
    if (o.alt !== undefined && o.alt !== null && typeof o.alt !== "string") badField(`${path}.alt`, `${path}.alt must be a string`);
    return { id: o.id, alt: o.alt ?? null };
  }
  const allowed = new Set(["id", "url", "alt", "type", "width", "height"]);
  for (const k of Object.keys(o)) if (!allowed.has(k)) badField(`${path}.${k}`, `${path}.${k} is not a media key; use id, url, alt, type, width, height`);
  if (typeof o.url !== "string" || o.url.length === 0) badField(`${path}.url`, `${path}.url must be a URL string`);
  for (const k of ["id", "alt", "type"])
    if (o[k] !== undefined && o[k] !== null && typeof o[k] !== "string") badField(`${path}.${k}`, `${path}.${k} must be a string`);
  for (const k of ["width", "height"]) {
    if (o[k] !== undefined && o[k] !== null && !(typeof o[k] === "number" && Number.isInteger(o[k]) && (o[k] as number) >= 0)) {
      badField(`${path}.${k}`, `${path}.${k} must be a whole number`);
    }
  }
  return { id: o.id ?? null, url: o.url, alt: o.alt ?? null, type: o.type ?? null, width: o.width ?? null, height: o.height ?? null };
}

/**
 * How many levels of arrays and objects a `mixed` value may nest (docs/security.md). SQLite's
 * JSON functions stop at 1,000 levels and the engine's recursion far earlier than 100,000, and
 * filters, sorts, bulk and publishing run the stored data through both, so the limit sits well
 * below either.
 */
export const MAX_MIXED_DEPTH = 64;

/** Whether a value nests more than `max` levels of arrays and objects; iterative, so any depth is safe. */
function nestsDeeperThan(v: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop()!;
    if (x === null || typeof x !== "object") continue;
    if (depth > max) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x)) if (c !== null && typeof c === "object") stack.push([c, depth + 1]);
  }
  return false;
}

/** Validates one item of a field of kind `t`, returning the value to store. */
function item(t: FieldType, f: FieldDef, v: unknown, path: string): unknown {
  switch (t) {
    case "string":
    case "markdown":
    case "html":
    case "code":
      if (typeof v !== "string") badField(path, `${path} must be text`);
      if (v.length > 1_000_000) badField(path, `${path} is longer than 1,000,000 characters`);
      return v;
    case "color":
      if (typeof v !== "string" || v.length > 64) badField(path, `${path} must be a color as text, e.g. #ff8800`);
      return v;
    case "enum": {
      const values = f.options?.values ?? [];
      if (typeof v !== "string" || !values.includes(v)) badField(path, `${path} must be one of: ${values.join(", ")}`);
      return v;
    }
    case "number":
      if (typeof v !== "number" || !Number.isFinite(v)) badField(path, `${path} must be a number`);
      return v;
    case "true_false":
      if (typeof v !== "boolean") badField(path, `${path} must be true or false`);
      return v;
    case "date":
      if (!isDateValue(v)) badField(path, `${path} must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone`);
      return v;
    case "relation":
      if (!isUuid(v)) badField(path, `${path} must be an entry id (UUID)`);
      return v.toLowerCase();
    case "image":
    case "video":
    case "file":
      return mediaValue(v, path);
    case "mixed":
      if (nestsDeeperThan(v, MAX_MIXED_DEPTH)) badField(path, `${path} nests deeper than ${MAX_MIXED_DEPTH} levels`);
      return v;
    case "array":
      badField(path, `${path} cannot nest arrays`);
  }
}

/** Validates a field's value (null clears it), returning what is stored. */
export function fieldValue(f: FieldDef, v: unknown, path: string): unknown {
  if (v === null) return null;
  if (f.type === "array") {
    if (!Array.isArray(v)) badField(path, `${path} must be a list`);
    if (v.length > 1000) badField(path, `${path} holds more than 1,000 items`);
    return v.map((x, i) => item(f.arrayType as FieldType, f, x, `${path}[${i}]`));
  }
  return item(f.type, f, v, path);
}

/** Whether a stored value still fits the field (after a model edit); a misfit reads as null. */
export function fits(f: FieldDef, v: unknown): boolean {
  if (v === null || v === undefined) return true;
  try {
    fieldValue(f, v, f.namespace);
    return true;
  } catch {
    return false;
  }
}

/** A date value as a UTC instant with six fractional digits (a date alone is midnight UTC), or null. */
export function instantKey(v: unknown): string | null {
  if (!isDateValue(v)) return null;
  const s = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v;
  try {
    return Temporal.Instant.from(s).toString({ fractionalSecondDigits: 6 });
  } catch {
    return null;
  }
}

/**
 * The comparison keys of stored data: normalised instants for date fields and lists of dates; a
 * localized date field keeps one key per locale slot (`{ <code>: key }`), like its data.
 */
export function comparisonKeys(fields: FieldDef[], data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const key = (v: unknown) => (Array.isArray(v) ? v.map(instantKey) : instantKey(v));
  for (const f of fields) {
    if (itemType(f) !== "date") continue;
    const v = data[f.id];
    if (v === undefined || v === null) continue;
    if (!f.localized) out[f.id] = key(v);
    else if (typeof v === "object" && !Array.isArray(v)) {
      const slots: Record<string, unknown> = {};
      for (const [code, x] of Object.entries(v)) if (x !== null && x !== undefined) slots[code] = key(x);
      out[f.id] = slots;
    }
  }
  return out;
}
