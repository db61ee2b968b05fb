// One related entry as the editor shows it: its title and status, "Deleted entry" when the
// server no longer has it (with Restore when it is in the trash), and, as the layout asks, a link that opens it (`inline`) or its
// fields read-only in place (`embedded`).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { keys } from "../../api/client.ts";
import { editingApi, trashKeys } from "../../api/editing.ts";
import { useProject } from "../../screens/shell/project-context.ts";
import { canEditEntries } from "../../ui/refusal.tsx";
import { entryTitle, labelOf } from "../../api/models.ts";
import type { Entry, LayoutField, Model } from "../../api/types.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { shortText } from "../types.ts";
import { useRelated } from "./use-related.ts";

/** The related entry's fields, read-only. */
function Embedded({ entry, model }: { entry: Entry; model: Model }) {
  return (
    <section className="embedded" aria-label={`${model.name}: ${entryTitle(model, entry)}`}>
      <dl>
        {model.fields.map((f) => (
          <div key={f.id}>
            <dt className="muted">{labelOf(f)}</dt>
            <dd>{shortText(entry.draft.data[f.namespace])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** "Deleted entry", with Restore when the entry is in the trash and the person may restore it. */
function Missing({ id, projectId }: { id: string; projectId: string }) {
  const { project } = useProject();
  const client = useQueryClient();
  const trashed = useQuery({ queryKey: trashKeys.one(projectId, id), queryFn: () => editingApi.trash.get(id), retry: false });
  const restore = useMutation({
    mutationFn: () => editingApi.trash.restore(id),
    onSuccess: async () => {
      client.removeQueries({ queryKey: trashKeys.one(projectId, id) });
      await client.invalidateQueries({ queryKey: keys.entry(projectId, id) });
      await client.invalidateQueries({ queryKey: trashKeys.all(projectId) });
    },
  });
  const t = trashed.data;
  return (
    <span className="related-missing">
      Deleted entry
      {t && canEditEntries(project.role) && (
        <>
          {" "}
          <button
            type="button"
            className="btn btn-quiet"
            aria-label={`Restore ${t.title ?? "the deleted entry"}`}
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
          >
            Restore
          </button>
        </>
      )}
      {restore.isError && <span role="alert"> {restore.error.message}</span>}
    </span>
  );
}

/** The title (or "Deleted entry") and status of a related entry, with the layout's display. */
export function RelatedEntry({ id, target, projectId, display }: { id: string; target: Model; projectId: string; display?: LayoutField["display"] }) {
  const { entry, missing } = useRelated(projectId, id);
  if (missing) return <Missing id={id} projectId={projectId} />;
  if (!entry) return <span className="muted">Loading…</span>;
  const title = entryTitle(target, entry);
  return (
    <>
      <span className="related-title">
        {display === "inline" ? <Link to="/content/$model/$entryId" params={{ model: target.namespace, entryId: id }}>{`Open ${title}`}</Link> : title}{" "}
        <StatusBadge status={entry.status} />
      </span>
      {display === "embedded" && <Embedded entry={entry} model={target} />}
    </>
  );
}

/** A related entry's title in a cell or a comparison. */
export function RelatedTitle({ id, target, projectId }: { id: string; target: Model; projectId: string }) {
  const { entry, missing } = useRelated(projectId, id);
  if (missing) return "Deleted entry";
  return entry ? entryTitle(target, entry) : "…";
}
