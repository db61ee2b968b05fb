// Validation of entry layouts (interface.md, Entry layout; Limits: Management and keys). A
// refusal names the part of the document to fix in `path`, e.g. `main[0].items[2].fieldId`.
import type { Static } from "@sinclair/typebox";
import { fail } from "../../errors.ts";
import { checkValue } from "../access/body-check.ts";
import { isRelation, type FieldDef } from "../models/fields.ts";
import { type Card as CardModel, type FieldItem as FieldItemModel, LayoutDocument, type StoredLayout } from "./bodies.ts";
import { MAX_CARDS, MAX_FIELDS } from "./limits.ts";

/** A field item of a card, as stored (width filled in). */
export type FieldItem = Static<typeof StoredLayout>["main"][number]["items"][number];

/** A card, as stored (defaults filled in). */
export type Card = Static<typeof StoredLayout>["main"][number];

/** A layout document, as stored. */
export type Layout = Static<typeof StoredLayout>;

function refuse(path: string, message: string): never {
  fail("invalid_layout", { message, extra: { path } });
}

/**
 * Checks a layout document against its model (src/domain/layouts/bodies.ts) and the model's
 * fields, and returns it normalised (defaults filled in: width `full`, collapsible and collapsed
 * false, description null, aside []).
 */
export function validateLayout(raw: unknown, fields: FieldDef[]): Layout {
  checkValue(LayoutDocument, raw, "");
  const doc = raw as Static<typeof LayoutDocument>;
  const byId = new Map(fields.map((f) => [f.id, f]));
  const partIds = new Set<string>();
  const fieldIds = new Set<string>();
  let cards = 0;
  let items = 0;

  const partId = (v: string, at: string): string => {
    if (partIds.has(v)) refuse(at, `${at} "${v}" is used twice in this layout`);
    partIds.add(v);
    return v;
  };

  const item = (x: Static<typeof FieldItemModel>, at: string): FieldItem => {
    items++;
    if (items > MAX_FIELDS) refuse(at, `A layout holds at most ${MAX_FIELDS} fields`);
    const id = partId(x.id, `${at}.id`);
    const f = byId.get(x.fieldId.toLowerCase());
    if (!f) refuse(`${at}.fieldId`, `${at}.fieldId ${x.fieldId} is not a field of this model`);
    if (fieldIds.has(f.id)) refuse(`${at}.fieldId`, `${at}.fieldId places the field "${f.namespace}" a second time`);
    fieldIds.add(f.id);
    const out: FieldItem = { t: "field", id, fieldId: f.id, width: x.width ?? "full" };
    if (x.display !== undefined) {
      if (!isRelation(f)) refuse(`${at}.display`, `${at}.display is only for relation fields; "${f.namespace}" is a ${f.type} field`);
      out.display = x.display;
    }
    return out;
  };

  const card = (c: Static<typeof CardModel>, at: string): Card => {
    cards++;
    if (cards > MAX_CARDS) refuse(at, `A layout holds at most ${MAX_CARDS} cards`);
    const id = partId(c.id, `${at}.id`);
    // A card that cannot be folded cannot start folded.
    if (c.collapsed === true && c.collapsible !== true) refuse(`${at}.collapsed`, `${at}.collapsed needs collapsible: true`);
    return {
      t: "card",
      id,
      title: c.title,
      description: c.description ?? null,
      collapsible: c.collapsible ?? false,
      collapsed: c.collapsed ?? false,
      items: c.items.map((x, i) => item(x, `${at}.items[${i}]`)),
    };
  };

  const main = doc.main.map((c, i) => card(c, `main[${i}]`));
  const aside = (doc.aside ?? []).map((c, i) => card(c, `aside[${i}]`));
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
