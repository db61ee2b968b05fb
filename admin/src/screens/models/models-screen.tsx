// The Models screen (issue 14 item 1): every model of the project and `New model` (name,
// namespace, description, single entry). Each model opens its own page with its fields.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { api, ApiError, keys } from "../../api/client.ts";
import { modelApi } from "../../api/model-admin.ts";
import { useProject } from "../shell/project-context.ts";
import { Refusal } from "../../ui/refusal.tsx";

/** Whether a role may shape models (decisions.md 2: owners, admins, developers). */
export function canShape(role: string): boolean {
  return role === "owner" || role === "admin" || role === "developer";
}

function NewModelForm({ onCancel }: { onCancel(): void }) {
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [namespace, setNamespace] = useState("");
  const [touched, setTouched] = useState(false);
  const [description, setDescription] = useState("");
  const [single, setSingle] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      modelApi.create({
        name: name.trim(),
        namespace: namespace.trim(),
        singleEntry: single,
        ...(description.trim() ? { description: description.trim() } : {}),
      }),
    onSuccess: (m) => {
      void client.invalidateQueries({ queryKey: keys.models(project.id) });
      void navigate({ to: "/models/$modelId", params: { modelId: m.id } });
    },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const nsError = err?.field === "namespace" ? err.message : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="new-model-title">
      <h2 id="new-model-title">New model</h2>
      <div className="field">
        <label htmlFor="model-name">Name</label>
        <input
          id="model-name"
          required
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (!touched)
              setNamespace(
                e.target.value
                  .trim()
                  .toLowerCase()
                  .replace(/[^a-z0-9]+/g, "_")
                  .replace(/^_|_$/g, ""),
              );
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="model-namespace">Namespace</label>
        <input
          id="model-namespace"
          className="mono"
          required
          value={namespace}
          onChange={(e) => {
            setTouched(true);
            setNamespace(e.target.value);
          }}
          aria-invalid={nsError ? true : undefined}
          aria-describedby={nsError ? "model-namespace-error model-namespace-hint" : "model-namespace-hint"}
        />
        <p className="hint" id="model-namespace-hint">
          Names the model in the API (/api/entries/&lt;namespace&gt;); it cannot change later.
        </p>
        {nsError && (
          <p className="error" id="model-namespace-error">
            {nsError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="model-description">Description</label>
        <textarea id="model-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <label>
        <input type="checkbox" checked={single} onChange={(e) => setSingle(e.target.checked)} /> Single entry (a page of settings, say)
      </label>
      {create.error && !nsError && <Refusal error={create.error} />}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          Create model
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The screen. */
export function ModelsScreen() {
  const { project } = useProject();
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const [creating, setCreating] = useState(false);
  const shape = canShape(project.role);
  return (
    <>
      <div className="toolbar">
        <h1>Models</h1>
        <span className="spacer" />
        {shape && !creating && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            New model
          </button>
        )}
      </div>
      {!shape && <p className="notice">Your role ({project.role}) can read models; owners, admins and developers change them.</p>}
      {creating && <NewModelForm onCancel={() => setCreating(false)} />}
      {models.isError ? (
        <Refusal error={models.error} />
      ) : !models.data ? (
        <p>Loading…</p>
      ) : models.data.length === 0 ? (
        <p>No models yet. Use “New model” to describe your first kind of content.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Models of {project.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Namespace</th>
              <th scope="col">Fields</th>
              <th scope="col">Entries</th>
            </tr>
          </thead>
          <tbody>
            {[...models.data]
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    <Link to="/models/$modelId" params={{ modelId: m.id }}>
                      {m.name}
                    </Link>
                  </th>
                  <td className="mono">{m.namespace}</td>
                  <td>{m.fields.length}</td>
                  <td>{m.singleEntry ? "Single entry" : "Many"}</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </>
  );
}
