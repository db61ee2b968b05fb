// The dialogs of one key: edit (name, access, API version, expiry and allowed origins), and
// rotate with a grace period for the old secret.
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, ApiError, keys } from "../../api/client.ts";
import { keyApi, type ApiKey, type KeyPatch, type MintedKey } from "../../api/keys.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { parseOrigins, scopeRefusal } from "./new-key-form.tsx";
import { accessOf, ScopePicker, scopesOf, type Access } from "./scope-picker.tsx";
import { VersionField } from "./version-field.tsx";
import { ExpiresField, localInput } from "./expires-field.tsx";
import { OriginsField } from "./origins-field.tsx";

/**
 * Edits a key's name, access (scopes), API version, expiry and allowed origins: one PATCH of
 * what changed on the key, then its origins through their own route when they changed.
 */
export function EditDialog(props: { apiKey: ApiKey; onDone(): void; onCancel(): void }) {
  const k = props.apiKey;
  const { project } = useProject();
  const grantable = useQuery({ queryKey: ["api-keys-grantable"], queryFn: keyApi.grantable });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const [name, setName] = useState(k.name);
  const [origins, setOrigins] = useState(k.allowedOrigins.join("\n"));
  const [originError, setOriginError] = useState<string | null>(null);
  const [expires, setExpires] = useState(k.expiresAt ? localInput(k.expiresAt) : "");
  const [version, setVersion] = useState(k.version);
  // The key's access as the picker shows it, read once the presets are known; null until then
  // and for legacy keys, whose permission never becomes scopes.
  const [access, setAccess] = useState<(Access & { mixed: boolean }) | null>(null);
  const [initial, setInitial] = useState<string | null>(null);
  useEffect(() => {
    if (access || !grantable.data || k.bundle === "legacy") return;
    const a = accessOf(k, grantable.data.presets);
    setAccess(a);
    setInitial(scopesOf(a, grantable.data.presets).sort().join());
  }, [access, grantable.data, k]);
  const save = useMutation({
    mutationFn: async (list: string[]) => {
      const patch: KeyPatch = {};
      if (name !== k.name) patch.name = name;
      if (expires !== (k.expiresAt ? localInput(k.expiresAt) : "")) patch.expiresAt = expires ? new Date(expires).toISOString() : null;
      if (version !== k.version) patch.apiVersion = version;
      // Scopes only when the person changed them: a key whose limits name several models is
      // shown approximately and must not be rewritten by a save of its name.
      const scopes = access && grantable.data ? scopesOf(access, grantable.data.presets) : null;
      if (scopes && scopes.slice().sort().join() !== initial) patch.scopes = scopes;
      if (Object.keys(patch).length) await keyApi.update(k.id, patch);
      if (list.join() !== k.allowedOrigins.join()) await keyApi.origins(k.id, list);
    },
    onSuccess: props.onDone,
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const list = parseOrigins(origins);
    if (typeof list === "string") return setOriginError(list);
    setOriginError(null);
    save.mutate(list);
  }
  const at = (f: string) => (save.error instanceof ApiError && save.error.field === f ? save.error.message : null);
  const scopeError = scopeRefusal(save.error);
  const versionError = at("apiVersion");
  const expiryError = at("expiresAt");
  return (
    <Dialog open title={`Edit ${k.name}`} onCancel={props.onCancel}>
      <form onSubmit={submit} className="form-stack">
        <div className="field">
          <label htmlFor="edit-key-name">Name</label>
          <input id="edit-key-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </div>
        {k.bundle === "legacy" ? (
          <p className="hint">This legacy key keeps its permission ({k.permission}); mint a scoped key to choose scopes.</p>
        ) : access ? (
          <>
            <ScopePicker
              id="edit-key"
              grantable={grantable.data}
              models={models.data}
              value={access}
              onChange={(a) => setAccess({ ...a, mixed: access.mixed })}
              error={scopeError}
            />
            {access.mixed && <p className="hint">This key’s scopes name several models; saving other scopes here replaces them.</p>}
          </>
        ) : grantable.isError ? (
          <Refusal error={grantable.error} />
        ) : (
          <p>Loading access…</p>
        )}
        {scopeError && k.bundle === "legacy" && <p className="error">{scopeError}</p>}
        <VersionField id="edit-key-version" value={version} onChange={setVersion} error={versionError} />
        <ExpiresField id="edit-key-expires" value={expires} onChange={setExpires} error={expiryError} />
        <OriginsField id="edit-key-origins" value={origins} onChange={setOrigins} error={originError} />
        {save.error && !scopeError && !versionError && !expiryError && <Refusal error={save.error} />}
        <div className="toolbar">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save
          </button>
          <button type="button" className="btn" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Rotates a key: a successor with a new secret; the old one keeps working for the grace period. */
export function RotateDialog(props: { apiKey: ApiKey; onRotated(k: MintedKey, oldExpires: string): void; onCancel(): void }) {
  const [hours, setHours] = useState("24");
  const rotate = useMutation({
    mutationFn: () => keyApi.rotate(props.apiKey.id, Number(hours)),
    onSuccess: (k) => props.onRotated(k, k.rotatedFrom.expiresAt),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    rotate.mutate();
  }
  return (
    <Dialog open title={`Rotate ${props.apiKey.name}?`} onCancel={props.onCancel}>
      <form onSubmit={submit} className="form-stack">
        <p>A new secret replaces this one. The old secret keeps working for the grace period, so you can deploy the new one first.</p>
        <div className="field">
          <label htmlFor="grace-hours">Grace period (hours)</label>
          <input id="grace-hours" type="number" min={0} max={168} step={1} value={hours} onChange={(e) => setHours(e.target.value)} />
        </div>
        {rotate.error && <Refusal error={rotate.error} />}
        <div className="toolbar">
          <button type="submit" className="btn btn-primary" disabled={rotate.isPending}>
            Rotate
          </button>
          <button type="button" className="btn" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
