// The deliveries log of one endpoint: newest first, each with its details (the request sent and
// every attempt's headers and answer, delivery-detail.tsx) behind a toggle, and `Redeliver`
// (the same event again, as a new delivery) once a delivery has been tried: also while it retries,
// which stops its retries. While a delivery is open the log refreshes itself every second.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { EVENT_WORDS, hookApi, hookKeys, type Delivery } from "../../api/webhooks.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { DeliveryDetail } from "./delivery-detail.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const OPEN = new Set(["pending", "sending", "retrying"]);
/** A delivery waiting for its first attempt or being sent that moment cannot be sent again yet (409). */
const BUSY = new Set(["pending", "sending"]);
const STATUS_WORDS: Record<Delivery["status"], string> = {
  pending: "Pending",
  sending: "Sending",
  succeeded: "Succeeded",
  retrying: "Retrying",
  failed: "Failed",
};

function eventWord(t: string): string {
  return t === "webhook.test" ? "Test" : (EVENT_WORDS[t] ?? t);
}

/** The log of endpoint `id` in project `project`. */
export function Deliveries({ project, id }: { project: string; id: string }) {
  const client = useQueryClient();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const list = useQuery({
    queryKey: hookKeys.deliveries(project, id),
    queryFn: () => hookApi.deliveries(id),
    refetchInterval: (q) => (q.state.data?.data.some((d) => OPEN.has(d.status)) ? 1000 : false),
  });
  const redeliver = useMutation({
    mutationFn: (d: Delivery) => hookApi.redeliver(id, d.id),
    onSuccess: () => client.invalidateQueries({ queryKey: hookKeys.deliveries(project, id) }),
  });
  if (list.isError) return <Refusal error={list.error} />;
  if (!list.data) return <p>Loading…</p>;
  const rows = list.data.data;
  return (
    <section className="screen-section" aria-labelledby="deliveries-title">
      <div className="toolbar">
        <h2 id="deliveries-title">Deliveries</h2>
        <span className="spacer" />
        <button type="button" className="btn" onClick={() => void list.refetch()}>
          Refresh
        </button>
      </div>
      {redeliver.error && <Refusal error={redeliver.error} />}
      {rows.length === 0 ? (
        <p>No deliveries yet. Use “Send test” to send one now.</p>
      ) : (
        <ul className="delivery-list">
          {rows.map((d) => {
            const shown = open.has(d.id);
            const last = d.attempts[d.attempts.length - 1];
            return (
              <li key={d.id} className="card" aria-label={`${eventWord(d.eventType)} delivery, ${STATUS_WORDS[d.status]}`}>
                <div className="toolbar">
                  <strong>{eventWord(d.eventType)}</strong>
                  <span className={d.status === "succeeded" ? "status status-published" : "status status-changed"}>{STATUS_WORDS[d.status]}</span>
                  <span className="muted">
                    {d.attemptCount === 1 ? "1 attempt" : `${d.attemptCount} attempts`}
                    {last?.statusCode != null ? `, last HTTP ${last.statusCode}` : ""}
                    {d.status === "retrying" && d.nextAttemptAt ? `, next try ${when.format(new Date(d.nextAttemptAt))}` : ""}
                  </span>
                  <time className="muted" dateTime={d.createdAt}>
                    {when.format(new Date(d.createdAt))}
                  </time>
                  <span className="spacer" />
                  <button
                    type="button"
                    className="btn btn-quiet"
                    aria-expanded={shown}
                    onClick={() => {
                      const next = new Set(open);
                      if (!next.delete(d.id)) next.add(d.id);
                      setOpen(next);
                    }}
                  >
                    Details
                  </button>
                  {!BUSY.has(d.status) && (
                    <button type="button" className="btn" disabled={redeliver.isPending} onClick={() => redeliver.mutate(d)}>
                      Redeliver
                    </button>
                  )}
                </div>
                {d.redeliveryOf && <p className="muted">Sent again from an earlier delivery of the same event.</p>}
                {d.note && <p className="muted">{d.note}</p>}
                {shown && <DeliveryDetail project={project} id={id} deliveryId={d.id} />}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
