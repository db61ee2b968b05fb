// The dialogs of one key: edit (name and allowed origins), and rotate with a grace period for the old secret.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { keyApi, type ApiKey, type MintedKey } from "../../api/keys.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { parseOrigins } from "./new-key-form.tsx";
import { ExpiresField, localInput } from "./expires-field.tsx";

/** Edits a key's name, expiry and allowed origins (each through its own route, only when changed). */
export function EditDialog(props: { apiKey: ApiKey; onDone(): void; onCancel(): void }) {
  const k = props.apiKey;
  const [name, setName] = useState(k.name);
  const [origins, setOrigins] = useState(k.allowedOrigins.join("\n"));
  const [originError, setOriginError] = useState<string | null>(null);
  const [expires, setExpires] = useState(k.expiresAt ? localInput(k.expiresAt) : "");
  const save = useMutation({
    mutationFn: async (list: string[]) => {
      const expiresAt = expires ? new Date(expires).toISOString() : null;
      const changed = expires !== (k.expiresAt ? localInput(k.expiresAt) : "");
      if (name !== k.name || changed) await keyApi.update(k.id, { ...(name !== k.name ? { name } : {}), ...(changed ? { expiresAt } : {}) });
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
  return (
    <Dialog open title={`Edit ${k.name}`} onCancel={props.onCancel}>
      <form onSubmit={submit} className="form-stack">
        <div className="field">
          <label htmlFor="edit-key-name">Name</label>
          <input id="edit-key-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </div>
        <ExpiresField id="edit-key-expires" value={expires} onChange={setExpires} />
        <div className="field">
          <label htmlFor="edit-key-origins">Allowed origins</label>
          <textarea
            id="edit-key-origins"
            className="mono"
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            aria-invalid={originError ? true : undefined}
            aria-describedby="edit-key-origins-hint"
          />
          <p className="hint" id="edit-key-origins-hint">
            One origin a line. Empty: browsers on any site may use the key.
          </p>
          {originError && <p className="error">{originError}</p>}
        </div>
        {save.error && <Refusal error={save.error} />}
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
