// Selecting entries (selection.ts) without a browser: one by one, Shift-click ranges both ways
// and to untick, the page box, and "every entry that matches" counted as the list's total.
import { describe, expect, test } from "bun:test";
import { countOf, EMPTY, toggle, togglePage } from "./selection.ts";

const rows = ["a", "b", "c", "d", "e"];
const ids = (s: { ids: ReadonlySet<string> }) => [...s.ids].sort();

describe("selection", () => {
  test("a click ticks one; Shift ranges from the last click, down or up", () => {
    let s = toggle(EMPTY, rows, "b", false);
    expect(ids(s)).toEqual(["b"]);
    s = toggle(s, rows, "e", true);
    expect(ids(s)).toEqual(["b", "c", "d", "e"]);
    // Shift on a ticked row unticks the range back to it.
    s = toggle(s, rows, "c", true);
    expect(ids(s)).toEqual(["b"]);
    s = toggle(toggle(EMPTY, rows, "d", false), rows, "a", true);
    expect(ids(s)).toEqual(["a", "b", "c", "d"]);
  });
  test("Shift without an earlier click, or with the anchor on another page, ticks one", () => {
    expect(ids(toggle(EMPTY, rows, "c", true))).toEqual(["c"]);
    expect(ids(toggle({ ids: new Set(["z"]), anchor: "z", allMatching: false }, rows, "c", true))).toEqual(["c", "z"]);
  });
  test("the page box ticks the page, then unticks it; all that match counts the total", () => {
    const page = togglePage(toggle(EMPTY, rows, "a", false), rows);
    expect(ids(page)).toEqual(rows);
    expect(ids(togglePage(page, rows))).toEqual([]);
    const all = { ...page, allMatching: true };
    expect(countOf(all, 72)).toBe(72);
    expect(countOf(page, 72)).toBe(5);
    // A click inside "all that match" goes back to choosing rows: the page minus that one.
    expect(ids(toggle(all, rows, "c", false))).toEqual(["a", "b", "d", "e"]);
  });
});
