// A table of scheduled actions: the target (linking to its editor), the action, the wall time
// with its zone, the resolved instant in the viewer's zone, the status (with the last error of
// a failed one), the batch, and the buttons the person may press.
import { Link } from "@tanstack/react-router";
import { ACTION_WORDS, type Action } from "../../api/scheduled.ts";
import { instantIn, utc, VIEWER_ZONE, wallIn } from "../../ui/time-zones.ts";
import { ActionButtons, ActionStatusBadge, TargetLink, type Said } from "./action-parts.tsx";

interface Props {
  caption: string;
  actions: Action[];
  projectId: string;
  /** Whether the person may reschedule, cancel and retry. */
  canWrite: boolean;
  /** Whether to show the batch column (not inside a batch's own page). */
  showBatch?: boolean;
  say(s: Said): void;
}

/** The table. */
export function ActionTable({ caption, actions, projectId, canWrite, showBatch = true, say }: Props) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Target</th>
            <th scope="col">Action</th>
            <th scope="col">Wall time</th>
            <th scope="col">Runs at (your time, {VIEWER_ZONE})</th>
            <th scope="col">Status</th>
            {showBatch && <th scope="col">Batch</th>}
            {canWrite && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {actions.map((a) => (
            <tr key={a.id}>
              <th scope="row">
                <TargetLink action={a} />
              </th>
              <td>{ACTION_WORDS[a.action]}</td>
              <td>{wallIn(a)}</td>
              <td>
                <time dateTime={a.resolved.at} title={utc(a.resolved.at)}>
                  {instantIn(a.resolved.at)}
                </time>
                {a.resolved.note && <div className="muted">{a.resolved.note}</div>}
              </td>
              <td>
                <ActionStatusBadge status={a.status} />
                {(a.status === "failed" || a.status === "dead") && a.lastError && <div className="muted">{a.lastError}</div>}
              </td>
              {showBatch && (
                <td>
                  <Link to="/scheduled/batch/$batchId" params={{ batchId: a.batchId }} aria-label={`Batch ${a.batchId.slice(-8)}`} className="mono">
                    {a.batchId.slice(-8)}
                  </Link>
                </td>
              )}
              {canWrite && (
                <td>
                  <ActionButtons action={a} projectId={projectId} say={say} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
