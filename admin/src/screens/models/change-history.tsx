// The past field changes of a model (GET /v2/models/:id/field-changes, newest first): what each
// changed, its state, when, how many entries it converted and how many values failed; `Details`
// opens the failed values, `Resume` queues a failed or cancelled change again.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { changeApi, type FieldChange } from "../../api/model-admin.ts";
import type { Model } from "../../api/types.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { ChangeDetailDialog } from "./change-detail.tsx";
import { RESUMABLE, STATE_WORDS, summary } from "./change-words.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
/** States the job still moves on its own, so the list is asked for again. */
const MOVING = new Set(["queued", "converting", "moving"]);

/** The query key of a model's changes; the progress card refreshes it when a change moves. */
export const historyKey = (project: string, modelId: string) => ["field-changes", project, modelId] as const;

/** The section; `onResumed` hands the resumed change to the live progress card. */
export function ChangeHistory(props: { model: Model; project: string; shape: boolean; onResumed(c: FieldChange): void }) {
  const client = useQueryClient();
  const [detail, setDetail] = useState<{ id: string; n: number } | null>(null);
  const list = useQuery({
    queryKey: historyKey(props.project, props.model.id),
    queryFn: () => changeApi.list(props.model.id),
    refetchInterval: (q) => (q.state.data?.data.some((c) => MOVING.has(c.state)) ? 1000 : false),
  });
  const resume = useMutation({
    mutationFn: (id: string) => changeApi.resume(id),
    onSuccess: (c) => {
      void client.invalidateQueries({ queryKey: historyKey(props.project, props.model.id) });
      props.onResumed(c);
    },
  });
  // Where the server runs without field changes (CAPA_FIELD_CHANGES=off) there is nothing to list.
  if (list.error instanceof ApiError && list.error.code === "feature_disabled") return null;
  if (list.isError) return <Refusal error={list.error} />;
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  return (
    <section className="screen-section" aria-labelledby="history-title">
      <h2 id="history-title">Change history</h2>
      {!list.data ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No field changes yet. Changing a field’s kind on a model with entries makes one.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Field changes of {props.model.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Change</th>
                <th scope="col">What</th>
                <th scope="col">State</th>
                <th scope="col">When</th>
                <th scope="col">Entries</th>
                <th scope="col">Failed values</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c, i) => {
                // Numbered oldest first so a change keeps its number as new ones arrive.
                const n = total - i;
                return (
                  <tr key={c.id}>
                    <th scope="row">Change {n}</th>
                    <td>{summary(c)}</td>
                    <td>{STATE_WORDS[c.state]}</td>
                    <td>
                      <time dateTime={c.createdAt}>{when.format(new Date(c.createdAt))}</time>
                    </td>
                    <td>{c.progress.total > 0 ? `${c.progress.done} of ${c.progress.total}` : "—"}</td>
                    <td>{c.progress.failed}</td>
                    <td className="row-actions">
                      <button type="button" className="btn btn-quiet" aria-label={`Details of change ${n}`} onClick={() => setDetail({ id: c.id, n })}>
                        Details
                      </button>
                      {props.shape && RESUMABLE.has(c.state) && (
                        <button
                          type="button"
                          className="btn btn-quiet"
                          aria-label={`Resume change ${n}`}
                          disabled={resume.isPending}
                          onClick={() => resume.mutate(c.id)}
                        >
                          Resume
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {resume.error && <Refusal error={resume.error} />}
      {detail && (
        <ChangeDetailDialog
          id={detail.id}
          n={detail.n}
          model={props.model}
          project={props.project}
          shape={props.shape}
          onClose={() => setDetail(null)}
          onResumed={(c) => {
            setDetail(null);
            void client.invalidateQueries({ queryKey: historyKey(props.project, props.model.id) });
            props.onResumed(c);
          }}
        />
      )}
    </section>
  );
}
