// The editing settings of a field (decisions.md 15) on a model create or edit: which kinds each
// fits, how they relate (min not above max, a message only with a pattern, no default on a
// unique field), a pattern safe to run, a default of the field's own kind, and a slug taken
// from a text field of the same model. A setting that does not fit is refused naming it, with
// the path of the body part that holds it. docs/editing.md, "Field settings".
import { badField } from "../../errors.ts";
import { type FieldDef, fieldValue, itemType, MEDIA_TYPES } from "./fields.ts";
import { patternProblem } from "./patterns.ts";

/** The settings, in the order a stored field lists them. */
export const SETTING_KEYS = ["unique", "min", "max", "minLength", "maxLength", "pattern", "patternMessage", "default", "help", "slug"] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** The kinds whose values are text the length and pattern rules read, and a slug is made from. */
export const TEXT_KINDS = new Set(["string", "markdown", "html", "code"]);

/** The kinds a value can be compared for `unique`: single values with an equality people mean. */
const UNIQUE_KINDS = new Set(["string", "markdown", "html", "code", "enum", "color", "number", "date", "relation"]);

/** The settings that are rules an existing value can break (field-change plans count them). */
export const RULE_KEYS = ["unique", "min", "max", "minLength", "maxLength", "pattern", "slug"] as const;

/** Which kinds each setting fits, as the refusal names them; null: every kind. */
const FITS: Record<SettingKey, { test: (f: FieldDef) => boolean; kinds: string } | null> = {
  unique: { test: (f) => f.type !== "array" && UNIQUE_KINDS.has(f.type), kinds: "single text, enum, color, number, date and relation fields" },
  min: { test: (f) => f.type === "number" || f.type === "array", kinds: "number fields and lists (their item count)" },
  max: { test: (f) => f.type === "number" || f.type === "array", kinds: "number fields and lists (their item count)" },
  minLength: { test: (f) => TEXT_KINDS.has(f.type), kinds: "text fields (string, markdown, html, code)" },
  maxLength: { test: (f) => TEXT_KINDS.has(f.type), kinds: "text fields (string, markdown, html, code)" },
  pattern: { test: (f) => TEXT_KINDS.has(f.type), kinds: "text fields (string, markdown, html, code)" },
  patternMessage: { test: (f) => TEXT_KINDS.has(f.type), kinds: "text fields (string, markdown, html, code)" },
  // A relation or media default would point at an entry or file that may be deleted.
  default: { test: (f) => itemType(f) !== "relation" && !MEDIA_TYPES.has(itemType(f)), kinds: "fields other than relations and media" },
  help: null,
  slug: { test: (f) => f.type === "string", kinds: "string fields" },
};

function kindName(f: FieldDef): string {
  return f.type === "array" ? `list of ${f.arrayType}` : f.type;
}

/**
 * The field with the settings an edit sends applied over those it had (`null`, and `false` for
 * `unique`, clears one), listed in SETTING_KEYS order so two saves of one field store the same text.
 */
export function applySettings(base: FieldDef, sent: Partial<Record<SettingKey, unknown>>, existing?: FieldDef): FieldDef {
  const out: Record<string, unknown> = { ...base };
  for (const k of SETTING_KEYS) {
    delete out[k];
    const v = Object.hasOwn(sent, k) ? sent[k] : existing?.[k];
    if (v === undefined || v === null || (k === "unique" && v === false)) continue;
    out[k] = k === "slug" ? { from: (v as { from: string }).from } : v;
  }
  return out as unknown as FieldDef;
}

/**
 * Checks the settings of one field (after its type is known): each fits the kind, bounds are in
 * order, a pattern is safe, a default is a value of the kind. `sent` names the settings the body
 * sent, so a setting kept from before a change of type is refused saying to clear it.
 */
