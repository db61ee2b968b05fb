// The form of one field, for `Add field` and `Edit`: label, namespace, type, list item type,
// relation target, enum values, required and the kind's rules (field-settings.tsx). Which inputs
// show follows the type.
import { useState, type FormEvent } from "react";
import { KIND_WORDS, type FieldInput } from "../../api/model-admin.ts";
import type { Field, FieldType, Model } from "../../api/types.ts";

/** The kinds a list's items may be (every kind but a list). */
type ArrayType = NonNullable<Field["arrayType"]>;
import { FieldSettings, settingsBody, settingsOf } from "./field-settings.tsx";
import { useLocales } from "../../api/locales.ts";
import { useProject } from "../shell/project-context.ts";

function slugOf(label: string): string {
  return label
    .trim()
    .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))
    .replace(/^[A-Z]/, (c) => c.toLowerCase());
}

/** The form; `initial` is the field being edited, if any. `error` is the server's refusal to show. */
export function FieldForm(props: {
  models: Model[];
  initial?: Field;
  busy: boolean;
  submitWord: string;
  error: { field: string | null; message: string } | null;
  onSubmit(f: FieldInput): void;
  onCancel(): void;
  /** The model's fields, for a slug's source (its text fields other than this one). */
  fields?: Field[];
}) {
  const i = props.initial;
  const [label, setLabel] = useState(i?.label ?? "");
  const [namespace, setNamespace] = useState(i?.namespace ?? "");
  const [touched, setTouched] = useState(Boolean(i));
  const [type, setType] = useState<FieldType>(i?.type ?? "string");
  const [arrayType, setArrayType] = useState<ArrayType>(i?.arrayType ?? "string");
  const [relation, setRelation] = useState(i?.relation ?? props.models[0]?.id ?? "");
  const [values, setValues] = useState((i?.options?.values ?? []).join("\n"));
  const [required, setRequired] = useState(i?.required ?? false);
  const [settings, setSettings] = useState(() => settingsOf(i));
  // `Localized` shows only where the project has more than one locale (issue 28).
  const { project } = useProject();
  const manyLocales = (useLocales(project.id).data?.locales.length ?? 1) > 1;
  const [localized, setLocalized] = useState(i?.localized === true);
  const kind = type === "array" ? arrayType : type;
  const at = (f: string) => (props.error?.field?.endsWith(f) ? props.error.message : null);
  const nsError = at(".namespace");
  const valuesError = at(".options.values");
  const settingError = ["unique", "min", "max", "minLength", "maxLength", "pattern", "patternMessage", "help", "slug"].some((n) => at(`.${n}`));

  function submit(e: FormEvent) {
    e.preventDefault();
    props.onSubmit({
      ...(i ? { id: i.id } : {}),
      namespace: namespace.trim(),
      label: label.trim() || null,
      type,
      arrayType: type === "array" ? arrayType : null,
      relation: kind === "relation" ? relation : null,
      required,
      options:
        kind === "enum"
          ? {
              values: values
                .split("\n")
                .map((v) => v.trim())
                .filter(Boolean),
            }
          : null,
      ...settingsBody(settings, type, Boolean(i)),
      ...(manyLocales ? { localized } : {}),
    });
  }
  const kinds = Object.entries(KIND_WORDS) as [FieldType, string][];
  return (
    <form className="form-stack" onSubmit={submit}>
      <div className="field">
        <label htmlFor="field-label">Label</label>
        <input
          id="field-label"
          value={label}
          onChange={(e) => {
            setLabel(e.target.value);
            if (!touched) setNamespace(slugOf(e.target.value));
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="field-namespace">Namespace</label>
        <input
          id="field-namespace"
          className="mono"
          required
          value={namespace}
          onChange={(e) => {
            setTouched(true);
            setNamespace(e.target.value);
          }}
          aria-invalid={nsError ? true : undefined}
          aria-describedby={nsError ? "field-namespace-error" : undefined}
        />
        {nsError && (
          <p className="error" id="field-namespace-error">
            {nsError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="field-kind">Type</label>
        <select id="field-kind" value={type} onChange={(e) => setType(e.target.value as FieldType)}>
          {kinds.map(([k, w]) => (
            <option key={k} value={k}>
              {w}
            </option>
          ))}
        </select>
      </div>
      {type === "array" && (
        <div className="field">
          <label htmlFor="field-item-kind">Item type</label>
          <select id="field-item-kind" value={arrayType} onChange={(e) => setArrayType(e.target.value as ArrayType)}>
            {kinds
              .filter(([k]) => k !== "array")
              .map(([k, w]) => (
                <option key={k} value={k}>
                  {w}
                </option>
              ))}
          </select>
        </div>
      )}
      {kind === "relation" && (
        <div className="field">
          <label htmlFor="field-relation">Related model</label>
          <select id="field-relation" value={relation} onChange={(e) => setRelation(e.target.value)}>
            {props.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {kind === "enum" && (
        <div className="field">
          <label htmlFor="field-values">Values</label>
          <textarea
            id="field-values"
            value={values}
            onChange={(e) => setValues(e.target.value)}
            aria-describedby="field-values-hint"
            aria-invalid={valuesError ? true : undefined}
          />
          <p className="hint" id="field-values-hint">
            One value a line.
          </p>
          {valuesError && <p className="error">{valuesError}</p>}
        </div>
      )}
      <label>
        <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} /> Required
      </label>
      {manyLocales && (
        <div className="field">
          <label>
            <input type="checkbox" checked={localized} onChange={(e) => setLocalized(e.target.checked)} aria-describedby="field-localized-hint" /> Localized
          </label>
          <p className="hint" id="field-localized-hint">
            One value per locale. Turning it on or off on a model with entries shows what is kept and dropped before anything changes.
          </p>
        </div>
      )}
      <FieldSettings
        type={type}
        list={type === "array"}
        value={settings}
        onChange={setSettings}
        texts={(props.fields ?? []).filter((f) => f.id !== i?.id && ["string", "markdown", "html", "code"].includes(f.type))}
        at={at}
      />
      {props.error && !nsError && !valuesError && !settingError && (
        <p role="alert" className="form-error">
          {props.error.message}
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={props.busy}>
          {props.submitWord}
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
