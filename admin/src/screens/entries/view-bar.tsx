// Saved views on the entry list (decisions.md 15): the open view's name and whether it is shared,
// what of it no longer fits the model (the server leaves such parts out and names them in
// `dropped`), and the actions: save the list as a new view (private, or shared with the project
// by roles that edit entries; viewers keep private views), save changes to the open view, go back
// to it as saved, delete it. Owners and admins may change every shared view; others their own.
import { type FormEvent, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { canChangeView, type SavedView, type ViewParts, viewsApi, viewsKey } from "../../api/views.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { canEditEntries, Refusal } from "../../ui/refusal.tsx";

interface Props {
  project: { id: string; name: string; role: string };
  model: string;
  /** The open view, if any. */
  view: SavedView | null;
  /** What the list shows now, as a view would keep it. */
  parts: ViewParts;
  /** Whether the list differs from the open view as saved. */
  changed: boolean;
  /** Opens a view as saved (null: the plain list). */
  open(id: string | null): void;
}

export function ViewBar(p: Props) {
  const client = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: viewsKey(p.project.id) });
  const update = useMutation({
    mutationFn: () => viewsApi.update(p.view!.id, p.parts),
    onSuccess: async (v) => {
      await refresh();
      p.open(v.id);
    },
  });
  const remove = useMutation({
    mutationFn: () => viewsApi.remove(p.view!.id),
    onSuccess: async () => {
      setConfirmDelete(false);
      p.open(null);
      await refresh();
    },
  });
  const v = p.view;
  const mayChange = !!v && canChangeView(v, p.project.role);
  return (
    <div className="view-bar">
      {v && (
        <p className="view-name">
          <strong>{v.name}</strong> <span className="muted">{v.shared ? "Shared view" : "Your view"}</span>
          {p.changed && <span className="muted"> · changed since it was saved</span>}
        </p>
      )}
      {v && v.dropped.length > 0 && (
        <div className="notice" role="status">
          <p>This view was saved with parts that no longer fit {p.model}, so the list leaves them out:</p>
          <ul>
            {v.dropped.map((d) => (
              // The server's sentence names the part and the field already.
              <li key={`${d.part}-${d.key}`}>{d.message}</li>
            ))}
          </ul>
          {mayChange && <p>Save the view to keep it as it shows now.</p>}
        </div>
      )}
      <div className="toolbar">
        {v && mayChange && (p.changed || v.dropped.length > 0) && (
          <button type="button" className="btn" disabled={update.isPending} onClick={() => update.mutate()}>
            Save view
          </button>
        )}
        {v && p.changed && (
          <button type="button" className="btn btn-quiet" onClick={() => p.open(v.id)}>
            Back to the view as saved
          </button>
        )}
        <button type="button" className="btn btn-quiet" onClick={() => setSaving(true)}>
          Save as new view
        </button>
        {v && mayChange && (
          <button type="button" className="btn btn-quiet btn-danger" onClick={() => setConfirmDelete(true)}>
            Delete view
          </button>
        )}
      </div>
      {(update.error || remove.error) && <Refusal error={(update.error ?? remove.error)!} />}
      {saving && (
        <SaveDialog
          project={p.project}
          model={p.model}
          parts={p.parts}
          onCancel={() => setSaving(false)}
          onSaved={async (id) => {
            setSaving(false);
            await refresh();
            p.open(id);
          }}
        />
      )}
      <Dialog open={confirmDelete} title={`Delete the view “${v?.name ?? ""}”?`} onCancel={() => setConfirmDelete(false)}>
        <p>{v?.shared ? "Everyone in the project loses this view." : "The view goes; the entries stay as they are."}</p>
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete view
          </button>
          <button type="button" className="btn" onClick={() => setConfirmDelete(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </div>
  );
}

function SaveDialog(p: { project: Props["project"]; model: string; parts: ViewParts; onCancel(): void; onSaved(id: string): void }) {
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  // Sharing takes a role that edits entries (decisions.md 15): viewers keep private views.
  const mayShare = canEditEntries(p.project.role);
  const save = useMutation({
    mutationFn: () => viewsApi.create({ model: p.model, name, shared: mayShare && shared, ...p.parts }),
    onSuccess: (v) => p.onSaved(v.id),
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const nameError = err?.field === "name" ? err.message : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <Dialog open title="Save as new view" onCancel={p.onCancel}>
      <form className="form-stack" onSubmit={submit}>
        <div className="field">
          <label htmlFor="view-name">Name</label>
          <input
            id="view-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "view-name-error" : undefined}
          />
          {nameError && (
            <p className="error" id="view-name-error">
              {nameError}
            </p>
          )}
        </div>
        <label>
          <input type="checkbox" checked={shared} disabled={!mayShare} aria-describedby="view-share-hint" onChange={(e) => setShared(e.target.checked)} /> Share
          with everyone in {p.project.name}
        </label>
        <p className="hint" id="view-share-hint">
          {mayShare
            ? "A shared view shows in every member's rail; only you see a private one."
            : `Your role (${p.project.role}) keeps private views; roles that edit entries share them.`}
        </p>
        {save.error && !nameError && <Refusal error={save.error} />}
        <div className="toolbar">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save view
          </button>
          <button type="button" className="btn" onClick={p.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
