// The layout being edited, as plain data, and every change the editor makes to it as a pure
// function (add, rename, move and remove cards; place, move and size fields). The screen keeps
// one draft in state; the preview and the saved body are both read from it.
import type { Field, Layout, LayoutCard, LayoutField } from "../../api/types.ts";

/** The limits of interface.md (Entry layout; Limits: Management and keys), checked as people type. */
export const LIMITS = { cards: 50, fields: 500, title: 80, description: 200 } as const;

/** The widths a field item may take, with the words people read. */
export const WIDTHS: { value: LayoutField["width"]; word: string }[] = [
  { value: "full", word: "Full" },
  { value: "two_thirds", word: "Two thirds" },
  { value: "half", word: "Half" },
  { value: "third", word: "Third" },
];

/** How a relation field may be shown, with the words people read. */
export const DISPLAYS: { value: NonNullable<LayoutField["display"]>; word: string }[] = [
  { value: "picker", word: "Picker" },
  { value: "inline", word: "Inline" },
  { value: "embedded", word: "Embedded" },
];

/** The two columns of a layout. */
export type Column = "main" | "aside";

/** The two columns of cards being edited. */
export interface Draft {
  main: LayoutCard[];
  aside: LayoutCard[];
}

/** Where a placed field sits: column, card index and item index. */
export interface Place {
  column: Column;
  card: number;
  item: number;
}

/** Whether a field holds relations, so it may take a `display` (a relation or a list of them). */
export function isRelationField(f: Field): boolean {
  return f.type === "relation" || (f.type === "array" && f.arrayType === "relation");
}

/**
 * The draft of a saved layout (a copy, without items of fields the model no longer has), or an
 * empty one for the plain editor.
 */
export function draftOf(layout: Layout | null, fields: Field[]): Draft {
  const known = new Set(fields.map((f) => f.id));
  const copy = (cs: LayoutCard[]) =>
    cs.map((c) => ({ ...c, description: c.description ?? null, items: c.items.filter((i) => known.has(i.fieldId)).map((i) => ({ ...i })) }));
  return layout ? { main: copy(layout.main), aside: copy(layout.aside) } : { main: [], aside: [] };
}

/** The body of `PUT /v2/models/:id/layout` for a draft. */
export function layoutOf(d: Draft): Layout {
  return { v: 1, main: d.main, aside: d.aside };
}

/** Every card with its column, main first. */
export function allCards(d: Draft): { column: Column; card: LayoutCard }[] {
  return [...d.main.map((card) => ({ column: "main" as const, card })), ...d.aside.map((card) => ({ column: "aside" as const, card }))];
}

/** How many cards and field items the draft holds. */
export function counts(d: Draft): { cards: number; fields: number } {
  const cards = allCards(d);
  return { cards: cards.length, fields: cards.reduce((n, c) => n + c.card.items.length, 0) };
}

/** Where a field is placed, or null when it is not in the layout. */
export function placeOf(d: Draft, fieldId: string): Place | null {
  for (const column of ["main", "aside"] as const) {
    for (const [ci, c] of d[column].entries()) {
      const ii = c.items.findIndex((i) => i.fieldId === fieldId);
      if (ii >= 0) return { column, card: ci, item: ii };
    }
  }
  return null;
}

/** Every part id in use (cards and items share one namespace on the server). */
function usedIds(d: Draft): Set<string> {
  const ids = new Set<string>();
  for (const { card } of allCards(d)) {
    ids.add(card.id);
    for (const i of card.items) ids.add(i.id);
  }
  return ids;
}

/** A new item's id: the field's id (stable, so a saved body is predictable), else it with a number. */
function freeId(used: Set<string>, fieldId: string): string {
  let id = fieldId;
  for (let k = 2; used.has(id); k++) id = `${fieldId.slice(0, 36)}-${k}`;
  return id;
}

function mapCards(d: Draft, fn: (c: LayoutCard) => LayoutCard): Draft {
  return { main: d.main.map(fn), aside: d.aside.map(fn) };
}

/** Adds an empty card at the end of a column, titled `Card <n>`; refused (null) at 50 cards. */
export function addCard(d: Draft, column: Column): { draft: Draft; id: string } | null {
  const n = counts(d).cards;
  if (n >= LIMITS.cards) return null;
  const used = usedIds(d);
  let k = n + 1;
  while (used.has(`card-${k}`)) k++;
  const card: LayoutCard = { t: "card", id: `card-${k}`, title: `Card ${n + 1}`, description: null, collapsible: false, collapsed: false, items: [] };
  return { draft: { ...d, [column]: [...d[column], card] }, id: card.id };
}

