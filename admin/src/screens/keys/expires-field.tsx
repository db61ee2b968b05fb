// The `Expires` input of a key, shared by the new-key form and the edit dialog: a wall time in
// the browser's zone, empty for a key that never expires.
import { Field } from "../../ui/field.tsx";

/** An instant as a datetime-local input shows it, in the browser's zone. */
export function localInput(isoTime: string): string {
  const d = new Date(isoTime);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The field; `id` names the input (its hint is `${id}-hint`), `error` is the server's refusal. */
export function ExpiresField(props: { id: string; value: string; onChange(v: string): void; error?: string | null }) {
  return (
    <Field id={props.id} label="Expires" hint="Empty: the key never expires." error={props.error}>
      {(aria) => <input {...aria} type="datetime-local" value={props.value} onChange={(e) => props.onChange(e.target.value)} />}
    </Field>
  );
}
