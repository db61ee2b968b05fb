// The `Allowed origins` input of a key, shared by the new-key form and the edit dialog, as
// ExpiresField and VersionField are: one origin a line, the server's refusal beside it.

/** The field; `id` names the textarea (its hint is `${id}-hint`). */
export function OriginsField(props: { id: string; value: string; onChange(v: string): void; error?: string | null }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Allowed origins</label>
      <textarea
        id={props.id}
        className="mono"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={`${props.id}-hint`}
        aria-invalid={props.error ? true : undefined}
      />
      <p className="hint" id={`${props.id}-hint`}>
        One origin a line, such as https://example.com. Empty: browsers on any site may use the key.
      </p>
      {props.error && <p className="error">{props.error}</p>}
    </div>
  );
}
