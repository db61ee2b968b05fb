// Localized values in stored entry data (decisions.md 13; docs/localization.md). A localized
// field stores an object keyed by locale code; a shared field stores its value as before. A blank
// value (absent, null, "", [] or blank markdown/html) is never stored in a locale's slot, so "the
// value falls back" is, everywhere (SQL filters and sorts, rendering), "the slot is absent": one
// rule, and a sort can read `COALESCE` down a chain on an index. Pure and read-side.
import type { FieldDef } from "../models/fields.ts";

type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data => v !== null && typeof v === "object" && !Array.isArray(v);

/** Elements whose presence makes HTML more than blank although they hold no text. */
const HTML_CONTENT = /<(img|video|audio|iframe|embed|object|svg|picture|canvas|math|input|select|textarea|hr)\b/i;

/**
 * Whether a value falls back: absent, null, "", an empty list, markdown of only white space, or
 * HTML with no text (tags, comments, white space and non-breaking spaces only) and no media element.
 */
export function isBlank(f: Pick<FieldDef, "type">, v: unknown): boolean {
  if (v === undefined || v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v !== "string") return false;
  if (f.type === "markdown") return v.trim() === "";
  if (f.type === "html") {
    if (HTML_CONTENT.test(v)) return false;
    const text = v
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;|&#160;|&#xa0;/gi, "")
      .replace(/\u00a0/g, "");
    return text.trim() === "";
  }
  return false;
}

/** The per-locale object of a localized field in stored data (an empty object when it holds none). */
export function localeSlots(stored: Data, f: FieldDef): Data {
  const v = stored[f.id];
  return isObject(v) ? v : {};
}

/** The value of a field in one locale as stored: a shared field's value, or a localized field's slot. */
export function valueIn(stored: Data, f: FieldDef, code: string): unknown {
  return f.localized ? localeSlots(stored, f)[code] : stored[f.id];
}

/** The first locale of `chain` whose slot of a localized field holds a value, with the value; null when none. */
export function pickInChain(stored: Data, f: FieldDef, chain: readonly string[]): { code: string; value: unknown } | null {
  const slots = localeSlots(stored, f);
  for (const code of chain) {
    const v = slots[code];
    if (v !== undefined && v !== null) return { code, value: v };
  }
  return null;
}

/**
 * Stored data as one locale sees it, keyed by field id like stored data: shared fields as stored,
 * localized fields their slot in `code` (absent when it has none). Rules, unique values and slugs
 * work on this flat view.
 */
export function localeView(fields: FieldDef[], stored: Data, code: string): Data {
  const out: Data = {};
  for (const f of fields) {
    const v = valueIn(stored, f, code);
    if (v !== undefined) out[f.id] = v;
  }
  return out;
}

/** Sets one locale's slot of a localized field in stored data (in place); a blank value empties the slot. */
export function setSlot(stored: Data, f: FieldDef, code: string, v: unknown): void {
  const slots = { ...localeSlots(stored, f) };
  if (isBlank(f, v)) delete slots[code];
  else slots[code] = v;
  if (Object.keys(slots).length === 0) delete stored[f.id];
  else stored[f.id] = slots;
}

/** A localized field's slots with blank values left out, in the order of `codes` (unknown codes dropped). */
export function packSlots(f: FieldDef, slots: Data, codes: readonly string[]): Data | undefined {
  const out: Data = {};
  for (const c of codes) if (Object.hasOwn(slots, c) && !isBlank(f, slots[c])) out[c] = slots[c];
  return Object.keys(out).length ? out : undefined;
}

/** The codes, of `codes`, in which stored data holds a value of some localized field of `fields`. */
export function codesWithValues(fields: FieldDef[], stored: Data, codes: readonly string[]): string[] {
  const localized = fields.filter((f) => f.localized);
  return codes.filter((c) =>
    localized.some((f) => {
      const v = localeSlots(stored, f)[c];
      return v !== undefined && v !== null;
    }),
  );
}

/**
 * Each value of a field in stored data, for rules, unique values and usage: one for a shared
 * field (locale null), one per locale slot for a localized one.
 */
export function fieldValues(stored: Data, f: FieldDef): { locale: string | null; value: unknown }[] {
  if (!f.localized) return [{ locale: null, value: stored[f.id] }];
  return Object.entries(localeSlots(stored, f)).map(([locale, value]) => ({ locale, value }));
}