export function checkSettings(f: FieldDef, path: string, sent: ReadonlySet<string>): void {
  for (const k of SETTING_KEYS) {
    const fit = FITS[k];
    if (f[k] === undefined || fit === null || fit.test(f)) continue;
    const keep = sent.has(k) ? "" : `; send ${k}: null with the new type`;
    badField(`${path}.${k}`, `${path}.${k} is only for ${fit.kinds}, not a ${kindName(f)} field${keep}`);
  }
  if (f.type === "array") {
    for (const k of ["min", "max"] as const) {
      const v = f[k];
      if (v !== undefined && !(Number.isInteger(v) && v >= 0)) badField(`${path}.${k}`, `${path}.${k} of a list is its item count: a whole number from 0`);
    }
  }
  if (f.min !== undefined && f.max !== undefined && f.min > f.max) badField(`${path}.min`, `${path}.min (${f.min}) is above max (${f.max})`);
  if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) {
    badField(`${path}.minLength`, `${path}.minLength (${f.minLength}) is above maxLength (${f.maxLength})`);
  }
  if (f.patternMessage !== undefined && f.pattern === undefined) badField(`${path}.patternMessage`, `${path}.patternMessage needs a pattern`);
  if (f.pattern !== undefined) {
    const problem = patternProblem(f.pattern);
    if (problem) badField(`${path}.pattern`, `${path}.pattern ${problem}`);
  }
  if (f.default !== undefined) {
    if (f.unique || f.slug) {
      badField(`${path}.default`, `${path}.default cannot be set on a ${f.slug ? "slug" : "unique"} field: every new entry would take the same value`);
    }
    // The same check a value of an entry gets, so a default is always one an entry may hold.
    fieldValue(f, f.default, `${path}.default`);
  }
}

/**
 * Every slug names another field of the model whose value is text. `pathOf` gives the body path
 * of a field (its place in `fields`, `addFields` or `editFields`), or null for one the body does
 * not name (then the sentence says which field's slug lost its source).
 */
export function checkSlugSources(fields: FieldDef[], pathOf: (f: FieldDef) => string | null): void {
  for (const f of fields) {
    if (!f.slug) continue;
    const src = fields.find((x) => x.namespace === f.slug!.from);
    const at = pathOf(f);
    const field = at === null ? "fields" : `${at}.slug.from`;
    const subject = at === null ? `The slug of field "${f.namespace}" takes it from "${f.slug.from}", which` : `${at}.slug.from: "${f.slug.from}"`;
    if (!src) badField(field, `${subject} is no field of this model${at === null ? " after this change; change its slug first" : ""}`);
    if (src.id === f.id) badField(field, `${subject} is the slug field itself; name the text field the slug is made from`);
    if (!TEXT_KINDS.has(src.type)) badField(field, `${subject} is a ${kindName(src)} field; a slug is made from a text field (string, markdown, html, code)`);
  }
}

/**
 * Slugs follow their source when it is renamed: a `from` naming a namespace that no field has
 * after the change, but that a field had before it, takes that field's new namespace.
 */
export function followRenames(before: FieldDef[], after: FieldDef[]): FieldDef[] {
  const names = new Set(after.map((f) => f.namespace));
  return after.map((f) => {
    if (!f.slug || names.has(f.slug.from)) return f;
    const was = before.find((x) => x.namespace === f.slug!.from);
    const now = was && after.find((x) => x.id === was.id);
    return now ? { ...f, slug: { from: now.namespace } } : f;
  });
}

/** The rule settings that differ between two versions of a field (what a field-change plan checks again). */
export function changedRules(before: FieldDef, after: FieldDef): string[] {
  return RULE_KEYS.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) && after[k] !== undefined);
}

/**
 * A stored field as an edit body that says every setting (false or null for one it lacks), so
 * applying it leaves exactly its settings: a field change moving a model edits it this way.
 */
export function explicitSettings(f: FieldDef): FieldDef {
  // `localized` too: a change that turns it off must say so, or the edit would keep it.
  const out: Record<string, unknown> = { ...f, localized: f.localized === true };
  for (const k of SETTING_KEYS) if (out[k] === undefined) out[k] = k === "unique" ? false : null;
  return out as unknown as FieldDef;
}
