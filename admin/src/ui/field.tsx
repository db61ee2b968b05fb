// One labelled field, the form kit's shell (issue 26 item 4): the label (a `<label for>` on one
// control, or the name of a group), the required mark, the control, its help text, its character
// count and the server's refusal under it, wired for screen readers (the control is described by
// the help, the count and, when there is one, the refusal). The control comes from the caller,
// which spreads `aria` onto it; a group names itself with `labelId`.
import type { ReactNode } from "react";

/** What the control needs: its id and the descriptions the field wires to it. */
export interface FieldAria {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
}

/** A character count and its bounds. */
export interface Count {
  length: number;
  min?: number | null;
  max?: number | null;
}

function countWords(c: Count): string {
  const n = `${c.length.toLocaleString("en")} ${c.length === 1 ? "character" : "characters"}`;
  if (c.max) return `${c.length.toLocaleString("en")} of ${c.max.toLocaleString("en")} characters${c.min ? `, at least ${c.min.toLocaleString("en")}` : ""}`;
  return c.min ? `${n}, at least ${c.min.toLocaleString("en")}` : n;
}

export function Field(props: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Shown between the hint and the refusal (a notice of the field's own, such as a failed list). */
  extra?: ReactNode;
  /** Marks the field required (a star beside the label; the control says it with aria-required). */
  required?: boolean;
  count?: Count | null;
  /** `group`: the label names a group (by its id) instead of one control. */
  labelling?: "for" | "group";
  className?: string;
  children(aria: FieldAria, labelId: string): ReactNode;
}) {
  const labelId = `${props.id}-label`;
  const over = props.count && ((props.count.max && props.count.length > props.count.max) || (props.count.min && props.count.length < props.count.min));
  const described = [props.hint ? `${props.id}-hint` : null, props.count ? `${props.id}-count` : null, props.error ? `${props.id}-error` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={props.className ? `field ${props.className}` : "field"}>
      {/* The star sits outside the label, so the control's name is exactly the label. */}
      <span className="label-row">
        {props.labelling === "group" ? (
          <span className="label" id={labelId}>
            {props.label}
          </span>
        ) : (
          <label htmlFor={props.id} id={labelId}>
            {props.label}
          </label>
        )}
        {props.required && (
          <span className="required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      {props.children({ id: props.id, "aria-describedby": described || undefined, "aria-invalid": props.error ? true : undefined }, labelId)}
      {props.hint && (
        <p className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.count && (
        <p className={over ? "hint count over" : "hint count"} id={`${props.id}-count`}>
          {countWords(props.count)}
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
