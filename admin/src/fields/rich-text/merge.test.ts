// The rich text editor's promise, without a browser: a Markdown text opened and saved without an
// edit is the stored text byte for byte, and an edit changes only what was edited, however the
// stored text was written (`*` or `-` bullets, `__bold__`, `_em_`, Setext headings, raw HTML,
// hard-wrapped lines, trailing spaces). The HTML side runs in the browser test.
import { describe, expect, test } from "bun:test";
import { merge3 } from "./merge.ts";
import { markdownFormat } from "./formats.ts";
import { SourceKeeper } from "./keep-source.ts";
import { Transform } from "prosemirror-transform";

const STORED = [
  "Intro line  ",
  "=====",
  "",
  "Some __bold__ and _em_ text, wrapped",
  "by hand at an odd place.",
  "",
  "- first point",
  "- second point",
  "",
  '<div class="note">Raw <b>HTML</b></div>',
  "",
  "1) one",
  "2) two",
  "",
  "Last paragraph with a [link](https://example.com 'title').",
  "",
].join("\n");

/** The document with the first occurrence of `from` replaced by `to` in a text node. */
function edit(k: SourceKeeper, from: string, to: string) {
  let at = -1;
  k.doc.descendants((n, pos) => {
    if (at < 0 && n.isText && n.text!.includes(from)) at = pos + n.text!.indexOf(from);
    return at < 0;
  });
  expect(at).toBeGreaterThan(-1);
  return new Transform(k.doc).replaceWith(at, at + from.length, k.doc.type.schema.text(to)).doc;
}

describe("merge3", () => {
  test("keeps both sides where they do not touch, and the edit where they do", () => {
    expect(merge3("a b c", "A b c", "a b C")).toBe("A b C");
    expect(merge3("a b c", "a b c", "a x c")).toBe("a x c");
    expect(merge3("a b c", "a B c", "a b c")).toBe("a B c");
    // Both changed the same word: the edit wins there.
    expect(merge3("a b c", "a B c", "a x c")).toBe("a x c");
  });
});

describe("Markdown kept as stored", () => {
  test("opened and saved without an edit: byte for byte", () => {
    const k = new SourceKeeper(markdownFormat, STORED);
    expect(k.textOf(k.doc)).toBe(STORED);
    // A document equal to the one opened (say, typed and undone) is the stored text too.
    expect(k.textOf(markdownFormat.parse(STORED))).toBe(STORED);
  });

  test("an edit changes only what was edited", () => {
    const k = new SourceKeeper(markdownFormat, STORED);
    const doc = edit(k, "second point", "second, sharper point");
    expect(k.textOf(doc)).toBe(STORED.replace("second point", "second, sharper point"));
    const doc2 = edit(k, "odd place", "odd spot");
    expect(k.textOf(doc2)).toBe(STORED.replace("odd place", "odd spot"));
    const doc3 = edit(k, "Last paragraph", "Final paragraph");
    expect(k.textOf(doc3)).toBe(STORED.replace("Last paragraph", "Final paragraph"));
  });
});
