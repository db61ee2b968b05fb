// The one document schema of rich text (markdown and html fields): CommonMark's nodes and marks
// from prosemirror-markdown, plus `html_block`, which holds a piece of HTML the editor does not
// edit (a script, an iframe, a table) as its source text, so it is shown and kept, never run.
// What the editor draws is safe: links and images get their URL only when it is one a person
// may follow (http, https, mailto, tel, or a path of this site), and nothing else is copied
// from the stored markup to the page. Saving writes the attributes as stored (see formats.ts).
import { type DOMOutputSpec, type Mark, type Node as PMNode, Schema } from "prosemirror-model";
import { schema as commonmark } from "prosemirror-markdown";

/** Whether a URL may be put on the page: http(s), mailto, tel, a same-site path, or (images) a data: picture. */
export function safeUrl(url: unknown, image = false): string | null {
  if (typeof url !== "string") return null;
  const u = url.trim();
  if (/^(https?:|mailto:|tel:)/i.test(u) || /^[/?#.]/.test(u) || !/^[a-z][a-z0-9+.-]*:/i.test(u)) return u;
  if (image && /^data:image\/(png|gif|jpeg|webp|avif);/i.test(u)) return u;
  return null;
}

/** The tags kept whole as an `html_block`: active or complex markup the editor shows as its source. */
export const RAW_TAGS = ["script", "style", "iframe", "object", "embed", "table", "form", "video", "audio", "svg", "noscript", "canvas", "template", "math"];

const nodes = commonmark.spec.nodes
  .update("image", {
    ...commonmark.spec.nodes.get("image")!,
    toDOM(node: PMNode): DOMOutputSpec {
      return ["img", { src: safeUrl(node.attrs.src, true) ?? "", alt: node.attrs.alt ?? "", title: node.attrs.title }];
    },
  })
  .addToEnd("html_block", {
    group: "block",
    atom: true,
    selectable: true,
    attrs: { html: { default: "" } },
    parseDOM: RAW_TAGS.map((tag) => ({ tag, priority: 60, getAttrs: (dom: HTMLElement) => ({ html: dom.outerHTML }) })),
    // Shown as its source, read-only: the markup itself never reaches the page.
    toDOM(node: PMNode): DOMOutputSpec {
      return ["pre", { class: "raw-html", contenteditable: "false", "aria-label": "HTML the editor keeps as it is" }, node.attrs.html];
    },
  });

const marks = commonmark.spec.marks.update("link", {
  ...commonmark.spec.marks.get("link")!,
  toDOM(mark: Mark): DOMOutputSpec {
    return ["a", { href: safeUrl(mark.attrs.href), title: mark.attrs.title, rel: "noopener noreferrer" }, 0];
  },
});

/** The schema of every rich text field. */
export const richSchema = new Schema({ nodes, marks });
