// Assigning a team workspace to members (owners and admins; PUT /v2/workspaces/:id/assign with
// the whole list). The ticks start from who is assigned now (GET .../assign).
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ROLE_WORDS } from "../../api/people.ts";
import type { Member, Workspace } from "../../api/types.ts";
import { workspaceApi, workspaceKeys } from "../../api/workspaces.ts";
import { useProject } from "../shell/project-context.ts";
import { Refusal } from "../../ui/refusal.tsx";

/** The members card of a team workspace. */
export function AssignCard({ workspace, members }: { workspace: Workspace; members: Member[] | undefined }) {
  const { project } = useProject();
  const client = useQueryClient();
  const assigned = useQuery({ queryKey: workspaceKeys.assigned(project.id, workspace.id), queryFn: () => workspaceApi.assigned(workspace.id) });
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    if (assigned.data && ticked === null) setTicked(new Set(assigned.data));
  }, [assigned.data, ticked]);
  const save = useMutation({
    mutationFn: (ids: string[]) => workspaceApi.assign(workspace.id, ids),
    onSuccess: (r) => {
      const n = r.userIds.length;
      setSaved(n === 0 ? "No member is assigned this workspace." : `Assigned to ${n} member${n === 1 ? "" : "s"}.`);
      client.setQueryData(workspaceKeys.assigned(project.id, workspace.id), r.userIds);
      // Assigning moves members from other workspaces, so their cached assignments are stale.
      void client.invalidateQueries({ queryKey: ["workspace-assigned", project.id] });
    },
  });
  function toggle(id: string) {
    const next = new Set(ticked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setTicked(next);
    setSaved(null);
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    if (ticked) save.mutate([...ticked]);
  }
  return (
    <form className="card form-stack screen-section" onSubmit={submit} aria-labelledby="workspace-members-title">
      <h2 id="workspace-members-title">Members</h2>
      <p className="muted">
        Assigned members see this workspace in their rail until they choose another themselves. A member has one assigned workspace: ticking someone here moves
        them from any other.
      </p>
      {assigned.isError ? (
        <Refusal error={assigned.error} />
      ) : !members || !ticked ? (
        <p>Loading…</p>
      ) : (
        <fieldset className="choice-list">
          <legend>Assign to</legend>
          {members.map((m) => (
            <label key={m.userId}>
              <input type="checkbox" checked={ticked.has(m.userId)} onChange={() => toggle(m.userId)} /> {m.email}
              <span className="muted"> ({ROLE_WORDS[m.role] ?? m.role})</span>
            </label>
          ))}
        </fieldset>
      )}
      {save.error && <Refusal error={save.error} />}
      <div aria-live="polite">{saved && <p className="notice">{saved}</p>}</div>
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || !ticked}>
          Save assignment
        </button>
      </div>
    </form>
  );
}
