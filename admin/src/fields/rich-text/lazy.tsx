// The rich text input of markdown and html fields, as the form sees it: the editor's chunk
// (ProseMirror, and CodeMirror for the source view) loads when the first such field is shown;
// until then a read-only text area holds the stored text.
import { lazy, Suspense } from "react";
import type { InputProps } from "../types.ts";
import { textOf } from "../pending-text.ts";
import { aria } from "../types.ts";

const RichTextEditor = lazy(() => import("./rich-text-editor.tsx"));

/** What stands in while the editor loads; a component, so the text is worked out only if it is shown. */
function Loading(p: InputProps) {
  return <textarea className="mono" {...aria(p)} aria-labelledby={p.labelId} readOnly value={textOf(p.value)} />;
}

/** A rich text input for a `markdown` or `html` field. */
export function RichTextInput(p: InputProps & { format: "markdown" | "html" }) {
  return (
    <Suspense fallback={<Loading {...p} />}>
      <RichTextEditor {...p} />
    </Suspense>
  );
}

/** The text of a rich value in a few words: its markup left out. */
export function plainExcerpt(v: unknown, format: "markdown" | "html", max = 80): string {
  const text = textOf(v);
  if (!text) return "—";
  const plain = (format === "html" ? text.replace(/<[^>]*>/g, " ") : text.replace(/[#>*_`[\]()!-]+/g, " ")).replace(/\s+/g, " ").trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain || "—";
}
