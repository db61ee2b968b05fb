// A `code` field: CodeMirror (its own chunk, loaded when a form has such a field), with a plain
// read-only text area while it loads.
import { lazy, Suspense } from "react";
import { type FieldKind, type InputProps, TEXT_SETTINGS, aria, shortText } from "../types.ts";
import { textOf } from "../pending-text.ts";

const CodeEditor = lazy(() => import("../code-editor.tsx"));

/** A code editor for `language`, labelled by the field's label. */
export function CodeInput({ language, ...p }: InputProps & { language: "markdown" | "html" | "javascript" | "json" }) {
  const text = textOf(p.value);
  return (
    <Suspense fallback={<textarea className="mono" {...aria(p)} aria-labelledby={p.labelId} readOnly value={text} />}>
      <CodeEditor id={p.id} language={language} labelId={p.labelId} describedBy={p.describedBy} value={text} onChange={p.onChange} />
    </Suspense>
  );
}

export const codeKind: FieldKind = {
  Input: (p) => <CodeInput {...p} language="javascript" />,
  Cell: ({ value }) => <span className="mono">{shortText(value, 40)}</span>,
  settings: TEXT_SETTINGS,
  empty: () => "",
  labelling: "group",
  counts: true,
};
