// Table-driven unit tests of the entries-read grammar (decisions.md section 4): select, sort,
// limit, count and cursors, parsed without a model.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../errors.ts";
import { decodeCursor, encodeCursor, parseBool, parseLimit, parseSelect, parseSort } from "./grammar.ts";

/** The code, param and message of what `fn` throws. */
function refusal(fn: () => unknown): { code: string; param?: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, param: e.param, message: e.message };
    throw e;
  }
  throw new Error("no refusal");
}

const names = (src: string) =>
  parseSelect(src).items.map((i) => (i.system ? `$${i.name}` : i.name) + (i.expand ? `(${i.expand.items.map((x) => x.name).join(",")})` : ""));

describe("parseSelect", () => {
  const ok: [string, string[] | "all"][] = [
    ["title", ["title"]],
    ["title, price", ["title", "price"]],
    ["$createdAt,title", ["$createdAt", "title"]],
    ['"odd,name",x', ["odd,name", "x"]],
    ['"say ""hi"""', ['say "hi"']],
    ["author(name,bio)", ["author(name,bio)"]],
    ["a(b(c(d)))", ["a(b)"]],
    ["*", "all"],
  ];
  for (const [src, want] of ok) {
    test(`accepts ${src}`, () => {
      if (want === "all") expect(parseSelect(src).all).toBe(true);
      else expect(names(src)).toEqual(want);
    });
  }
  const bad: [string, string][] = [
    ['"open', "A quoted name in select is not closed."],
    ["a(b(c(d(e))))", "select expands relations at most 3 levels deep."],
    ["title)", 'Unexpected ")" at position 6 of select.'],
  ];
  for (const [src, message] of bad) {
    test(`refuses ${src}`, () => {
      expect(refusal(() => parseSelect(src))).toMatchObject({ code: "invalid_select", param: "select", message });
    });
  }
});

describe("parseSort", () => {
  const ok: [string, string[]][] = [
    ["title", ["+title"]],
    ["-publishedAt,title", ["-publishedAt", "+title"]],
    ["author.name", ["+author.name"]],
    ["-$createdAt", ["-$createdAt"]],
    ['"a,b",-x', ["+a,b", "-x"]],
  ];
  for (const [src, want] of ok) {
    test(`accepts ${src}`, () => {
      expect(parseSort(src).map((t) => `${t.desc ? "-" : "+"}${t.path.map((p) => (p.system ? `$${p.name}` : p.name)).join(".")}`)).toEqual(want);
    });
  }
  const bad: [string, string][] = [
    ["a,b,c,d", "sort takes up to 3 keys; got 4."],
    ["a.b.c", "sort hops at most once into a relation (author.name)."],
    ["a,,b", "sort names an empty field."],
    ['"open', "A quoted name in sort is not closed."],
  ];
  for (const [src, message] of bad) {
    test(`refuses ${src}`, () => {
      expect(refusal(() => parseSort(src))).toEqual({ code: "invalid_sort", param: "sort", message });
    });
  }
});

describe("parseLimit and parseBool", () => {
  const limits: [string | null, number | string][] = [
    [null, 25],
    ["1", 1],
    ["200", 200],
    ["0", 'limit must be a whole number from 1 to 200; got "0".'],
    ["201", 'limit must be a whole number from 1 to 200; got "201".'],
    ["1.5", 'limit must be a whole number from 1 to 200; got "1.5".'],
    ["-1", 'limit must be a whole number from 1 to 200; got "-1".'],
  ];
  for (const [v, want] of limits) {
    test(`limit ${v}`, () => {
      if (typeof want === "number") expect(parseLimit(v)).toBe(want);
      else expect(refusal(() => parseLimit(v))).toEqual({ code: "invalid_limit", param: "limit", message: want });
    });
  }
  test("count is true or false only", () => {
    expect([parseBool(null, "count"), parseBool("true", "count"), parseBool("false", "count")]).toEqual([false, true, false]);
    expect(refusal(() => parseBool("yes", "count"))).toEqual({ code: "invalid_parameter", param: "count", message: "count must be true or false." });
  });
});

describe("cursors", () => {
  const id = "0195f0f0-0000-7000-8000-000000000001";
  test("round trip of values, a digest and nulls", () => {
    const c = { sig: "title:+", values: [{ v: "Alpha" }, { v: 3 }, { v: null }], id };
    expect(decodeCursor(encodeCursor(c), "after")).toEqual(c);
    const d = { sig: "s", values: [{ d: "digest" }], id };
    expect(decodeCursor(encodeCursor(d), "before")).toEqual(d);
  });
  const bad: [string, string][] = [
    ["", "empty"],
    ["not base64!", "bad characters"],
    [Buffer.from("[1,2]").toString("base64url"), "wrong shape"],
    [Buffer.from(JSON.stringify(["s", [1], "nope"])).toString("base64url"), "id not a UUID"],
    [Buffer.from(JSON.stringify(["s", [1, 2, 3, 4], id])).toString("base64url"), "four values"],
    [Buffer.from(JSON.stringify(["s", [{ x: 1 }], id])).toString("base64url"), "an object value"],
    ["a".repeat(2049), "too long"],
  ];
  for (const [raw, why] of bad) {
    test(`refuses a cursor: ${why}`, () => {
      expect(refusal(() => decodeCursor(raw, "before"))).toEqual({ code: "invalid_cursor", param: "before", message: "The cursor is not valid." });
    });
  }
});
