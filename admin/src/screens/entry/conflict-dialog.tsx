// A save refused with 409 version_conflict (decisions.md 3): someone saved the entry since this
// form loaded it. The dialog says which fields changed there and which are unsaved here, and
// lets the person reload the newer version or overwrite it with their changed fields.
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { labelOf } from "../../api/models.ts";
import type { Entry, Model } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The conflict dialog; `base` is the draft the form was loaded from, `mine` the fields changed here. */
export function ConflictDialog(props: {
  open: boolean;
  entryId: string;
  model: Model;
  base: Record<string, unknown>;
  mine: Set<string>;
  onReload(current: Entry): void;
  onOverwrite(current: Entry): void;
  onCancel(): void;
}) {
  // gcTime 0: the answer is dropped when the dialog closes, so the next conflict fetches the entry again.
  const current = useQuery({ queryKey: ["conflict", props.entryId], queryFn: () => api.entries.get(props.entryId), staleTime: 0, gcTime: 0 });
  const theirs = current.data ? props.model.fields.filter((f) => !same(current.data.draft.data[f.namespace], props.base[f.namespace])) : [];
  const words = (fs: typeof theirs) => fs.map(labelOf).join(", ") || "none";
  return (
    <Dialog open={props.open} title="This entry changed while you edited it" onCancel={props.onCancel}>
      {!current.data ? (
        <p>Loading the newer version…</p>
      ) : (
        <>
          <p>{`It is now at version ${current.data.version}. Changed there: ${words(theirs)}.`}</p>
          <p>{`Not saved here: ${words(props.model.fields.filter((f) => props.mine.has(f.namespace)))}.`}</p>
          <p className="muted">Reload shows the newer version and drops your changes; Overwrite saves your changed fields over it.</p>
          <div className="toolbar">
            <button type="button" className="btn" onClick={() => props.onReload(current.data)}>
              Reload
            </button>
            <button type="button" className="btn btn-primary" onClick={() => props.onOverwrite(current.data)}>
              Overwrite
            </button>
            <button type="button" className="btn" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
