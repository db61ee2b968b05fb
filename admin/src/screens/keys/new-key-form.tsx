// The `New key` form: name, a preset or custom scopes, environment, expiry and allowed origins.
// The secret comes back once from the mint; the origins are set right after by their own route.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, ApiError, keys } from "../../api/client.ts";
import { useProject } from "../shell/project-context.ts";
import { keyApi, type MintedKey, type NewKey } from "../../api/keys.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { ExpiresField } from "./expires-field.tsx";

/** The words people read for each preset of decisions.md 5. */
export const PRESET_WORDS: Record<string, string> = {
  read_only: "Read only",
  content_writer: "Content writer",
  full_integration: "Full integration",
  schema_builder: "Schema builder",
};

/** Parses the origins text (one a line); answers the list or the sentence saying which line is wrong. */
export function parseOrigins(text: string): string[] | string {
  const out: string[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line) continue;
    let u: URL | null = null;
    try {
      u = new URL(line);
    } catch {
      u = null;
    }
    if (!u || !["http:", "https:"].includes(u.protocol) || u.origin !== line.replace(/\/$/, ""))
      return `“${line}” is not an origin such as https://example.com (no path).`;
    out.push(u.origin);
  }
  return out;
}

/** The form; `onMinted` receives the answer holding the secret. */
export function NewKeyForm(props: { onMinted(key: MintedKey): void; onCancel(): void }) {
  const grantable = useQuery({ queryKey: ["api-keys-grantable"], queryFn: keyApi.grantable });
  const [name, setName] = useState("");
  const [access, setAccess] = useState("read_only");
  const [scopes, setScopes] = useState<Set<string>>(new Set());
  const [environment, setEnvironment] = useState<"production" | "development">("production");
  const [expires, setExpires] = useState("");
  const [origins, setOrigins] = useState("");
  const [originError, setOriginError] = useState<string | null>(null);
  const [limit, setLimit] = useState("");
  const { project } = useProject();
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });

  const mint = useMutation({
    mutationFn: async (input: { key: NewKey; origins: string[] }) => {
      const minted = await keyApi.mint(input.key);
      if (input.origins.length) await keyApi.origins(minted.id, input.origins);
      return minted;
    },
    onSuccess: props.onMinted,
  });
  const fieldError = (f: string) => (mint.error instanceof ApiError && mint.error.field === f ? mint.error.message : null);

  function submit(e: FormEvent) {
    e.preventDefault();
    const list = parseOrigins(origins);
    if (typeof list === "string") return setOriginError(list);
    setOriginError(null);
    const key: NewKey = { name: name.trim() || "API key", environment };
    // Instance and model scopes can name one model (resource:action:<model id>, decisions.md 5).
    if (access === "custom") key.scopes = [...scopes].map((sc) => (limit && /^(instance|model):/.test(sc) ? `${sc}:${limit}` : sc));
    else key.preset = access;
    if (expires) key.expiresAt = new Date(expires).toISOString();
    mint.mutate({ key, origins: list });
  }

  if (grantable.isError) return <Refusal error={grantable.error} />;
  const scopeError = fieldError("scopes") ?? fieldError("preset");
  const expiryError = fieldError("expiresAt");
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} placeholder="Website" />
      </div>
      <div className="field">
        <label htmlFor="key-access">Access</label>
        <select id="key-access" value={access} onChange={(e) => setAccess(e.target.value)} aria-invalid={scopeError ? true : undefined}>
          {grantable.data?.presets.map((p) => (
            <option key={p.name} value={p.name} disabled={!p.grantable}>
              {PRESET_WORDS[p.name] ?? p.name}
              {p.grantable ? "" : " (beyond your role)"}
            </option>
          ))}
          <option value="custom">Custom scopes</option>
        </select>
        {scopeError && <p className="error">{scopeError}</p>}
      </div>
      {access === "custom" && (
        <fieldset className="scope-grid">
          <legend>Scopes</legend>
          {grantable.data?.scopes
            .filter((s) => s.held)
            .map((s) => (
              <label key={s.scope}>
                <input
                  type="checkbox"
                  checked={scopes.has(s.scope)}
                  onChange={() => {
                    const next = new Set(scopes);
                    if (!next.delete(s.scope)) next.add(s.scope);
                    setScopes(next);
                  }}
                />{" "}
                <span className="mono">{s.scope}</span>
              </label>
            ))}
        </fieldset>
      )}
      {access === "custom" && (
        <div className="field">
          <label htmlFor="key-limit">Limit entry and model scopes to</label>
          <select id="key-limit" value={limit} onChange={(e) => setLimit(e.target.value)}>
            <option value="">Every model</option>
            {models.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor="key-env">Environment</label>
        <select id="key-env" value={environment} onChange={(e) => setEnvironment(e.target.value as "production" | "development")}>
          <option value="production">Production</option>
          <option value="development">Development</option>
        </select>
      </div>
      <ExpiresField id="key-expires" value={expires} onChange={setExpires} error={expiryError} />
      <div className="field">
        <label htmlFor="key-origins">Allowed origins</label>
        <textarea
          id="key-origins"
          className="mono"
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
          aria-describedby="key-origins-hint"
          aria-invalid={originError ? true : undefined}
        />
        <p className="hint" id="key-origins-hint">
          One origin a line, such as https://example.com. Empty: browsers on any site may use the key.
        </p>
        {originError && <p className="error">{originError}</p>}
      </div>
      {mint.error && !scopeError && !expiryError && <Refusal error={mint.error} />}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={mint.isPending}>
          Create key
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
