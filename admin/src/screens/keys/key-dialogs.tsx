// The dialogs of one key: rename, and rotate with a grace period for the old secret.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { keyApi, type ApiKey, type MintedKey } from "../../api/keys.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";

/** Renames a key. */
export function RenameDialog(props: { apiKey: ApiKey; onDone(): void; onCancel(): void }) {
  const [name, setName] = useState(props.apiKey.name);
  const save = useMutation({ mutationFn: () => keyApi.rename(props.apiKey.id, name), onSuccess: props.onDone });
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <Dialog open title={`Rename ${props.apiKey.name}`} onCancel={props.onCancel}>
      <form onSubmit={submit} className="form-stack">
        <div className="field">
          <label htmlFor="rename-key">Name</label>
          <input id="rename-key" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
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
