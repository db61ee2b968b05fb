// Validation of entry layouts (interface.md, Entry layout; Limits: Management and keys). A
// refusal names the part of the document to fix in `path`, e.g. `main[0].items[2].fieldId`.
import { fail } from "../../errors.ts";
import { isRelation, isUuid, type FieldDef } from "../models/fields.ts";

/** The limits and vocabularies of interface.md (Entry layout; Limits: Management and keys). */
export const MAX_CARDS = 50;
export const MAX_FIELDS = 500;
export const MAX_TITLE = 80;
export const MAX_DESCRIPTION = 200;
export const WIDTHS = ["full", "two_thirds", "half", "third"] as const;
export const DISPLAYS = ["picker", "inline", "embedded"] as const;

/** A field item of a card, as stored (width filled in). */
export interface FieldItem {
  t: "field";
  id: string;
  fieldId: string;
  width: (typeof WIDTHS)[number];
  display?: (typeof DISPLAYS)[number];
}

/** A card, as stored (defaults filled in). */
export interface Card {
  t: "card";
  id: string;
  title: string;
  description: string | null;
  collapsible: boolean;
  collapsed: boolean;
  items: FieldItem[];
}

/** A layout document, as stored. */
export interface Layout {
  v: 1;
  main: Card[];
  aside: Card[];
}

/** Part ids: short names the admin uses as keys. */
const PART_ID = /^[A-Za-z0-9_-]{1,64}$/;

function refuse(path: string, message: string): never {
  fail("invalid_layout", { message, extra: { path } });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function onlyKeys(o: Record<string, unknown>, allowed: string[], at: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k))
      refuse(at ? `${at}.${k}` : k, `${at ? `${at}.` : ""}${k} is not part of a layout ${at ? "part" : "document"}; allowed: ${allowed.join(", ")}`);
  }
}

/**
 * Checks a layout document against the model's fields and returns it normalised (defaults
 * filled in: width `full`, collapsible and collapsed false, description null, aside []).
 */
export function validateLayout(raw: unknown, fields: FieldDef[]): Layout {
  if (!isObject(raw)) refuse("layout", "layout must be an object { v: 1, main: [...], aside: [...] } or null");
  onlyKeys(raw, ["v", "main", "aside"], "");
  if (raw.v !== 1) refuse("v", "v must be the number 1");
  const byId = new Map(fields.map((f) => [f.id, f]));
  const partIds = new Set<string>();
  const fieldIds = new Set<string>();
  let cards = 0;
  let items = 0;

  const card = (c: unknown, at: string): Card => {
    cards++;
    if (cards > MAX_CARDS) refuse(at, `A layout holds at most ${MAX_CARDS} cards`);
    if (!isObject(c)) refuse(at, `${at} must be a card object`);
    onlyKeys(c, ["t", "id", "title", "description", "collapsible", "collapsed", "items"], at);
    if (c.t !== "card") refuse(`${at}.t`, `${at}.t must be "card"`);
    const id = partId(c.id, `${at}.id`);
    if (typeof c.title !== "string" || c.title.trim().length === 0 || c.title.length > MAX_TITLE) {
      refuse(`${at}.title`, `${at}.title must be 1 to ${MAX_TITLE} characters`);
    }
    if (c.description !== undefined && c.description !== null && (typeof c.description !== "string" || c.description.length > MAX_DESCRIPTION)) {
      refuse(`${at}.description`, `${at}.description must be text of at most ${MAX_DESCRIPTION} characters, or null`);
    }
    for (const k of ["collapsible", "collapsed"]) {
      if (c[k] !== undefined && typeof c[k] !== "boolean") refuse(`${at}.${k}`, `${at}.${k} must be true or false`);
    }
    // A card that cannot be folded cannot start folded.
    if (c.collapsed === true && c.collapsible !== true) refuse(`${at}.collapsed`, `${at}.collapsed needs collapsible: true`);
    if (!Array.isArray(c.items)) refuse(`${at}.items`, `${at}.items must be a list of field items`);
    return {
      t: "card",
      id,
      title: c.title,
      description: (c.description as string | null | undefined) ?? null,
      collapsible: (c.collapsible as boolean | undefined) ?? false,
      collapsed: (c.collapsed as boolean | undefined) ?? false,
      items: c.items.map((x, i) => item(x, `${at}.items[${i}]`)),
    };
  };

  const item = (x: unknown, at: string): FieldItem => {
    items++;
    if (items > MAX_FIELDS) refuse(at, `A layout holds at most ${MAX_FIELDS} fields`);
    if (!isObject(x)) refuse(at, `${at} must be a field item object`);
    onlyKeys(x, ["t", "id", "fieldId", "width", "display"], at);
    if (x.t !== "field") refuse(`${at}.t`, `${at}.t must be "field"`);
    const id = partId(x.id, `${at}.id`);
    if (!isUuid(x.fieldId)) refuse(`${at}.fieldId`, `${at}.fieldId must be a field id (UUID)`);
    const f = byId.get(x.fieldId.toLowerCase());
    if (!f) refuse(`${at}.fieldId`, `${at}.fieldId ${x.fieldId} is not a field of this model`);
    if (fieldIds.has(f.id)) refuse(`${at}.fieldId`, `${at}.fieldId places the field "${f.namespace}" a second time`);
    fieldIds.add(f.id);
    const width = x.width ?? "full";
    if (!WIDTHS.includes(width as FieldItem["width"])) refuse(`${at}.width`, `${at}.width must be one of ${WIDTHS.join(", ")}`);
    const out: FieldItem = { t: "field", id, fieldId: f.id, width: width as FieldItem["width"] };
    if (x.display !== undefined) {
      if (!isRelation(f)) refuse(`${at}.display`, `${at}.display is only for relation fields; "${f.namespace}" is a ${f.type} field`);
      if (!DISPLAYS.includes(x.display as (typeof DISPLAYS)[number])) refuse(`${at}.display`, `${at}.display must be one of ${DISPLAYS.join(", ")}`);
      out.display = x.display as FieldItem["display"];
    }
    return out;
  };

  const partId = (v: unknown, at: string): string => {
    if (typeof v !== "string" || !PART_ID.test(v)) refuse(at, `${at} must be 1 to 64 of a-z A-Z 0-9 _ -`);
    if (partIds.has(v)) refuse(at, `${at} "${v}" is used twice in this layout`);
    partIds.add(v);
    return v;
  };

  const column = (v: unknown, name: "main" | "aside", required: boolean): Card[] => {
    if (v === undefined && !required) return [];
    if (!Array.isArray(v)) refuse(name, `${name} must be a list of cards`);
    return v.map((c, i) => card(c, `${name}[${i}]`));
  };
  const main = column(raw.main, "main", true);
  const aside = column(raw.aside, "aside", false);
  return { v: 1, main, aside };
}

/**
 * A stored layout with what no longer fits the model's fields dropped: items of removed fields,
 * and `display` on fields that are no longer relations. Used when a field change moves a model.
 */
export function pruneLayout(layout: Layout | null, fields: FieldDef[]): Layout | null {
  if (!layout) return null;
  const byId = new Map(fields.map((f) => [f.id, f]));
  const cards = (cs: Card[]) =>
    cs.map((c) => ({
      ...c,
      items: c.items
        .filter((i) => byId.has(i.fieldId))
        .map((i) => {
          if (i.display === undefined || isRelation(byId.get(i.fieldId)!)) return i;
          const { display: _dropped, ...rest } = i;
          return rest;
        }),
    }));
  return { ...layout, main: cards(layout.main), aside: cards(layout.aside) };
}
