// Delete, to the trash (issue 26 items 7 and 8): the dialog first asks who points at the entry
// (GET /v2/model-instances/:id/usage) and says which entries and how many, since their relations
// will read "Deleted entry" until it is restored. Delete moves it to the trash, from where the
// Trash screen restores it.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { editingApi, trashKeys } from "../../api/editing.ts";
import { Dialog } from "../../ui/dialog.tsx";

export function DeleteDialog(props: { open: boolean; entryId: string; projectId: string; title: string; onDelete(): void; onCancel(): void }) {
  const usage = useQuery({
    queryKey: trashKeys.usage(props.projectId, props.entryId),
    queryFn: () => editingApi.usage(props.entryId),
    enabled: props.open,
    staleTime: 0,
  });
  const uses = usage.data ?? [];
  return (
    <Dialog open={props.open} title="Delete this entry?" onCancel={props.onCancel}>
      <p>“{props.title}” moves to the trash, with its versions and tags; the Trash screen restores it.</p>
      {usage.isPending && <p className="muted">Looking for entries that point at it…</p>}
      {uses.length > 0 && (
        <>
          <p role="alert">{uses.length === 1 ? "1 entry points at it" : `${uses.length} entries point at it`}; their relations will read “Deleted entry”:</p>
          <ul>
            {uses.map((u) => (
              <li key={u.id}>
                <Link to="/content/$model/$entryId" params={{ model: u.namespace, entryId: u.id }}>
                  {u.title ?? "Untitled entry"}
                </Link>
                {` (${u.namespace}, ${u.fields.join(", ")})`}
              </li>
            ))}
          </ul>
        </>
      )}
      {usage.isSuccess && uses.length === 0 && <p className="muted">No other entry points at it.</p>}
      <div className="toolbar">
        <button type="button" className="btn btn-danger-solid" onClick={props.onDelete}>
          Delete
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
