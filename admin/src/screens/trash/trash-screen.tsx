// The Trash (issue 26 item 8; docs/editing.md, The trash): entries deleted from the editor, per
// model or all, most recently deleted first, with who deleted each and when; Restore brings one
// back as it was (saying so when a slug had to change because another entry took it meanwhile),
// Delete for ever removes it after a confirmation. Reading is for every role; restoring and
// deleting for ever are for the roles that may delete entries.
import { useState } from "react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { editingApi, type Restored, type Trashed, trashKeys } from "../../api/editing.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { canEditEntries } from "../../ui/refusal.tsx";
import { instantIn } from "../../ui/time-zones.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { actorName } from "../entry/versions-card.tsx";
import { useProject } from "../shell/project-context.ts";

/** What a restore says: the entry back, and any slug that took a new value. */
function restoredWords(e: Restored, title: string): string {
  const moved = (e.slugsChanged ?? []).filter((c) => c.copy === "draft" || c.copy === "published");
  const slugs = [...new Set(moved.map((c) => `${c.field.replace(/^data\./, "")} was taken meanwhile and is now “${c.to}”`))];
  return `Restored “${title}”.${slugs.length ? ` Its ${slugs.join("; ")}.` : ""}`;
}

export function TrashScreen() {
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { model } = useSearch({ from: "/app/trash" });
  const canWrite = canEditEntries(project.role);
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const members = useQuery({ queryKey: keys.members(project.id), queryFn: () => api.projects.members(project.id) });
  const pages = useInfiniteQuery({
    queryKey: trashKeys.list(project.id, model ?? ""),
    queryFn: ({ pageParam }) => editingApi.trash.list(model, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const rows = pages.data?.pages.flatMap((p) => p.data) ?? [];
  const total = pages.data?.pages[0]?.total;
  const [said, setSaid] = useState<{ text: string; open?: Restored } | null>(null);
  const [purging, setPurging] = useState<Trashed | null>(null);
  const titleOf = (t: Trashed) => t.title ?? "Untitled entry";
  const modelName = (t: Trashed) => models.data?.find((m) => m.id === t.modelId)?.name ?? t.model;

  const after = async () => {
    await client.invalidateQueries({ queryKey: trashKeys.all(project.id) });
    await client.invalidateQueries({ queryKey: ["entries", project.id] });
  };
  const restore = useMutation({
    mutationFn: (t: Trashed) => editingApi.trash.restore(t.id),
    onSuccess: async (e, t) => {
      setSaid({ text: restoredWords(e, titleOf(t)), open: e });
      client.removeQueries({ queryKey: keys.entry(project.id, e.id) });
      await after();
    },
    onError: (e) => setSaid({ text: e.message }),
  });
  const purge = useMutation({
    mutationFn: (t: Trashed) => editingApi.trash.purge(t.id),
    onSuccess: async (_, t) => {
      setPurging(null);
      setSaid({ text: `Deleted “${titleOf(t)}” for ever.` });
      await after();
    },
    onError: (e) => {
      setPurging(null);
      setSaid({ text: e.message });
    },
  });

  return (
    <>
      <div className="toolbar">
        <h1>Trash</h1>
        <span className="spacer" />
        <div className="field inline-field">
          <label htmlFor="trash-model">Model</label>
          <select
            id="trash-model"
            value={model ?? ""}
            onChange={(e) => void navigate({ to: "/trash", search: e.target.value ? { model: e.target.value } : {} })}
          >
            <option value="">All models</option>
            {(models.data ?? []).map((m) => (
              <option key={m.id} value={m.namespace}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="muted">Deleted entries stay here until they are restored or deleted for ever; the server empties the trash of entries deleted long ago.</p>
      <div aria-live="polite">
        {said && (
          <p className="notice">
            {said.text}{" "}
            {said.open && (
              <Link to="/content/$model/$entryId" params={{ model: said.open.model, entryId: said.open.id }}>
                Open it
              </Link>
            )}
          </p>
        )}
      </div>
      {pages.isError && <p role="alert">{pages.error.message}</p>}
      {total !== undefined && <p className="muted">{total === 1 ? "1 entry" : `${total} entries`}</p>}
      {pages.isSuccess && rows.length === 0 ? (
        <p className="empty">The trash is empty.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Entries in the trash</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Deleted</th>
                <th scope="col">By</th>
                {canWrite && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.id}>
                  <td>{titleOf(t)}</td>
                  <td>{modelName(t)}</td>
                  <td>
                    <StatusBadge status={t.status} />
                  </td>
                  <td>
                    <time dateTime={t.deletedAt}>{instantIn(t.deletedAt)}</time>
                  </td>
                  <td>{actorName(t.deletedBy, members.data)}</td>
                  {canWrite && (
                    <td className="row-actions">
                      <button type="button" className="btn" aria-label={`Restore ${titleOf(t)}`} disabled={restore.isPending} onClick={() => restore.mutate(t)}>
                        Restore
                      </button>
                      <button type="button" className="btn btn-danger" aria-label={`Delete ${titleOf(t)} for ever`} onClick={() => setPurging(t)}>
                        Delete for ever
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage && (
        <button type="button" className="btn" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
      <Dialog open={purging !== null} title={purging ? `Delete “${titleOf(purging)}” for ever?` : ""} onCancel={() => setPurging(null)}>
        <p>The entry and all its versions are removed for good. This cannot be undone.</p>
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={purge.isPending} onClick={() => purging && purge.mutate(purging)}>
            Delete for ever
          </button>
          <button type="button" className="btn" onClick={() => setPurging(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
