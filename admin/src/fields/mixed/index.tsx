// A `mixed` field: JSON edited as text in the code editor, sent as the parsed value once it parses
// (the last valid value is kept while it does not, and the field says so).
import { lazy, Suspense, useState } from "react";
import { type FieldKind, type InputProps, aria, shortText } from "../types.ts";

const CodeEditor = lazy(() => import("../code-editor.tsx"));

function MixedInput(p: InputProps) {
  const [draft, setDraft] = useState(() => (p.value === null || p.value === undefined ? "" : JSON.stringify(p.value, null, 2)));
  const [bad, setBad] = useState(false);
  return (
    <>
      <Suspense fallback={<textarea className="mono" {...aria(p)} aria-labelledby={p.labelId} readOnly value={draft} />}>
        <CodeEditor
          language="json"
          labelId={p.labelId}
          describedBy={p.describedBy}
          value={draft}
          onChange={(t) => {
            setDraft(t);
            try {
              p.onChange(t.trim() === "" ? null : JSON.parse(t));
              setBad(false);
            } catch {
              setBad(true);
            }
          }}
        />
      </Suspense>
      {bad && <span className="hint">Not valid JSON yet; the last valid value is kept.</span>}
    </>
  );
}

export const mixedKind: FieldKind = {
  Input: MixedInput,
  Cell: ({ value }) => <span className="mono">{shortText(value, 40)}</span>,
  settings: ["default", "help"],
  empty: () => null,
  labelling: "group",
};
