// The second column of the side-by-side view: a localized field's value in another locale,
// read-only, with "Fill from <code>" copying it into the locale being edited (decided in
// docs/admin.md: the other column is for reading; one form writes one locale). Memoised with
// stable props, so typing in the form does not render it again.
import { memo } from "react";
import { labelOf } from "../../api/models.ts";
import type { Field, Model } from "../../api/types.ts";
import { kindOf } from "../../fields/table.ts";

const TEXT_KINDS = new Set(["string", "markdown", "code", "enum", "color"]);

/** Whether a value counts as empty (what the server stores as no value in a locale). */
export function blank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);
}

export const BesideValue = memo(function BesideValue(props: {
  field: Field;
  value: unknown;
  code: string;
  name: string;
  models: Model[];
  readOnly: boolean;
  onFill(ns: string, v: unknown): void;
}) {
  const { field: f, value } = props;
  const label = labelOf(f);
  const Cell = kindOf(f).Cell;
  const empty = blank(value);
  return (
    <section className="locale-beside" aria-label={`${label} in ${props.name} (${props.code})`}>
      <p className="label">
        {label} in {props.name} <span className="mono">({props.code})</span>
      </p>
      <div className="beside-value">
        {empty ? (
          <span className="muted">Empty</span>
        ) : TEXT_KINDS.has(f.type) && typeof value === "string" ? (
          value
        ) : (
          <Cell field={f} value={value} models={props.models} />
        )}
      </div>
      {!props.readOnly && !empty && (
        <div>
          <button type="button" className="btn" aria-label={`Fill ${label} from ${props.code}`} onClick={() => props.onFill(f.namespace, value)}>
            Fill from {props.code}
          </button>
        </div>
      )}
    </section>
  );
});