/** Changes a card's title, description or folding; a card that cannot fold never starts folded. */
export function updateCard(d: Draft, id: string, patch: Partial<Pick<LayoutCard, "title" | "description" | "collapsible" | "collapsed">>): Draft {
  return mapCards(d, (c) => {
    if (c.id !== id) return c;
    const next = { ...c, ...patch };
    if (!next.collapsible) next.collapsed = false;
    return next;
  });
}

/** Removes a card; its fields go back to "Not in the layout". */
export function removeCard(d: Draft, id: string): Draft {
  return { main: d.main.filter((c) => c.id !== id), aside: d.aside.filter((c) => c.id !== id) };
}

/** Moves a card up (-1) or down (+1) in its column. */
export function moveCard(d: Draft, id: string, delta: -1 | 1): Draft {
  for (const column of ["main", "aside"] as const) {
    const cs = [...d[column]];
    const i = cs.findIndex((c) => c.id === id);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= cs.length) continue;
    [cs[i], cs[j]] = [cs[j]!, cs[i]!];
    return { ...d, [column]: cs };
  }
  return d;
}

/** Moves a card to the end of the other column. */
export function switchColumn(d: Draft, id: string): Draft {
  const from: Column = d.main.some((c) => c.id === id) ? "main" : "aside";
  const to: Column = from === "main" ? "aside" : "main";
  const card = d[from].find((c) => c.id === id);
  if (!card) return d;
  return { [from]: d[from].filter((c) => c.id !== id), [to]: [...d[to], card] } as unknown as Draft;
}

/**
 * Puts a field into a card before position `index` (at the end when undefined), keeping its
 * width and display when it moves from another card; `cardId` null takes it out of the layout.
 * Answers null when placing a new field would pass the 500-field limit.
 */
export function placeField(d: Draft, fieldId: string, cardId: string | null, index?: number): Draft | null {
  const at = placeOf(d, fieldId);
  const existing = at ? d[at.column][at.card]!.items[at.item]! : null;
  if (!existing && cardId !== null && counts(d).fields >= LIMITS.fields) return null;
  // Dropping a field just above or below itself leaves it where it is.
  let target = index;
  const without = mapCards(d, (c) => {
    const i = c.items.findIndex((x) => x.fieldId === fieldId);
    if (i < 0) return c;
    if (c.id === cardId && target !== undefined && i < target) target--;
    return { ...c, items: c.items.filter((x) => x.fieldId !== fieldId) };
  });
  if (cardId === null) return without;
  const item: LayoutField = existing ?? { t: "field", id: freeId(usedIds(without), fieldId), fieldId, width: "full" };
  return mapCards(without, (c) => {
    if (c.id !== cardId) return c;
    const items = [...c.items];
    items.splice(target === undefined ? items.length : Math.max(0, Math.min(target, items.length)), 0, item);
    return { ...c, items };
  });
}

/** Moves a field up (-1) or down (+1) within its card. */
export function moveField(d: Draft, fieldId: string, delta: -1 | 1): Draft {
  return mapCards(d, (c) => {
    const i = c.items.findIndex((x) => x.fieldId === fieldId);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= c.items.length) return c;
    const items = [...c.items];
    [items[i], items[j]] = [items[j]!, items[i]!];
    return { ...c, items };
  });
}

/** Sets a placed field's width or relation display. */
export function updateField(d: Draft, fieldId: string, patch: Partial<Pick<LayoutField, "width" | "display">>): Draft {
  return mapCards(d, (c) =>
    c.items.some((x) => x.fieldId === fieldId) ? { ...c, items: c.items.map((x) => (x.fieldId === fieldId ? { ...x, ...patch } : x)) } : c,
  );
}

/** One card holding every field of the model at full width: the plain editor as a starting point. */
export function plainDraft(fields: Field[]): Draft {
  return {
    main: [
      {
        t: "card",
        id: "card-1",
        title: "Fields",
        description: null,
        collapsible: false,
        collapsed: false,
        items: fields.slice(0, LIMITS.fields).map((f) => ({ t: "field", id: f.id, fieldId: f.id, width: "full" })),
      },
    ],
    aside: [],
  };
}

/**
 * Where a server refusal's `path` points (`main[0].title`, `aside[1].items[2].fieldId`): the card,
 * the item within it, and the key named last; null when it names the document as a whole.
 */
export function pointOf(path: string): { column: Column; card: number; item: number | null; key: string | null } | null {
  const m = /^(main|aside)\[(\d+)\](?:\.items\[(\d+)\])?(?:\.(\w+))?/.exec(path);
  if (!m) return null;
  return { column: m[1] as Column, card: Number(m[2]), item: m[3] === undefined ? null : Number(m[3]), key: m[4] ?? null };
}
