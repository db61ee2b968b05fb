// Adding a locale: its BCP 47 code, a name (empty: the server names the language) and the first
// locale it falls back to (the default, unless "none" is chosen).
import { useState, type FormEvent } from "react";
import type { Locale, Locales } from "../../api/locales.ts";

export function AddLocaleForm(props: { locales: Locales; busy: boolean; error: string | null; onAdd(l: Omit<Locale, "name"> & { name?: string }): void }) {
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [fallback, setFallback] = useState(props.locales.default);
  function submit(e: FormEvent) {
    e.preventDefault();
    // Without a name the server names the language (German for de), so none is sent.
    // The form is cleared by the screen after the locale is saved (it is mounted afresh), so a
    // refused code stays in the field to be corrected.
    props.onAdd({ code: code.trim(), ...(name.trim() ? { name: name.trim() } : {}), fallback: fallback ? [fallback] : [] });
  }
  return (
    <form className="card form-stack screen-section" onSubmit={submit} aria-labelledby="add-locale-title">
      <h2 id="add-locale-title">Add a locale</h2>
      <div className="field">
        <label htmlFor="locale-code">Code</label>
        <input
          id="locale-code"
          className="mono"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-describedby={props.error ? "locale-code-hint locale-code-error" : "locale-code-hint"}
          aria-invalid={props.error ? true : undefined}
        />
        <p className="hint" id="locale-code-hint">
          A language tag such as de, de-CH or pt-BR.
        </p>
        {props.error && (
          <p className="error" id="locale-code-error">
            {props.error}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="locale-name">Name</label>
        <input id="locale-name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="locale-name-hint" />
        <p className="hint" id="locale-name-hint">
          Empty: the language's English name.
        </p>
      </div>
      <div className="field">
        <label htmlFor="locale-fallback">First fallback</label>
        <select id="locale-fallback" value={fallback} onChange={(e) => setFallback(e.target.value)}>
          <option value="">Nothing</option>
          {props.locales.locales.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name} ({l.code})
            </option>
          ))}
        </select>
      </div>
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={props.busy}>
          Add locale
        </button>
      </div>
    </form>
  );
}
