// The Scheduled screen (issue 14 item 8): every scheduled publish and unpublish of the project,
// as a list (status filter and pages in the URL) or as a month calendar in the viewer's time
// zone, with Reschedule, Cancel and Retry, and a banner for the failures of the last 7 days.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ACTION_STATUS_WORDS, ACTION_STATUSES, scheduledApi, scheduledKeys } from "../../api/scheduled.ts";
import { canEditEntries, Refusal } from "../../ui/refusal.tsx";
import { instantIn } from "../../ui/time-zones.ts";
import { useProject } from "../shell/project-context.ts";
import { SaidLine, type Said } from "./action-parts.tsx";
import { ActionTable } from "./action-table.tsx";
import { ActionCalendar, thisMonth } from "./action-calendar.tsx";

const PAGE = 25;

/** The status choices of the filter: each status, and failed or dead together. */
const FILTERS: [string, string][] = [
  ["", "Any status"],
  ...ACTION_STATUSES.map((s): [string, string] => [s, ACTION_STATUS_WORDS[s]]),
  ["failed,dead", "Failed or dead"],
];

/** The failures of the last 7 days that no one has answered yet, with a way to see them. */
function FailuresBanner({ projectId }: { projectId: string }) {
  const failures = useQuery({ queryKey: scheduledKeys.failures(projectId), queryFn: scheduledApi.failures });
  if (!failures.data || failures.data.count === 0) return null;
  const { count, latest } = failures.data;
  return (
    <section className="notice notice-failed" aria-labelledby="failures-title">
      <h2 id="failures-title">{count === 1 ? "1 scheduled action failed" : `${count} scheduled actions failed`} in the last 7 days</h2>
      {latest && (
        <p>
          Latest: {latest.action === "publish" ? "publish" : "unpublish"} at {instantIn(latest.lastFailedAt ?? latest.resolved.at)}
          {latest.lastError ? `: ${latest.lastError}` : "."}
        </p>
      )}
      <Link to="/scheduled" search={{ status: "failed,dead" }}>
        Show failed actions
      </Link>
    </section>
  );
}

/** The screen. */
export function ScheduledScreen() {
  const { project } = useProject();
  const search = useSearch({ from: "/app/scheduled" });
  const navigate = useNavigate({ from: "/scheduled" });
  const [said, setSaid] = useState<Said | null>(null);
  const view = search.view ?? "list";
  const canWrite = canEditEntries(project.role);

  return (
    <>
      <div className="toolbar">
        <h1>Scheduled</h1>
        <span className="spacer" />
        {/* The router marks the link of the view shown with aria-current (exact: its search must match). */}
        <nav aria-label="Views" className="view-switch">
          <Link to="/scheduled" search={(s) => ({ ...s, view: undefined })} activeOptions={{ exact: true }}>
            List
          </Link>
          <Link to="/scheduled" search={(s) => ({ ...s, view: "calendar", page: undefined })} activeOptions={{ exact: true }}>
            Calendar
          </Link>
        </nav>
      </div>
      {!canWrite && <p className="notice">Your role ({project.role}) can see what is scheduled; owners, admins, developers and editors change it.</p>}
      <FailuresBanner projectId={project.id} />
      <div className="toolbar">
        <div className="field">
          <label htmlFor="action-status">Status</label>
          <select
            id="action-status"
            value={search.status ?? ""}
            onChange={(e) => void navigate({ search: (s) => ({ ...s, status: e.target.value || undefined, page: undefined }) })}
          >
            {FILTERS.map(([value, word]) => (
              <option key={value} value={value}>
                {word}
              </option>
            ))}
          </select>
        </div>
      </div>
      <SaidLine said={said} />
      {view === "calendar" ? (
        <ActionCalendar projectId={project.id} month={search.month ?? thisMonth()} status={search.status} />
      ) : (
        <ActionList projectId={project.id} status={search.status} page={search.page ?? 1} canWrite={canWrite} say={setSaid} />
      )}
    </>
  );
}

/** The list view: one page of actions by run time, soonest first. */
function ActionList(props: { projectId: string; status?: string; page: number; canWrite: boolean; say(s: Said): void }) {
  const navigate = useNavigate({ from: "/scheduled" });
  const filter = { status: props.status, page: props.page, limit: PAGE };
  const list = useQuery({ queryKey: scheduledKeys.list(props.projectId, filter), queryFn: () => scheduledApi.list(filter) });
  if (list.isError) return <Refusal error={list.error} />;
  if (!list.data) return <p>Loading…</p>;
  const { data, total, page } = list.data;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  if (total === 0) {
    return <p>{props.status ? "No scheduled actions with this status." : "Nothing is scheduled yet. Schedule a publish from an entry's editor."}</p>;
  }
  return (
    <>
      <ActionTable caption="Scheduled actions" actions={data} projectId={props.projectId} canWrite={props.canWrite} say={props.say} />
      <div className="toolbar pager">
        <p className="muted" aria-live="polite">
          Page {page} of {pages} ({total === 1 ? "1 action" : `${total} actions`})
        </p>
        <span className="spacer" />
        <button
          type="button"
          className="btn"
          disabled={page <= 1}
          onClick={() => void navigate({ search: (s) => ({ ...s, page: page - 1 > 1 ? page - 1 : undefined }) })}
        >
          Previous page
        </button>
        <button type="button" className="btn" disabled={page >= pages} onClick={() => void navigate({ search: (s) => ({ ...s, page: page + 1 }) })}>
          Next page
        </button>
      </div>
    </>
  );
}
