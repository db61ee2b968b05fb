// The entry list's state in the URL (list-state.ts) without a browser: reading a hand-edited URL,
// a view's parts under the URL's overrides, what "changed since saved" means, and the sort a
// header click makes (times newest first, plain system names unless a field takes them).
import { describe, expect, test } from "bun:test";
import { differsFrom, nextSort, parseListSearch, partsOf, sortKeyOf, sortOf, stateOf, withParts } from "./list-state.ts";

const VIEW = { columns: ["price", "$status"], sort: "-price", where: { price: { gte: 10 } }, search: "lamp" };

describe("reading the URL", () => {
  test("keeps what it knows, reads numbers the router parsed as text, drops the rest", () => {
    expect(parseListSearch({ status: "draft", q: 123, sort: "title", where: '{"price":{"lt":5}}', limit: 50, after: "c1", page: 3, view: "v1", x: 1 })).toEqual(
      {
        status: "draft",
        q: "123",
        sort: "title",
        where: { price: { lt: 5 } },
        limit: 50,
        after: "c1",
        page: 3,
        view: "v1",
      },
    );
    expect(parseListSearch({ status: "gone", where: "not json", limit: 7, page: 4 })).toEqual({});
    // A page number without a cursor means nothing: page 1.
    expect(parseListSearch({ page: 4 })).toEqual({});
  });
});

describe("a view under the URL", () => {
  test("the view's parts are the start; the URL's override them, an empty one clears", () => {
    expect(stateOf({ view: "v" }, VIEW)).toEqual({
      status: undefined,
      q: "lamp",
      sort: "-price",
      where: { price: { gte: 10 } },
      columns: ["price", "$status"],
      limit: 25,
      after: null,
      page: 1,
    });
    const cleared = stateOf({ view: "v", q: "", where: {}, columns: "" }, VIEW);
    expect([cleared.q, cleared.where, cleared.columns, cleared.sort]).toEqual(["", null, null, "-price"]);
    expect(differsFrom(stateOf({ view: "v" }, VIEW), VIEW)).toBe(false);
    expect(differsFrom(stateOf({ view: "v", sort: "price" }, VIEW), VIEW)).toBe(true);
    expect(differsFrom(cleared, VIEW)).toBe(true);
    expect(partsOf(stateOf({}, null))).toEqual({ columns: [], sort: null, where: null, search: null });
  });

  test("setting a part starts at page 1; inside a view an emptied part stays as an override", () => {
    expect(withParts({ q: "a", after: "c", page: 4 }, { q: "" })).toEqual({});
    expect(withParts({ view: "v", after: "c", page: 4 }, { q: "", where: null, columns: null })).toEqual({ view: "v", q: "", where: {}, columns: "" });
    expect(withParts({}, { columns: ["a", "b"], limit: 25, where: { a: { eq: 1 } } })).toEqual({ columns: "a,b", where: { a: { eq: 1 } } });
    expect(withParts({}, { limit: 100 })).toEqual({ limit: 100 });
  });

  test("the locale (issue 28) is read as a code and changing it starts at page 1; the default is no parameter", () => {
    expect(parseListSearch({ locale: "de-CH", q: "x" })).toEqual({ locale: "de-CH", q: "x" });
    expect(parseListSearch({ locale: "de CH<" })).toEqual({});
    expect(withParts({ q: "a", after: "title@de:1", page: 2, locale: "de" }, { locale: "fr" })).toEqual({ q: "a", locale: "fr" });
    expect(withParts({ locale: "de", status: "draft" }, { locale: undefined })).toEqual({ status: "draft" });
  });
});

describe("sorting by a header", () => {
  const fields = ["title", "price"];
  test("a field sorts up first, a time newest first; a second click turns it round", () => {
    expect(nextSort("", "title", fields, false)).toBe("title");
    expect(nextSort("title", "title", fields, false)).toBe("-title");
    expect(nextSort("-title", "title", fields, false)).toBe("title");
    expect(nextSort("title", "$updatedAt", fields, true)).toBe("-updatedAt");
    expect(nextSort("-updatedAt", "$updatedAt", fields, true)).toBe("updatedAt");
    // A link made with the $ name is the same column.
    expect(nextSort("-$updatedAt", "$updatedAt", fields, true)).toBe("updatedAt");
  });
  test("a system time keeps its $ when a field takes its plain name", () => {
    expect(sortKeyOf("$createdAt", ["createdAt"])).toBe("$createdAt");
    expect(sortKeyOf("$createdAt", ["title"])).toBe("createdAt");
    expect(sortOf("-price,title")).toEqual({ key: "price", desc: true });
    expect(sortOf("")).toBeNull();
  });
});
