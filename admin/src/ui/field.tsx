// One labelled field: the label, the control, its hint and the server's refusal, wired for
// screen readers (the control is described by its hint and, when there is one, the refusal).
// The control comes from the caller, which spreads `aria` onto it.
import type { ReactNode } from "react";

/** What the control needs: its id and the descriptions the field wires to it. */
export interface FieldAria {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
}

export function Field(props: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Shown between the hint and the refusal (a notice of the field's own, such as a failed list). */
  extra?: ReactNode;
  children(aria: FieldAria): ReactNode;
}) {
  const described = [props.hint ? `${props.id}-hint` : null, props.error ? `${props.id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({ id: props.id, "aria-describedby": described || undefined, "aria-invalid": props.error ? true : undefined })}
      {props.hint && (
        <p className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.extra}
      {props.error && (
        <p className="error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}
