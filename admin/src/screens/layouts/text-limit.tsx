// A text input (or textarea) that holds at most `max` characters: more is refused as the person
// types or pastes, a counter says how many are used, and a server refusal is shown under it.

/** What a limited text input needs: its label, value, limit and a refusal naming it, if any. */
export interface TextLimitProps {
  id: string;
  label: string;
  value: string;
  max: number;
  multiline?: boolean;
  error?: string | null;
  onChange(v: string): void;
}

/** A labelled input with a character counter that refuses text past `max`. */
export function TextLimit(p: TextLimitProps) {
  const countId = `${p.id}-count`;
  const errorId = `${p.id}-error`;
  const full = p.value.length >= p.max;
  const props = {
    id: p.id,
    value: p.value,
    maxLength: p.max,
    "aria-invalid": p.error ? true : undefined,
    "aria-describedby": p.error ? `${countId} ${errorId}` : countId,
    // maxLength stops typing; the slice also stops text set by a script or a paste that slips past it.
    onChange: (e: { target: { value: string } }) => p.onChange(e.target.value.slice(0, p.max)),
  };
  return (
    <div className="field">
      <label htmlFor={p.id}>{p.label}</label>
      {p.multiline ? <textarea rows={2} {...props} /> : <input type="text" {...props} />}
      <span className={full ? "hint limit-reached" : "hint"} id={countId}>
        {full ? `${p.value.length} of ${p.max} characters: the limit` : `${p.value.length} of ${p.max} characters`}
      </span>
      {p.error && (
        <span className="error" id={errorId}>
          {p.error}
        </span>
      )}
    </div>
  );
}
