// A secret the server shows once (an API key, a webhook signing secret, an invitation token):
// read-only, selectable, with a Copy button, and a sentence saying it will not be shown again.
import { useState } from "react";

/** Shows `secret` once under `title`; `onDone` hides it for good. */
export function SecretOnce(props: { title: string; label: string; secret: string; note?: string; onDone(): void }) {
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("The browser refused the clipboard; select the text and copy it.");
    }
  }
  return (
    <section className="card secret-once" aria-labelledby="secret-title">
      <h2 id="secret-title">{props.title}</h2>
      <p>Copy it now: it is shown only this once and cannot be read again.</p>
      <div className="field">
        <label htmlFor="secret-value">{props.label}</label>
        <div className="secret-row">
          <input id="secret-value" className="mono grow" readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="btn" onClick={() => void copy()}>
            Copy
          </button>
        </div>
      </div>
      <p aria-live="polite" className="muted">
        {copied}
      </p>
      {props.note && <p>{props.note}</p>}
      <button type="button" className="btn btn-primary" onClick={props.onDone}>
        Done
      </button>
    </section>
  );
}
