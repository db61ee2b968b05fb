// The Workspaces screen (issue 14 item 3): the workspaces the person can see with their
// visibility, which one is the project's default, which is theirs and which is current, `New
// workspace` (blank or from a template) and `Use` to make one the rail. Each opens its editor.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ApiError } from "../../api/client.ts";
import { peopleApi, peopleKeys } from "../../api/people.ts";
import { signedInUserId } from "../../api/session.ts";
import type { Member, Workspace } from "../../api/types.ts";
import { canArrange, TEMPLATES, VISIBILITY_WORDS, workspaceApi, workspaceKeys } from "../../api/workspaces.ts";
import { useProject } from "../shell/project-context.ts";
import { Refusal } from "../../ui/refusal.tsx";

/** Who created a workspace, in words: `You`, a member's e-mail, or `An API key`. */
export function creatorWords(w: Workspace, me: string | null, members: Member[] | undefined): string {
  if (w.createdBy.kind !== "user") return "An API key";
  if (w.createdBy.id === me) return "You";
  return members?.find((m) => m.userId === w.createdBy.id)?.email ?? "A former member";
}

function NewWorkspaceForm({ onCancel }: { onCancel(): void }) {
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [template, setTemplate] = useState<string>("blank");
  const [visibility, setVisibility] = useState<Workspace["visibility"]>("team");
  const create = useMutation({
    mutationFn: () => workspaceApi.create({ name: name.trim(), template, visibility }),
    onSuccess: (w) => {
      void client.invalidateQueries({ queryKey: workspaceKeys.list(project.id) });
      void navigate({ to: "/workspaces/$workspaceId", params: { workspaceId: w.id } });
    },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const nameError = err?.field === "name" ? err.message : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="new-workspace-title">
      <h2 id="new-workspace-title">New workspace</h2>
      <div className="field">
        <label htmlFor="workspace-name">Name</label>
        <input
          id="workspace-name"
          required
          maxLength={120}
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? "workspace-name-error" : undefined}
        />
        {nameError && (
          <p className="error" id="workspace-name-error">
            {nameError}
          </p>
        )}
      </div>
      <fieldset className="choice-list">
        <legend>Template</legend>
        {TEMPLATES.map((t) => (
          <label key={t.id}>
            <input type="radio" name="workspace-template" value={t.id} checked={template === t.id} onChange={() => setTemplate(t.id)} /> {t.word}
            <span className="muted"> — {t.folders.length === 0 ? "an empty arrangement" : `folders ${t.folders.join(", ")}`}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="choice-list">
        <legend>Visibility</legend>
        <label>
          <input type="radio" name="workspace-visibility" checked={visibility === "team"} onChange={() => setVisibility("team")} /> Team
          <span className="muted"> — everyone in the project sees it</span>
        </label>
        <label>
          <input type="radio" name="workspace-visibility" checked={visibility === "private"} onChange={() => setVisibility("private")} /> Private
          <span className="muted"> — only you see it</span>
        </label>
      </fieldset>
      {create.error && !nameError && <Refusal error={create.error} />}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          Create workspace
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The screen. */
export function WorkspacesScreen() {
  const { project } = useProject();
  const client = useQueryClient();
  const arrange = canArrange(project.role);
  const list = useQuery({ queryKey: workspaceKeys.list(project.id), queryFn: workspaceApi.list });
  const members = useQuery({ queryKey: peopleKeys.members(project.id), queryFn: () => peopleApi.members(project.id) });
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const me = signedInUserId();
  const use = useMutation({
    mutationFn: (w: Workspace) => workspaceApi.use(w.id),
    onSuccess: (w) => {
      setNotice(`${w.name} is now your workspace: the rail shows it.`);
      void client.invalidateQueries({ queryKey: workspaceKeys.list(project.id) });
    },
  });

  return (
    <>
      <div className="toolbar">
        <h1>Workspaces</h1>
        <span className="spacer" />
        {arrange && !creating && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            New workspace
          </button>
        )}
      </div>
      <p className="muted">A workspace arranges the rail: folders of models, entries and media folders. Arranging never changes the content itself.</p>
      {!arrange && <p className="notice">Your role ({project.role}) can use the workspaces here; editors and above arrange them.</p>}
      {creating && <NewWorkspaceForm onCancel={() => setCreating(false)} />}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {use.error && <Refusal error={use.error} />}
      {list.isError ? (
        <Refusal error={list.error} />
      ) : !list.data ? (
        <p>Loading…</p>
      ) : list.data.data.length === 0 ? (
        <p>No workspaces yet: the rail lists every model. {arrange && "Use “New workspace” to arrange it your way."}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Workspaces of {project.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Visibility</th>
                <th scope="col">Items</th>
                <th scope="col">Created by</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((w) => (
                <tr key={w.id}>
                  <th scope="row">
                    <Link to="/workspaces/$workspaceId" params={{ workspaceId: w.id }}>
                      {w.name}
                    </Link>
                  </th>
                  <td>{VISIBILITY_WORDS[w.visibility]}</td>
                  <td>{w.nodes}</td>
                  <td>{creatorWords(w, me, members.data)}</td>
                  <td>{[w.isDefault && "Project default", w.isCurrent && "Your current workspace"].filter(Boolean).join(", ") || "—"}</td>
                  <td className="row-actions">
                    {!w.isCurrent && (
                      <button type="button" className="btn" aria-label={`Use ${w.name}`} disabled={use.isPending} onClick={() => use.mutate(w)}>
                        Use
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
