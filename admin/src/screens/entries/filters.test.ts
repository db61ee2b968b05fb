// Filter chips over the /api where grammar (filters.ts) without a browser: a where read as chips
// and written back, the short form of eq, what chips cannot show kept whole, values read by the
// column's kind, and the words of a chip.
import { describe, expect, test } from "bun:test";
import { chipWords, filtersOf, parseValue, valueKindOf, whereOf } from "./filters.ts";

describe("where and chips", () => {
  test("one chip per operator; written back as the same where", () => {
    const where = { price: { gte: 10, lt: 50 }, title: "Lamp", or: [{ a: 1 }, { b: 2 }] };
    const { filters, custom } = filtersOf(where);
    expect(filters).toEqual([
      { key: "price", op: "gte", value: 10 },
      { key: "price", op: "lt", value: 50 },
      { key: "title", op: "eq", value: "Lamp" },
    ]);
    expect(custom).toEqual({ or: [{ a: 1 }, { b: 2 }] });
    expect(whereOf(filters, custom)).toEqual({ or: [{ a: 1 }, { b: 2 }], price: { gte: 10, lt: 50 }, title: { eq: "Lamp" } });
    expect(whereOf([], null)).toBeNull();
    // An object of unknown operators is not a chip; it is kept as it was.
    expect(filtersOf({ author: { name: { eq: "Ann" } } })).toEqual({ filters: [], custom: { author: { name: { eq: "Ann" } } } });
  });
});

describe("values by kind", () => {
  test("numbers, dates, yes or no, lists; a wrong one is said", () => {
    expect(parseValue("number", "gte", " 12.5 ")).toEqual({ value: 12.5 });
    expect(parseValue("number", "gte", "twelve")).toEqual({ error: "“twelve” is not a number." });
    expect(parseValue("date", "lt", "2026-03-01")).toEqual({ value: "2026-03-01" });
    expect(parseValue("date", "lt", "March")).toEqual({ error: "Choose a date." });
    expect(parseValue("boolean", "eq", "false")).toEqual({ value: false });
    expect(parseValue("text", "in", "a, b,,c")).toEqual({ value: ["a", "b", "c"] });
    expect(parseValue("number", "hasAny", "1, x")).toEqual({ error: "“x” is not a number." });
    expect(parseValue("text", "exists", "")).toEqual({ value: true });
    expect(parseValue("text", "contains", "  ")).toEqual({ error: "Type a value to filter by." });
  });
  test("a column's kind: a list's items, system times as dates", () => {
    expect(valueKindOf({ kind: "array", of: "number" })).toBe("number");
    expect(valueKindOf({ kind: "datetime", of: null })).toBe("date");
    expect(valueKindOf({ kind: "enum", of: null })).toBe("choice");
    expect(valueKindOf({ kind: "relation", of: null })).toBe("id");
    expect(valueKindOf({ kind: "markdown", of: null })).toBe("text");
  });
  test("a chip in words", () => {
    expect(chipWords({ key: "title", op: "contains", value: "note" }, { label: "Title", kind: "string", of: null })).toBe("Title contains “note”");
    expect(chipWords({ key: "$updatedAt", op: "gte", value: "2026-01-01" }, { label: "Updated", kind: "datetime", of: null })).toBe(
      "Updated is on or after “2026-01-01”",
    );
    expect(chipWords({ key: "cover", op: "exists", value: false }, { label: "Cover", kind: "image", of: null })).toBe("Cover is empty");
    expect(chipWords({ key: "gone", op: "in", value: [1, 2] }, undefined)).toBe("gone is one of 1, 2");
  });
});
