// Converting stored values from one field shape to another (decisions.md section 7): text to
// number, true/false or date parses (and fails otherwise); number, true/false and date to text
// always convert; a scalar into a list is wrapped; a list into a scalar keeps its first item
// (losing detail when there were more); a namespace change only renames. Pure functions: the
// one database question (does this entry belong to the related model) is asked through `Lookup`.
import { MEDIA_TYPES, fits, isDateValue, isUuid, itemType, type FieldDef, type FieldType } from "../models/fields.ts";

/** What became of one stored value. `empty`: there was nothing to convert. */
export type Outcome = { kind: "empty" } | { kind: "ok"; value: unknown; lossy: boolean } | { kind: "fail"; reason: string };

type Item = { ok: true; value: unknown } | { ok: false; reason: string };

/** Whether an entry id is an entry of a model. */
export interface Lookup {
  inModel(modelId: string, entryId: string): boolean;
}

const TEXT = new Set<FieldType>(["string", "markdown", "html", "code", "enum", "color"]);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(["true", "yes", "1", "on"]);
const FALSE = new Set(["false", "no", "0", "off"]);

/** A value as the failure list and plan examples quote it: short. */
export function quote(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * Whether values of `before` can convert to `after` at all. Media and non-media never do, and
 * neither do relations and numbers, true/false or dates; for those only clear and keep_both are offered.
 */
export function convertible(before: FieldDef, after: FieldDef): boolean {
  const a = itemType(before);
  const b = itemType(after);
  if (a === "mixed" || b === "mixed") return true;
  if (MEDIA_TYPES.has(a) || MEDIA_TYPES.has(b)) return MEDIA_TYPES.has(a) && MEDIA_TYPES.has(b);
  const plain = new Set<FieldType>(["number", "true_false", "date"]);
  if ((a === "relation" && plain.has(b)) || (b === "relation" && plain.has(a))) return false;
  return true;
}

/** A scalar definition of the field's item kind, to check one item with `fits`. */
function itemDef(f: FieldDef): FieldDef {
  return { ...f, type: itemType(f), arrayType: null };
}

/** Converts one item to the item kind of `after`. `checkRelation`: ids must be entries of the new related model. */
function item(v: unknown, after: FieldDef, lookup: Lookup, checkRelation: boolean): Item {
  const t = itemType(after);
  if (t === "mixed") return { ok: true, value: v };
  if (TEXT.has(t)) {
    const text = typeof v === "string" ? v : (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean" ? String(v) : null;
    if (text === null) return { ok: false, reason: `${quote(v)} is not text, a number or true/false` };
    if (!fits(itemDef(after), text)) {
      if (t === "enum") return { ok: false, reason: `${quote(text)} is not one of the values ${(after.options?.values ?? []).join(", ")}` };
      return { ok: false, reason: `${quote(text)} is too long for a ${t} field` };
    }
    return { ok: true, value: text };
  }
  switch (t) {
    case "number":
      if (typeof v === "number" && Number.isFinite(v)) return { ok: true, value: v };
      if (typeof v === "boolean") return { ok: true, value: v ? 1 : 0 };
      if (typeof v === "string" && NUMBER.test(v.trim()) && Number.isFinite(Number(v.trim()))) return { ok: true, value: Number(v.trim()) };
      return { ok: false, reason: `${quote(v)} is not a number` };
    case "true_false":
      if (typeof v === "boolean") return { ok: true, value: v };
      if (v === 1 || v === 0) return { ok: true, value: v === 1 };
      if (typeof v === "string" && TRUE.has(v.trim().toLowerCase())) return { ok: true, value: true };
      if (typeof v === "string" && FALSE.has(v.trim().toLowerCase())) return { ok: true, value: false };
      return { ok: false, reason: `${quote(v)} is not true or false` };
    case "date":
      if (typeof v === "string" && isDateValue(v.trim())) return { ok: true, value: v.trim() };
      return { ok: false, reason: `${quote(v)} is not a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone` };
    case "relation": {
      if (!isUuid(v)) return { ok: false, reason: `${quote(v)} is not an entry id` };
      const id = v.toLowerCase();
      if (checkRelation && !lookup.inModel(after.relation!, id)) return { ok: false, reason: `${id} is not an entry of the related model` };
      return { ok: true, value: id };
    }
    default:
      // image, video, file: the stored media object carries over when it is one.
      if (fits(itemDef(after), v)) return { ok: true, value: v };
      return { ok: false, reason: `${quote(v)} is not a media object` };
  }
}

/** Converts one stored value of field `before` into field `after`. */
export function convertValue(before: FieldDef, after: FieldDef, v: unknown, lookup: Lookup): Outcome {
  if (v === null || v === undefined) return { kind: "empty" };
  const checkRelation = itemType(after) === "relation" && !(itemType(before) === "relation" && before.relation === after.relation);
  if (after.type === "array") {
    const items = Array.isArray(v) ? v : [v];
    if (items.length > 1000) return { kind: "fail", reason: "the list holds more than 1,000 items" };
    const out: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      const r = item(items[i], after, lookup, checkRelation);
      if (!r.ok) return { kind: "fail", reason: Array.isArray(v) ? `item ${i}: ${r.reason}` : r.reason };
      out.push(r.value);
    }
    return { kind: "ok", value: out, lossy: false };
  }
  if (after.type === "mixed") return { kind: "ok", value: v, lossy: false };
  if (Array.isArray(v)) {
    if (v.length === 0) return { kind: "empty" };
    const r = item(v[0], after, lookup, checkRelation);
    if (!r.ok) return { kind: "fail", reason: `item 0: ${r.reason}` };
    return { kind: "ok", value: r.value, lossy: v.length > 1 };
  }
  const r = item(v, after, lookup, checkRelation);
  return r.ok ? { kind: "ok", value: r.value, lossy: false } : { kind: "fail", reason: r.reason };
}
