// One batch of scheduled actions (the actions one request created): a count per status, the
// batch's actions, and `Reschedule batch` and `Cancel batch`, which touch its pending actions only.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { ACTION_STATUS_WORDS, ACTION_STATUSES, scheduledApi, scheduledKeys } from "../../api/scheduled.ts";
import { canEditEntries, Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { resolvedWords, SaidLine, type Said } from "./action-parts.tsx";
import { ActionTable } from "./action-table.tsx";
import { RescheduleDialog } from "./reschedule-dialog.tsx";

/** The screen. */
export function BatchScreen() {
  const { project } = useProject();
  const { batchId } = useParams({ from: "/app/scheduled/batch/$batchId" });
  const client = useQueryClient();
  const batch = useQuery({ queryKey: scheduledKeys.batch(project.id, batchId), queryFn: () => scheduledApi.batch(batchId) });
  // The batch's actions with their targets in words (the list route expands them; the batch route does not).
  const filter = { batchId, limit: 200 };
  const list = useQuery({ queryKey: scheduledKeys.list(project.id, filter), queryFn: () => scheduledApi.list(filter) });
  const [said, setSaid] = useState<Said | null>(null);
  const [rescheduling, setRescheduling] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: scheduledKeys.all(project.id) });
  const cancel = useMutation({
    mutationFn: () => scheduledApi.cancelBatch(batchId),
    onSuccess: (r) => setSaid({ text: `Cancelled ${r.cancelled.length === 1 ? "1 pending action" : `${r.cancelled.length} pending actions`}.`, alert: false }),
    onError: (e: Error) => setSaid({ text: `Could not cancel the batch: ${e.message}`, alert: true }),
    onSettled: refresh,
  });
  const short = batchId.slice(-8);
  const canWrite = canEditEntries(project.role);

  if (batch.isError) {
    return (
      <>
        <h1>Batch {short}</h1>
        <Refusal error={batch.error} />
      </>
    );
  }
  if (!batch.data) return <p>Loading…</p>;
  const pending = batch.data.actions.filter((a) => a.status === "pending");
  return (
    <>
      <p>
        <Link to="/scheduled">All scheduled actions</Link>
      </p>
      <div className="toolbar">
        <h1>Batch {short}</h1>
        <span className="spacer" />
        {canWrite && pending.length > 0 && (
          <>
            <button type="button" className="btn" onClick={() => setRescheduling(true)}>
              Reschedule batch
            </button>
            <button type="button" className="btn btn-danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel batch
            </button>
          </>
        )}
      </div>
      <h2 className="visually-hidden">Actions per status</h2>
      <dl className="facts">
        <div>
          <dt>All</dt>
          <dd>{batch.data.total}</dd>
        </div>
        {ACTION_STATUSES.map((st) => (
          <div key={st}>
            <dt>{ACTION_STATUS_WORDS[st]}</dt>
            <dd>{batch.data.counts[st]}</dd>
          </div>
        ))}
      </dl>
      <SaidLine said={said} />
      {list.isError ? (
        <Refusal error={list.error} />
      ) : !list.data ? (
        <p>Loading…</p>
      ) : (
        <ActionTable
          caption={`Actions of batch ${short}`}
          actions={list.data.data}
          projectId={project.id}
          canWrite={canWrite}
          showBatch={false}
          say={setSaid}
        />
      )}
      {rescheduling && pending[0] && (
        <RescheduleDialog
          title={`Reschedule ${pending.length === 1 ? "1 pending action" : `${pending.length} pending actions`}`}
          initial={pending[0]}
          send={(wallTime, timezone) => scheduledApi.rescheduleBatch(batchId, wallTime, timezone).then((r) => r.resolved)}
          onCancel={() => setRescheduling(false)}
          onDone={(r) => {
            setRescheduling(false);
            setSaid({ text: `Rescheduled the batch: ${resolvedWords(r)}`, alert: false });
            void refresh();
          }}
        />
      )}
    </>
  );
}
