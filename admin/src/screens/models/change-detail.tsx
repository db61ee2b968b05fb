// One field change in a dialog (GET /v2/field-changes/:id): its state, times and error, and every
// value that failed to convert (entry, field, copy, the value as stored, the reason), 50 a page.
// A failed or cancelled change can be resumed from here, keeping or clearing what still fails.
import { useState } from "react";
import { useMutation, useQueries, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { changeApi, type ChangeFailure, type FieldChange } from "../../api/model-admin.ts";
import { entryTitle } from "../../api/models.ts";
import type { Model } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { RESUMABLE, STATE_WORDS, summary } from "./change-words.ts";

/** Rows a page shows; the server answers 1,000 failures a page, so one server page is 20 of ours. */
const PAGE = 50;
const SERVER_PAGE = 1000;
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The value as stored, in one line: JSON, so "12" and 12 read apart. */
function shown(v: unknown): string {
  return JSON.stringify(v) ?? "null";
}

/** The failures of the page shown, each entry named by its title (read once per entry). */
function FailureTable(props: { rows: ChangeFailure[]; model: Model; project: string }) {
  const project = props.project;
  const ids = [...new Set(props.rows.map((r) => r.entryId))];
  const entries = useQueries({
    queries: ids.map((id) => ({ queryKey: keys.entry(project, id), queryFn: () => api.entries.get(id), retry: false })),
  });
  const titles = new Map(ids.map((id, i) => [id, entries[i]?.data ? entryTitle(props.model, entries[i].data) : null]));
  return (
    <table>
      <caption className="visually-hidden">Values that failed to convert</caption>
      <thead>
        <tr>
          <th scope="col">Entry</th>
          <th scope="col">Field</th>
          <th scope="col">Copy</th>
          <th scope="col">Value</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((f) => (
          <tr key={`${f.entryId}-${f.fieldId}-${f.copy}`}>
            <th scope="row">
              <Link to="/content/$model/$entryId" params={{ model: props.model.namespace, entryId: f.entryId }}>
                {/* An entry deleted since reads as its id. */}
                {titles.get(f.entryId) ?? f.entryId}
              </Link>
            </th>
            <td className="mono">{f.namespace ?? f.fieldId}</td>
            <td>{f.copy === "draft" ? "Draft" : "Published"}</td>
            <td className="mono">{shown(f.value)}</td>
            <td>{f.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The dialog of change `id`, numbered `n` in the model's list. */
export function ChangeDetailDialog(props: {
  id: string;
  n: number;
  model: Model;
  project: string;
  shape: boolean;
  onClose(): void;
  onResumed(c: FieldChange): void;
}) {
  const [page, setPage] = useState(0);
  const serverPage = Math.floor((page * PAGE) / SERVER_PAGE) + 1;
  const detail = useQuery({
    queryKey: ["field-change-detail", props.project, props.id, serverPage],
    queryFn: () => changeApi.detail(props.id, serverPage),
    // Opened to see the change as it is now: never an answer kept from an earlier opening.
    staleTime: 0,
    gcTime: 0,
  });
  const resume = useMutation({ mutationFn: (onFailure?: "clear") => changeApi.resume(props.id, onFailure), onSuccess: props.onResumed });
  const c = detail.data;
  const offset = (page * PAGE) % SERVER_PAGE;
  const rows = c?.failures.data.slice(offset, offset + PAGE) ?? [];
  const failed = c?.failures.total ?? 0;
  const pages = Math.max(1, Math.ceil(failed / PAGE));
  return (
    <Dialog open title={`Change ${props.n}`} onCancel={props.onClose}>
      {detail.isError ? (
        <Refusal error={detail.error} />
      ) : !c ? (
        <p>Loading…</p>
      ) : (
        <div className="form-stack">
          <dl className="facts">
            <dt>What</dt>
            <dd>{summary(c)}</dd>
            <dt>State</dt>
            <dd>{STATE_WORDS[c.state]}</dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={c.createdAt}>{when.format(new Date(c.createdAt))}</time>
            </dd>
            <dt>Ended</dt>
            <dd>{c.finishedAt ? <time dateTime={c.finishedAt}>{when.format(new Date(c.finishedAt))}</time> : "Not yet"}</dd>
            <dt>Entries</dt>
            <dd>{c.progress.total > 0 ? `${c.progress.done} of ${c.progress.total} converted` : "Not counted yet"}</dd>
          </dl>
          {c.error?.message && <p className="form-error">{c.error.message}</p>}
          <h3>{failed === 1 ? "1 value failed to convert" : `${failed} values failed to convert`}</h3>
          {failed > 0 && <FailureTable rows={rows} model={props.model} project={props.project} />}
          {pages > 1 && (
            <div className="toolbar">
              <button type="button" className="btn" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous failures
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button type="button" className="btn" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next failures
              </button>
            </div>
          )}
          {resume.error && <Refusal error={resume.error} />}
          <div className="toolbar">
            {props.shape && RESUMABLE.has(c.state) && (
              <>
                <button type="button" className="btn btn-primary" disabled={resume.isPending} onClick={() => resume.mutate(undefined)}>
                  Resume
                </button>
                {failed > 0 && (
                  // Values that fail again are emptied instead of stopping the change; they stay listed.
                  <button type="button" className="btn" disabled={resume.isPending} onClick={() => resume.mutate("clear")}>
                    Resume and clear values that fail
                  </button>
                )}
              </>
            )}
            <button type="button" className="btn" onClick={props.onClose}>
              Close
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
