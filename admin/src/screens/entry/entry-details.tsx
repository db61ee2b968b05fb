// The editor's aside: the entry's status, versions and when it last changed.
import { useQuery } from "@tanstack/react-query";
import { api, keys } from "../../api/client.ts";
import type { Entry } from "../../api/types.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { useProject } from "../shell/project-context.ts";
import { ScheduleCard } from "./schedule-card.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Status, version numbers and the version history of an entry. */
export function EntryDetails({ entry }: { entry: Entry }) {
  const { project } = useProject();
  const versions = useQuery({ queryKey: keys.versions(project.id, `${entry.id}:${entry.version}`), queryFn: () => api.entries.versions(entry.id) });
  return (
    <>
      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <dl>
          <dt className="muted">Status</dt>
          <dd>
            <StatusBadge status={entry.status} />
          </dd>
          <dt className="muted">Draft version</dt>
          <dd>{entry.version}</dd>
          <dt className="muted">Updated</dt>
          <dd>
            <time dateTime={entry.updatedAt}>{when.format(new Date(entry.updatedAt))}</time>
          </dd>
        </dl>
      </section>
      <ScheduleCard entryId={entry.id} />
      <section className="card" aria-labelledby="versions-title">
        <h2 id="versions-title">Versions</h2>
        {versions.data ? (
          <ol reversed>
            {versions.data.map((v) => (
              <li key={v.id}>
                Version {v.number}, <time dateTime={v.createdAt}>{when.format(new Date(v.createdAt))}</time>
                {v.published ? " (published)" : ""}
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </>
  );
}
