// The layout editor's draft changes (admin/src/screens/layouts/draft.ts) without a browser:
// placing and moving fields, dropping a field next to itself, the card and field limits, and
// reading a refusal's path.
import { describe, expect, test } from "bun:test";
import type { Field } from "../../api/types.ts";
import * as D from "./draft.ts";

const field = (id: string, type: Field["type"] = "string"): Field => ({
  id,
  namespace: id,
  label: null,
  type,
  arrayType: null,
  relation: null,
  required: false,
  options: null,
});
const ids = (d: D.Draft, column: D.Column, card: number) => d[column][card]!.items.map((i) => i.fieldId);

describe("layout draft", () => {
  test("fields are placed at the end or before a row, keep width and display when moved, and leave when taken out", () => {
    let d = D.addCard(D.draftOf(null, []), "main")!.draft;
    d = D.addCard(d, "aside")!.draft;
    expect(d.main.map((c) => [c.id, c.title])).toEqual([["card-1", "Card 1"]]);
    expect(d.aside.map((c) => [c.id, c.title])).toEqual([["card-2", "Card 2"]]);
    for (const f of ["a", "b", "c"]) d = D.placeField(d, f, "card-1")!;
    expect(ids(d, "main", 0)).toEqual(["a", "b", "c"]);
    // Dropped on the row of "a": before it. Dropped on its own next row: where it was.
    d = D.placeField(d, "c", "card-1", 0)!;
    expect(ids(d, "main", 0)).toEqual(["c", "a", "b"]);
    d = D.placeField(d, "c", "card-1", 1)!;
    expect(ids(d, "main", 0)).toEqual(["c", "a", "b"]);
    d = D.placeField(d, "c", "card-1", 3)!;
    expect(ids(d, "main", 0)).toEqual(["a", "b", "c"]);
    d = D.updateField(d, "b", { width: "half", display: "inline" });
    d = D.placeField(d, "b", "card-2")!;
    expect(d.aside[0]!.items).toEqual([{ t: "field", id: "b", fieldId: "b", width: "half", display: "inline" }]);
    d = D.moveField(d, "c", -1);
    expect(ids(d, "main", 0)).toEqual(["c", "a"]);
    d = D.placeField(d, "a", null)!;
    expect(D.placeOf(d, "a")).toBeNull();
    expect(D.counts(d)).toEqual({ cards: 2, fields: 2 });
  });

  test("cards move within and between columns; a removed card's fields leave the layout; folding needs collapsible", () => {
    let d = D.plainDraft([field("a"), field("b")]);
    d = D.addCard(d, "main")!.draft;
    d = D.moveCard(d, "card-2", -1);
    expect(d.main.map((c) => c.id)).toEqual(["card-2", "card-1"]);
    d = D.switchColumn(d, "card-2");
    expect([d.main.map((c) => c.id), d.aside.map((c) => c.id)]).toEqual([["card-1"], ["card-2"]]);
    d = D.updateCard(d, "card-2", { collapsible: true, collapsed: true });
    d = D.updateCard(d, "card-2", { collapsible: false });
    expect(d.aside[0]!.collapsed).toBe(false);
    d = D.removeCard(d, "card-1");
    expect([D.placeOf(d, "a"), D.counts(d)]).toEqual([null, { cards: 1, fields: 0 }]);
  });

  test("the 50th card is the last, and a 501st field is not placed", () => {
    let d = D.draftOf(null, []);
    for (let i = 0; i < 50; i++) d = D.addCard(d, i % 2 ? "aside" : "main")!.draft;
    expect(D.addCard(d, "main")).toBeNull();
    const full = D.plainDraft(Array.from({ length: 500 }, (_, i) => field(`f${i}`)));
    expect(D.counts(full).fields).toBe(500);
    expect(D.placeField(full, "f500", "card-1")).toBeNull();
    // Moving a field already placed is no new field, so it is allowed at the limit.
    expect(ids(D.placeField(full, "f0", "card-1")!, "main", 0).at(-1)).toBe("f0");
  });

  test("a saved layout drops items of fields the model no longer has", () => {
    const layout = {
      v: 1 as const,
      main: [
        {
          t: "card" as const,
          id: "c",
          title: "C",
          description: null,
          collapsible: false,
          collapsed: false,
          items: [{ t: "field" as const, id: "x", fieldId: "gone", width: "full" as const }],
        },
      ],
      aside: [],
    };
    expect(D.draftOf(layout, [field("a")]).main[0]!.items).toEqual([]);
  });

  test("a refusal's path points at a card, an item and a key", () => {
    expect(D.pointOf("main[0].title")).toEqual({ column: "main", card: 0, item: null, key: "title" });
    expect(D.pointOf("aside[2].items[3].fieldId")).toEqual({ column: "aside", card: 2, item: 3, key: "fieldId" });
    expect(D.pointOf("main[1]")).toEqual({ column: "main", card: 1, item: null, key: null });
    expect(D.pointOf("layout")).toBeNull();
  });
});
