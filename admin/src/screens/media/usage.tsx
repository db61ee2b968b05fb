// Where a file is used (GET /v2/media/:id/usage), and deleting it: a confirmation first, then,
// when the server answers 409 media_in_use, a warning naming the entries that would be left with
// a missing file and an explicit `Delete anyway` (DELETE ...?force=true).
import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ApiError, api, keys } from "../../api/client.ts";
import { type MediaFile, type MediaUse, mediaApi } from "../../api/media.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";

const COPIES: Record<string, string> = { draft: "in the draft", published: "in the published copy", "draft,published": "in the draft and the published copy" };

/** The entries of a usage answer, each a link to the entry editor. */
export function UsageList({ project, entries }: { project: string; entries: MediaUse[] }) {
  const models = useQuery({ queryKey: keys.models(project), queryFn: api.models.list });
  if (entries.length === 0) return <p className="muted">No entry uses this file.</p>;
  return (
    <ul className="usage-list">
      {entries.map((u) => (
        <li key={u.id}>
          <Link to="/content/$model/$entryId" params={{ model: u.namespace, entryId: u.id }}>
            {u.title?.trim() || "Untitled entry"}
          </Link>{" "}
          <span className="muted">
            {models.data?.find((m) => m.id === u.modelId)?.name ?? u.namespace}, {COPIES[u.copies.join()] ?? u.copies.join(", ")}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** `Delete` and its dialogs; `onDeleted` runs once the file is gone. */
export function DeleteFile({ project, file, onDeleted }: { project: string; file: MediaFile; onDeleted(): void }) {
  const [open, setOpen] = useState(false);
  // The entries of a 409 media_in_use, kept while `Delete anyway` runs.
  const [inUse, setInUse] = useState<MediaUse[] | null>(null);
  const remove = useMutation({
    mutationFn: (force: boolean) => mediaApi.remove(file.id, force),
    onSuccess: onDeleted,
    onError: (e) => {
      if (e instanceof ApiError && e.code === "media_in_use") setInUse((e.body?.entries as MediaUse[] | undefined) ?? []);
    },
  });
  const close = () => {
    setOpen(false);
    setInUse(null);
    remove.reset();
  };
  const count = inUse?.length ?? 0;
  return (
    <>
      <button type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
        Delete
      </button>
      <Dialog open={open} title={inUse ? `${file.filename} is in use` : `Delete ${file.filename}?`} onCancel={close}>
        {inUse ? (
          <>
            <p role="alert">
              {`It is used by ${count === 1 ? "1 entry" : `${count} entries`}. Deleting it leaves ${count === 1 ? "that entry" : "them"} with a missing file (reads answer null for it):`}
            </p>
            <UsageList project={project} entries={inUse} />
          </>
        ) : (
          <p>The file leaves the library and its URL stops working. This cannot be undone.</p>
        )}
        {remove.error && !(remove.error instanceof ApiError && remove.error.code === "media_in_use") && <Refusal error={remove.error} />}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => remove.mutate(inUse !== null)}>
            {inUse ? "Delete anyway" : "Delete"}
          </button>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
