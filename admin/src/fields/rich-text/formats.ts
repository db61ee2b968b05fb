// Reading and writing a rich text field's stored text: Markdown through prosemirror-markdown
// (markdown-it, CommonMark, raw HTML read as text), HTML through the browser's own parser into
// an inert document (scripts do not run there and nothing loads) and ProseMirror's DOM
// serialiser. The Markdown side needs no DOM, so it is unit-tested in Bun.
import MarkdownIt from "markdown-it";
import { defaultMarkdownParser, defaultMarkdownSerializer, MarkdownParser, MarkdownSerializer } from "prosemirror-markdown";
import { DOMParser as PMDOMParser, DOMSerializer, type Node as PMNode } from "prosemirror-model";
import { richSchema } from "./schema.ts";

/** A stored text format: its parser and its serialiser. */
export interface Format {
  name: "markdown" | "html";
  parse(text: string): PMNode;
  serialize(doc: PMNode): string;
}

const mdParser = new MarkdownParser(richSchema, MarkdownIt("commonmark", { html: false }), defaultMarkdownParser.tokens);
const mdSerializer = new MarkdownSerializer(
  {
    ...defaultMarkdownSerializer.nodes,
    html_block(state, node) {
      state.write(node.attrs.html);
      state.closeBlock(node);
    },
  },
  defaultMarkdownSerializer.marks,
);

/** Markdown (CommonMark). */
export const markdownFormat: Format = {
  name: "markdown",
  parse: (text) => mdParser.parse(text) ?? richSchema.topNodeType.createAndFill()!,
  serialize: (doc) => mdSerializer.serialize(doc),
};

let inert: Document | null = null;
/** A document with no window: markup placed in it never runs or loads anything. */
function inertDocument(): Document {
  inert ??= document.implementation.createHTMLDocument("");
  return inert;
}

/**
 * The serialiser that saves: the schema's own, except that links, images and kept HTML are
 * written as stored (the drawing rules of schema.ts leave unsafe URLs off the page, not out of
 * the value).
 */
function saver(): DOMSerializer {
  const base = DOMSerializer.fromSchema(richSchema);
  return new DOMSerializer(
    {
      ...base.nodes,
      image: (node) => ["img", { src: node.attrs.src, alt: node.attrs.alt, title: node.attrs.title }],
      // A stand-in element, replaced by the kept markup as text once serialised (the serialiser
      // takes elements only, and the markup must come back exactly as stored).
      html_block: (node) => {
        kept.push(node.attrs.html);
        return ["capa-kept", { "data-i": String(kept.length - 1) }];
      },
    },
    { ...base.marks, link: (mark) => ["a", { href: mark.attrs.href, title: mark.attrs.title }, 0] },
  );
}

let htmlSaver: DOMSerializer | null = null;
/** The kept markup of the document being serialised, by stand-in number. */
let kept: string[] = [];
const htmlParser = PMDOMParser.fromSchema(richSchema);

/** HTML: parsed in an inert document, written with the saving serialiser. */
export const htmlFormat: Format = {
  name: "html",
  parse(text) {
    const body = new DOMParser().parseFromString(text, "text/html").body;
    return htmlParser.parse(body);
  },
  serialize(doc) {
    htmlSaver ??= saver();
    const holder = inertDocument().createElement("div");
    kept = [];
    holder.appendChild(htmlSaver.serializeFragment(doc.content, { document: inertDocument() }));
    return holder.innerHTML.replace(/<capa-kept data-i="(\d+)"><\/capa-kept>/g, (_, i: string) => kept[Number(i)]!);
  },
};
