// The `New key` form: name, a preset or custom scopes, environment, API version, expiry and
// allowed origins.
// The secret comes back once from the mint; the origins are set right after by their own route.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, ApiError, keys } from "../../api/client.ts";
import { useProject } from "../shell/project-context.ts";
import { keyApi, type MintedKey, type NewKey } from "../../api/keys.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { ExpiresField } from "./expires-field.tsx";
import { ScopePicker, scopesOf, type Access } from "./scope-picker.tsx";
import { VersionField, useVersions } from "./version-field.tsx";
import { OriginsField } from "./origins-field.tsx";

/**
 * The sentence to show at `Access` when the server refused the scopes: a scope that is not one a
 * key can hold (`scopes[i]`), or one the person does not hold (403 scope_not_held, naming it).
 */
export function scopeRefusal(error: Error | null): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === "scope_not_held") return `${error.message}: ${String(error.body?.scope ?? "")}`;
  return error.field === "scopes" || error.field?.startsWith("scopes[") ? error.message : null;
}

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
  const [access, setAccess] = useState<Access>({ access: "read_only", scopes: new Set(), limit: "" });
  const versions = useVersions();
  // Empty until the list arrives: the newest version, as the server would pin by itself.
  const [version, setVersion] = useState("");
  const pinned = version || versions.data?.current || "";
  const [environment, setEnvironment] = useState<"production" | "development">("production");
  const [expires, setExpires] = useState("");
  const [origins, setOrigins] = useState("");
  const [originError, setOriginError] = useState<string | null>(null);
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
    if (access.access === "custom") key.scopes = scopesOf(access, grantable.data?.presets ?? []);
    else key.preset = access.access;
    if (pinned) key.apiVersion = pinned;
    if (expires) key.expiresAt = new Date(expires).toISOString();
    mint.mutate({ key, origins: list });
  }

  if (grantable.isError) return <Refusal error={grantable.error} />;
  const scopeError = scopeRefusal(mint.error) ?? fieldError("preset");
  const expiryError = fieldError("expiresAt");
  const versionError = fieldError("apiVersion");
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} placeholder="Website" />
      </div>
      <ScopePicker id="key" grantable={grantable.data} models={models.data} value={access} onChange={setAccess} error={scopeError} />
      <div className="field">
        <label htmlFor="key-env">Environment</label>
        <select id="key-env" value={environment} onChange={(e) => setEnvironment(e.target.value as "production" | "development")}>
          <option value="production">Production</option>
          <option value="development">Development</option>
        </select>
      </div>
      <VersionField id="key-version" value={pinned} onChange={setVersion} error={versionError} />
      <ExpiresField id="key-expires" value={expires} onChange={setExpires} error={expiryError} />
      <OriginsField id="key-origins" value={origins} onChange={setOrigins} error={originError} />
      {mint.error && !scopeError && !expiryError && !versionError && <Refusal error={mint.error} />}
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
