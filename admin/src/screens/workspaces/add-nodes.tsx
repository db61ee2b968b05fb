// Adding to an arrangement: a folder by name, a model, an entry found by searching a model's
// entries (GET /v2/model-instances?model=&q=), or a folder of the media library. New nodes go to
// the end of the top level; dragging or the row buttons then place them.
import { useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { entryTitle } from "../../api/models.ts";
import type { Model } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { newKey, type EditNode } from "./tree-edit.ts";

interface Props {
  models: Model[];
  /** Media folders by id with their paths (`Photos / 2024`). */
  mediaFolders: Map<string, string>;
  onAdd(node: EditNode, words: string): void;
}

function FolderForm({ onAdd }: Pick<Props, "onAdd">) {
  const [name, setName] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return;
    onAdd({ key: newKey(), type: "folder", name: name.trim(), icon: null, children: [] }, `Folder ${name.trim()}`);
    setName("");
  }
  return (
    <form className="add-row" onSubmit={submit}>
      <div className="field grow">
        <label htmlFor="add-folder-name">Folder name</label>
        <input id="add-folder-name" value={name} maxLength={120} required onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit" className="btn">
        Add folder
      </button>
    </form>
  );
}

function ModelForm({ models, onAdd }: Pick<Props, "models" | "onAdd">) {
  const [id, setId] = useState("");
  const chosen = models.find((m) => m.id === id) ?? models[0];
  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen) onAdd({ key: newKey(), type: "model", ref: chosen.id, label: chosen.name, missing: false }, `Model ${chosen.name}`);
  }
  return (
    <form className="add-row" onSubmit={submit}>
      <div className="field grow">
        <label htmlFor="add-model">Model</label>
        <select id="add-model" value={chosen?.id ?? ""} onChange={(e) => setId(e.target.value)}>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn" disabled={!chosen}>
        Add model
      </button>
    </form>
  );
}

function EntrySearch({ models, onAdd }: Pick<Props, "models" | "onAdd">) {
  const { project } = useProject();
  const [id, setId] = useState("");
  const [q, setQ] = useState("");
  const model = models.find((m) => m.id === id) ?? models[0];
  // The newest ten matching entries of the chosen model; typing never waits for the answer.
  const found = useQuery({
    queryKey: ["workspace-entry-search", project.id, model?.namespace ?? "", q.trim()],
    queryFn: () => api.entries.list(model!.namespace, { q: q.trim() || undefined, sort: "-updatedAt" }, null, 10),
    enabled: !!model,
  });
  return (
    <div className="add-entry">
      <div className="add-row">
        <div className="field">
          <label htmlFor="add-entry-model">Entry of</label>
          <select id="add-entry-model" value={model?.id ?? ""} onChange={(e) => setId(e.target.value)}>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="add-entry-q">Search entries</label>
          <input id="add-entry-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
      </div>
      {found.isError ? (
        <Refusal error={found.error} />
      ) : found.data && model ? (
        found.data.data.length === 0 ? (
          <p className="muted">No entries of {model.name} match.</p>
        ) : (
          <ul className="entry-results" aria-label={`Entries of ${model.name}`}>
            {found.data.data.map((e) => {
              const title = entryTitle(model, e);
              return (
                <li key={e.id}>
                  <span>{title}</span>
                  <button
                    type="button"
                    className="btn btn-quiet"
                    aria-label={`Add entry ${title}`}
                    onClick={() => onAdd({ key: newKey(), type: "entry", ref: e.id, label: title, missing: false }, `Entry ${title}`)}
                  >
                    Add
                  </button>
                </li>
              );
            })}
          </ul>
        )
      ) : (
        model && <p className="muted">Searching…</p>
      )}
    </div>
  );
}

function MediaFolderForm({ mediaFolders, onAdd }: Pick<Props, "mediaFolders" | "onAdd">) {
  const choices = [...mediaFolders].sort((a, b) => a[1].localeCompare(b[1]));
  const [id, setId] = useState("");
  const chosen = choices.find(([f]) => f === id) ?? choices[0];
  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen) onAdd({ key: newKey(), type: "media_folder", ref: chosen[0] }, `Media folder ${chosen[1]}`);
  }
  if (choices.length === 0) return <p className="muted">The media library has no folders yet.</p>;
  return (
    <form className="add-row" onSubmit={submit}>
      <div className="field grow">
        <label htmlFor="add-media-folder">Media folder</label>
        <select id="add-media-folder" value={chosen?.[0] ?? ""} onChange={(e) => setId(e.target.value)}>
          {choices.map(([f, path]) => (
            <option key={f} value={f}>
              {path}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn">
        Add media folder
      </button>
    </form>
  );
}

/** The card of ways to add to the arrangement. */
export function AddNodes({ models, mediaFolders, onAdd }: Props) {
  return (
    <section className="card form-stack add-nodes" aria-labelledby="add-nodes-title">
      <h2 id="add-nodes-title">Add to the arrangement</h2>
      <p className="muted">New items go to the end; drag them into place, or use the buttons on each row.</p>
      <FolderForm onAdd={onAdd} />
      {models.length === 0 ? <p className="muted">The project has no models yet.</p> : <ModelForm models={models} onAdd={onAdd} />}
      {models.length > 0 && <EntrySearch models={models} onAdd={onAdd} />}
      <MediaFolderForm mediaFolders={mediaFolders} onAdd={onAdd} />
    </section>
  );
}
