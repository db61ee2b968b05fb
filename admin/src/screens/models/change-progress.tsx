// The live progress of an applied field change: its state and how many entries are converted,
// asked again every second until it ends; `Cancel` while the server allows it, `Resume` once it
// failed or was cancelled.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { changeApi, type FieldChange } from "../../api/model-admin.ts";
import { keys } from "../../api/client.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { RESUMABLE, STATE_WORDS } from "./change-words.ts";

const ENDED = new Set(["done", "failed", "cancelled"]);
const CANCELLABLE = new Set(["planned", "queued", "converting", "failed"]);

/** The card of change `id` on model screen `project`. */
export function ChangeProgress({ id, project }: { id: string; project: string }) {
  const client = useQueryClient();
  const change = useQuery({
    queryKey: ["field-change", project, id],
    queryFn: async () => {
      const before = client.getQueryData<FieldChange>(["field-change", project, id]);
      const c = await changeApi.get(id);
      // The model has its new fields once the change is done.
      if (c.state === "done") void client.invalidateQueries({ queryKey: keys.models(project) });
      // The list of past changes shows the state too.
      if (before?.state !== c.state) void client.invalidateQueries({ queryKey: ["field-changes", project] });
      return c;
    },
    refetchInterval: (q) => (q.state.data && ENDED.has(q.state.data.state) ? false : 1000),
  });
  const cancel = useMutation({ mutationFn: () => changeApi.cancel(id), onSuccess: () => change.refetch() });
  const resume = useMutation({ mutationFn: () => changeApi.resume(id), onSuccess: () => change.refetch() });
  if (change.isError) return <Refusal error={change.error} />;
  const c = change.data;
  return (
    <section className="card screen-section" aria-labelledby="change-title">
      <h2 id="change-title">Field change</h2>
      {!c ? (
        <p>Loading…</p>
      ) : (
        <>
          <p aria-live="polite">
            {STATE_WORDS[c.state]}
            {/* The total is counted when the job starts; a queued change (new or resumed) has
                nothing to count yet, whatever an earlier run left in its counts. */}
            {c.progress.total > 0 && c.state !== "queued" ? `: ${c.progress.done} of ${c.progress.total} entries converted` : ""}
            {c.progress.failed && c.state !== "queued" ? `, ${c.progress.failed} values failed` : ""}.
          </p>
          {c.error?.message && <p className="form-error">{c.error.message}</p>}
          {cancel.error && <Refusal error={cancel.error} />}
          {resume.error && <Refusal error={resume.error} />}
          {CANCELLABLE.has(c.state) && (
            <button type="button" className="btn" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel change
            </button>
          )}
          {RESUMABLE.has(c.state) && (
            <button type="button" className="btn" disabled={resume.isPending} onClick={() => resume.mutate()}>
              Resume change
            </button>
          )}
        </>
      )}
    </section>
  );
}
