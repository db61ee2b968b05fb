// One workspace: its facts, `Use this workspace`, `Set as project default` (owners and admins),
// its details (name and visibility) with `Delete`, the arrangement editor, and the members it is
// assigned to. People who may not arrange workspaces read it all without edit controls.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { ApiError } from "../../api/client.ts";
import { peopleApi, peopleKeys } from "../../api/people.ts";
import { signedInUserId } from "../../api/session.ts";
import type { Workspace } from "../../api/types.ts";
import { canArrange, canAssign, TEMPLATES, VISIBILITY_WORDS, workspaceApi, workspaceKeys } from "../../api/workspaces.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { AssignCard } from "./assign-card.tsx";
import { TreeEditor } from "./tree-editor.tsx";
import { creatorWords } from "./workspaces-screen.tsx";

function Details({ workspace }: { workspace: Workspace }) {
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(workspace.name);
  const [visibility, setVisibility] = useState(workspace.visibility);
  const [saved, setSaved] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      workspaceApi.update(workspace.id, {
        ...(name.trim() !== workspace.name ? { name: name.trim() } : {}),
        ...(visibility !== workspace.visibility ? { visibility } : {}),
      }),
    onSuccess: () => {
      setSaved(true);
      void client.invalidateQueries({ queryKey: workspaceKeys.list(project.id) });
    },
  });
  const remove = useMutation({
    mutationFn: () => workspaceApi.remove(workspace.id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: workspaceKeys.list(project.id) });
      void navigate({ to: "/workspaces" });
    },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const fieldError = (f: string) => (err?.field === f ? err.message : null);
  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    save.mutate();
  }
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="workspace-details-title">
      <h2 id="workspace-details-title">Details</h2>
      <div className="field">
        <label htmlFor="workspace-edit-name">Name</label>
        <input
          id="workspace-edit-name"
          required
          maxLength={120}
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={fieldError("name") ? true : undefined}
          aria-describedby={fieldError("name") ? "workspace-edit-name-error" : undefined}
        />
        {fieldError("name") && (
          <p className="error" id="workspace-edit-name-error">
            {fieldError("name")}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="workspace-edit-visibility">Visibility</label>
        <select
          id="workspace-edit-visibility"
          value={visibility}
          onChange={(e) => setVisibility(e.target.value as Workspace["visibility"])}
          aria-invalid={fieldError("visibility") ? true : undefined}
          aria-describedby={fieldError("visibility") ? "workspace-edit-visibility-error workspace-visibility-hint" : "workspace-visibility-hint"}
        >
          <option value="team">Team</option>
          <option value="private">Private</option>
        </select>
        <p className="hint" id="workspace-visibility-hint">
          Team: everyone in the project sees it. Private: only the person who created it.
        </p>
        {fieldError("visibility") && (
          <p className="error" id="workspace-edit-visibility-error">
            {fieldError("visibility")}
          </p>
        )}
      </div>
      {save.error && !fieldError("name") && !fieldError("visibility") && <Refusal error={save.error} />}
      <div aria-live="polite">{saved && <p className="notice">Details saved.</p>}</div>
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save details
        </button>
        <span className="spacer" />
        <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>
          Delete workspace
        </button>
      </div>
      <Dialog open={deleting} title={`Delete ${workspace.name}?`} onCancel={() => setDeleting(false)}>
        <p>The arrangement goes for everyone who uses it. Models, entries and media stay exactly as they are.</p>
        {remove.error && <Refusal error={remove.error} />}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete
          </button>
          <button type="button" className="btn" onClick={() => setDeleting(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </form>
  );
}

/** The screen. */
export function WorkspaceScreen() {
  const { workspaceId } = useParams({ from: "/app/workspaces/$workspaceId" });
  const { project } = useProject();
  const client = useQueryClient();
  const list = useQuery({ queryKey: workspaceKeys.list(project.id), queryFn: workspaceApi.list });
  const members = useQuery({ queryKey: peopleKeys.members(project.id), queryFn: () => peopleApi.members(project.id) });
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: workspaceKeys.list(project.id) });
  const use = useMutation({
    mutationFn: () => workspaceApi.use(workspaceId),
    onSuccess: (w) => {
      setNotice(`${w.name} is now your workspace: the rail shows it.`);
      void refresh();
    },
  });
  const setDefault = useMutation({
    mutationFn: () => workspaceApi.setDefault(workspaceId),
    onSuccess: (w) => {
      setNotice(`${w.name} is now the project's default workspace.`);
      void refresh();
    },
  });

  if (list.isError) return <Refusal error={list.error} />;
  if (!list.data) return <p>Loading…</p>;
  const workspace = list.data.data.find((w) => w.id === workspaceId);
  if (!workspace) {
    return (
      <>
        <h1>No such workspace</h1>
        <p>
          It was deleted, or it is someone else's private workspace. <Link to="/workspaces">All workspaces</Link>
        </p>
      </>
    );
  }
  const arrange = canArrange(project.role);
  const assign = canAssign(project.role);
  const template = TEMPLATES.find((t) => t.id === workspace.template)?.word ?? workspace.template;

  return (
    <>
      <p className="muted">
        <Link to="/workspaces">Workspaces</Link> /
      </p>
      <div className="toolbar">
        <h1>{workspace.name}</h1>
        <span className="spacer" />
        {!workspace.isCurrent && (
          <button type="button" className="btn" disabled={use.isPending} onClick={() => use.mutate()}>
            Use this workspace
          </button>
        )}
        {assign && !workspace.isDefault && workspace.visibility === "team" && (
          <button type="button" className="btn" disabled={setDefault.isPending} onClick={() => setDefault.mutate()}>
            Set as project default
          </button>
        )}
      </div>
      <dl className="facts workspace-facts">
        <div>
          <dt>Visibility</dt>
          <dd>{VISIBILITY_WORDS[workspace.visibility]}</dd>
        </div>
        <div>
          <dt>Project default</dt>
          <dd>{workspace.isDefault ? "Yes" : "No"}</dd>
        </div>
        <div>
          <dt>Your current workspace</dt>
          <dd>{workspace.isCurrent ? "Yes" : "No"}</dd>
        </div>
        <div>
          <dt>Created by</dt>
          <dd>
            {creatorWords(workspace, signedInUserId(), members.data)}, from {template}
          </dd>
        </div>
      </dl>
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {use.error && <Refusal error={use.error} />}
      {setDefault.error && <Refusal error={setDefault.error} />}
      {!arrange && <p className="notice">Your role ({project.role}) can use this workspace; editors and above arrange it.</p>}
      {arrange && <Details key={`details-${workspace.id}`} workspace={workspace} />}
      <TreeEditor key={`tree-${workspace.id}`} workspaceId={workspace.id} editable={arrange} />
      {assign && workspace.visibility === "private" && (
        <p className="muted screen-section">A private workspace can be neither the project's default nor assigned to members.</p>
      )}
      {assign && workspace.visibility === "team" && <AssignCard key={`assign-${workspace.id}`} workspace={workspace} members={members.data} />}
    </>
  );
}
