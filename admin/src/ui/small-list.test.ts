// sortAndFilter: every word of the search, without case, in any order; a sort by a column either
// way with empty values last both ways and ties in the server's order; the URL's state read back.
import { describe, expect, test } from "bun:test";
import { type SortColumn, sortAndFilter } from "./small-list.tsx";
import { parseSmallListSearch } from "./small-list-search.ts";
import { nextSortOf } from "./sort-header.tsx";

type Row = { name: string; used: string | null; n: number };
const rows: Row[] = [
  { name: "beta site", used: "2026-01-02", n: 2 },
  { name: "Alpha script", used: null, n: 10 },
  { name: "gamma", used: "2026-01-03", n: 2 },
  { name: "alpha 2", used: "2026-01-01", n: 1 },
];
const columns: SortColumn<Row>[] = [
  { key: "name", value: (r) => r.name },
  { key: "used", value: (r) => r.used },
  { key: "n", value: (r) => r.n },
];
const names = (search: { q?: string; sort?: string }) => sortAndFilter(rows, columns, (r) => r.name, search).map((r) => r.name);

describe("sortAndFilter", () => {
  test("no sort and no search keep the server's order", () => {
    expect(names({})).toEqual(["beta site", "Alpha script", "gamma", "alpha 2"]);
  });
  test("every word, without case, in any order", () => {
    expect(names({ q: "ALPHA" })).toEqual(["Alpha script", "alpha 2"]);
    expect(names({ q: "script alpha" })).toEqual(["Alpha script"]);
    expect(names({ q: "delta" })).toEqual([]);
  });
  test("text sorts without case and numbers inside names by value", () => {
    expect(names({ sort: "name" })).toEqual(["alpha 2", "Alpha script", "beta site", "gamma"]);
    expect(names({ sort: "-name" })).toEqual(["gamma", "beta site", "Alpha script", "alpha 2"]);
  });
  test("empty values last either way; ties keep the server's order", () => {
    expect(names({ sort: "used" })).toEqual(["alpha 2", "beta site", "gamma", "Alpha script"]);
    expect(names({ sort: "-used" })).toEqual(["gamma", "beta site", "alpha 2", "Alpha script"]);
    expect(names({ sort: "n" })).toEqual(["alpha 2", "beta site", "gamma", "Alpha script"]);
    expect(names({ sort: "-n" })).toEqual(["Alpha script", "beta site", "gamma", "alpha 2"]);
  });
  test("an unknown sort is no sort", () => {
    expect(names({ sort: "colour" })).toEqual(["beta site", "Alpha script", "gamma", "alpha 2"]);
  });
});

describe("the URL's state", () => {
  test("q and a known sort are kept; anything else is dropped", () => {
    const parse = parseSmallListSearch(["name", "used"]);
    expect(parse({ q: "x", sort: "-used", page: 3 })).toEqual({ q: "x", sort: "-used" });
    expect(parse({ q: "", sort: "colour" })).toEqual({});
    expect(parse({ q: 3, sort: ["name"] })).toEqual({});
  });
  test("a header's click: first order, then turned round", () => {
    expect(nextSortOf(undefined, "name")).toBe("name");
    expect(nextSortOf("name", "name")).toBe("-name");
    expect(nextSortOf("-name", "name")).toBe("name");
    expect(nextSortOf("name", "used", "desc")).toBe("-used");
  });
});
