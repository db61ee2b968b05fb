// The field-kind table: for each kind of field, the input that edits one value of it. Arrays
// repeat the input of their item kind. Heavy editors (markdown, html, code, mixed JSON) load
// CodeMirror only when an entry that has such a field is opened.
import { lazy, Suspense, useState, type ReactNode } from "react";
import type { Field, FieldType, LayoutField, Model } from "../api/types.ts";
import { RelationInput } from "./relation-input.tsx";
import { MediaInput } from "./media-input.tsx";

const CodeEditor = lazy(() => import("./code-editor.tsx"));
const MarkdownPreview = lazy(() => import("./markdown-preview.tsx"));

/** Markdown: the code editor, and a Preview switch that shows the rendered text below it. */
function MarkdownInput(p: InputProps) {
  const [preview, setPreview] = useState(false);
  const source = typeof p.value === "string" ? p.value : "";
  const label = p.field.label?.trim() || p.field.namespace;
  return (
    <>
      {code("markdown")(p)}
      <div>
        <button type="button" className="btn btn-quiet" aria-pressed={preview} aria-label={`Preview ${label}`} onClick={() => setPreview(!preview)}>
          Preview
        </button>
      </div>
      {preview && (
        <Suspense fallback={<p className="muted">Loading preview…</p>}>
          <MarkdownPreview source={source} label={label} />
        </Suspense>
      )}
    </>
  );
}

/** What every input gets: the field, its value, a setter, and the ids that tie it to its label and error. */
export interface InputProps {
  field: Field;
  value: unknown;
  onChange(v: unknown): void;
  id: string;
  labelId: string;
  errorId: string | undefined;
  invalid: boolean;
  models: Model[];
  projectId: string;
  /** How the layout shows a relation field: a picker (the default), inline links, or embedded fields. */
  display?: LayoutField["display"];
}

type Input = (p: InputProps) => ReactNode;

const aria = (p: InputProps) => ({
  id: p.id,
  "aria-invalid": p.invalid || undefined,
  "aria-describedby": p.errorId,
  "aria-required": p.field.required || undefined,
});

const text: Input = (p) => <input type="text" {...aria(p)} value={typeof p.value === "string" ? p.value : ""} onChange={(e) => p.onChange(e.target.value)} />;

function code(language: "markdown" | "html" | "javascript" | "json"): Input {
  return (p) => (
    <Suspense fallback={<textarea className="mono" {...aria(p)} readOnly value={typeof p.value === "string" ? p.value : ""} />}>
      <CodeEditor language={language} labelId={p.labelId} errorId={p.errorId} value={typeof p.value === "string" ? p.value : ""} onChange={p.onChange} />
    </Suspense>
  );
}

/** Mixed JSON: edited as text, sent as the parsed value once it parses. */
function MixedInput(p: InputProps) {
  const [draft, setDraft] = useState(() => (p.value === null || p.value === undefined ? "" : JSON.stringify(p.value, null, 2)));
  const [bad, setBad] = useState(false);
  return (
    <>
      <Suspense fallback={<textarea className="mono" {...aria(p)} readOnly value={draft} />}>
        <CodeEditor
          language="json"
          labelId={p.labelId}
          errorId={p.errorId}
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

/** Media: a file of the project's library, chosen or uploaded, with the field's alt text. */
const media: Input = (p) => <MediaInput {...p} />;

/** The input of each field kind; `array` is built from its item kind below. */
export const FIELD_INPUTS: Record<Exclude<FieldType, "array">, Input> = {
  string: text,
  markdown: (p) => <MarkdownInput {...p} />,
  html: code("html"),
  code: code("javascript"),
  mixed: (p) => <MixedInput {...p} />,
  enum: (p) => (
    <select {...aria(p)} value={typeof p.value === "string" ? p.value : ""} onChange={(e) => p.onChange(e.target.value || null)}>
      <option value="">None</option>
      {(p.field.options?.values ?? []).map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </select>
  ),
  color: (p) => <input type="color" {...aria(p)} value={typeof p.value === "string" ? p.value : "#000000"} onChange={(e) => p.onChange(e.target.value)} />,
  number: (p) => (
    <input
      type="number"
      step="any"
      {...aria(p)}
      value={typeof p.value === "number" ? String(p.value) : ""}
      onChange={(e) => p.onChange(e.target.value === "" ? null : Number(e.target.value))}
    />
  ),
  true_false: (p) => <input type="checkbox" {...aria(p)} checked={p.value === true} onChange={(e) => p.onChange(e.target.checked)} />,
  date: (p) => (
    <input
      type="text"
      inputMode="numeric"
      placeholder="YYYY-MM-DD"
      {...aria(p)}
      value={typeof p.value === "string" ? p.value : ""}
      onChange={(e) => p.onChange(e.target.value || null)}
    />
  ),
  relation: (p) => <RelationInput {...p} />,
  image: media,
  video: media,
  file: media,
};

/** An array field: one input of the item kind per value, each with Remove, and Add. */
function ArrayInput(p: InputProps) {
  const items = Array.isArray(p.value) ? (p.value as unknown[]) : [];
  const kind = (p.field.arrayType ?? "string") as Exclude<FieldType, "array">;
  const item = FIELD_INPUTS[kind];
  const itemField: Field = { ...p.field, type: kind, arrayType: null, required: false };
  const label = p.field.label?.trim() || p.field.namespace;
  return (
    <fieldset className="array-items" aria-labelledby={p.labelId} aria-describedby={p.errorId}>
      {items.map((v, i) => (
        // Items have no ids of their own; the position is their identity while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div className="array-item" key={i}>
          <div className="field grow">
            <label className="visually-hidden" htmlFor={`${p.id}-${i}`} id={`${p.id}-${i}-label`}>
              {`${label} ${i + 1}`}
            </label>
            {item({
              ...p,
              field: itemField,
              id: `${p.id}-${i}`,
              labelId: `${p.id}-${i}-label`,
              value: v,
              onChange: (nv) => p.onChange(items.map((x, j) => (j === i ? nv : x))),
            })}
          </div>
          <button type="button" className="btn btn-quiet" aria-label={`Remove ${label} ${i + 1}`} onClick={() => p.onChange(items.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" className="btn" aria-label={`Add to ${label}`} onClick={() => p.onChange([...items, kind === "true_false" ? false : null])}>
          Add
        </button>
      </div>
    </fieldset>
  );
}

/** The input for any field. */
export function FieldInput(p: InputProps) {
  if (p.field.type === "array") return <ArrayInput {...p} />;
  return <>{FIELD_INPUTS[p.field.type](p)}</>;
}
