// The editor's aside: the entry's status and when it changed, scheduling, and its versions.
import { memo } from "react";
import type { Entry, Model } from "../../api/types.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { ScheduleCard } from "./schedule-card.tsx";
import { VersionsCard } from "./versions-card.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

interface Props {
  entry: Entry;
  model: Model;
  onRestored(e: Entry): void;
}

/**
 * Details, Schedule and Versions of an entry. Rendered again only when the entry or model
 * changes, not on every keystroke in the form (`onRestored` only sets state, so an older one
 * does the same as a newer one).
 */
export const EntryDetails = memo(
  function EntryDetails({ entry, model, onRestored }: Props) {
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
        <VersionsCard entry={entry} model={model} onRestored={onRestored} />
      </>
    );
  },
  (a, b) => a.entry === b.entry && a.model === b.model,
);
