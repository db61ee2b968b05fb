// The `Allowed origins` input of a key, shared by the new-key form and the edit dialog, as
// ExpiresField and VersionField are: one origin a line, the server's refusal beside it.
import { Field } from "../../ui/field.tsx";

/** The field; `id` names the textarea (its hint is `${id}-hint`). */
export function OriginsField(props: { id: string; value: string; onChange(v: string): void; error?: string | null }) {
  return (
    <Field
      id={props.id}
      label="Allowed origins"
      hint="One origin a line, such as https://example.com. Empty: browsers on any site may use the key."
      error={props.error}
    >
      {(aria) => <textarea {...aria} className="mono" value={props.value} onChange={(e) => props.onChange(e.target.value)} />}
    </Field>
  );
}
