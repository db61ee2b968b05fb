// Scheduling in the editor's aside: a wall time in a chosen IANA zone (the browser's zone
// first), the server's resolved instant and DST note after scheduling, and the entry's pending
// actions with Cancel (decisions.md 11, Time).
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, keys } from "../../api/client.ts";
import type { Resolved } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";
import { canEditEntries } from "../../ui/refusal.tsx";
import { utc, VIEWER_ZONE as BROWSER_ZONE, whenIn } from "../../ui/time-zones.ts";
import { WallTimeFields } from "../../ui/wall-time-fields.tsx";
import { LocaleChecks } from "./locale-choice.tsx";
import { publishDefault, publishedLocales, useEntryLocales } from "./locale-context.ts";

const WORDS = { publish: "Publish", unpublish: "Unpublish" } as const;

/** The Schedule card of an entry. */
export function ScheduleCard({ entryId }: { entryId: string }) {
  const { project } = useProject();
  const client = useQueryClient();
  const actions = useQuery({ queryKey: keys.scheduled(project.id, entryId), queryFn: () => api.scheduled.forEntry(entryId) });
  const [action, setAction] = useState<"publish" | "unpublish">("publish");
  const [time, setTime] = useState("");
  const [zone, setZone] = useState(BROWSER_ZONE);
  const [errors, setErrors] = useState<{ wallTime?: string; timezone?: string; general?: string }>({});
  const [resolved, setResolved] = useState<Resolved | null>(null);
  // With locales (issue 28): which locales the action moves, checked as the server's default
  // (a publish: the locales whose saved draft holds a value; an unpublish: the published ones)
  // until changed.
  const l = useEntryLocales();
  const [chosen, setChosen] = useState<string[] | null>(null);
  const every = l?.every ?? null;
  const locales = l ? (chosen ?? (action === "publish" ? publishDefault(l, l.model) : publishedLocales(every))) : undefined;

  const wallTime = time.length === 16 ? `${time}:00` : time;
  const done = async (r: { resolved: Resolved }) => {
    setErrors({});
    setResolved(r.resolved);
    await client.invalidateQueries({ queryKey: keys.scheduled(project.id, entryId) });
  };
  const refused = (e: Error) => {
    setResolved(null);
    const field = e instanceof ApiError ? e.field : null;
    if (field === "wallTime" || field === "timezone") setErrors({ [field]: e.message });
    else setErrors({ general: e.message });
  };
  const schedule = useMutation({
    // Locales are sent once the person changes the choice; untouched, the server's default applies.
    mutationFn: () => api.scheduled.create({ action, entryId, wallTime, timezone: zone, ...(chosen ? { locales: chosen } : {}) }),
    onSuccess: done,
    onError: refused,
  });
  // Rescheduling moves a pending action to the Time and Time zone of the form above.
  const reschedule = useMutation({
    mutationFn: (id: string) => api.scheduled.reschedule(id, wallTime, zone),
    onSuccess: done,
    onError: refused,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => api.scheduled.cancel(id),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.scheduled(project.id, entryId) }),
    onError: (e) => setErrors({ general: e.message }),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!time) {
      setErrors({ wallTime: "Choose a date and time." });
      return;
    }
    if (locales && locales.length === 0) {
      setErrors({ general: "Choose at least one locale." });
      return;
    }
    schedule.mutate();
  }

  // A viewer sees what is scheduled, with no form and no buttons.
  const canWrite = canEditEntries(project.role);
  const pending = (actions.data ?? []).filter((a) => a.status === "pending" || a.status === "failed");
  return (
    <section className="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      {canWrite && (
        <form className="array-items" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor="schedule-action">Action</label>
            <select
              id="schedule-action"
              value={action}
              onChange={(e) => {
                setAction(e.target.value as "publish" | "unpublish");
                setChosen(null);
              }}
            >
              <option value="publish">Publish</option>
              <option value="unpublish">Unpublish</option>
            </select>
          </div>
          {l && locales && <LocaleChecks all={l.all} idPrefix="schedule" legend="Locales" value={locales} onChange={setChosen} />}
          <WallTimeFields idPrefix="schedule" time={time} zone={zone} onTime={setTime} onZone={setZone} errors={errors} />
          <div>
            <button type="submit" className="btn" disabled={schedule.isPending}>
              Schedule
            </button>
          </div>
        </form>
      )}
      <div aria-live="polite">
        {resolved && (
          <p className="notice">
            Scheduled: runs at {utc(resolved.at)} (offset {resolved.offset}).
            {resolved.note ? ` ${resolved.note}` : ""}
          </p>
        )}
        {errors.general && (
          <p className="form-error" role="alert">
            {errors.general}
          </p>
        )}
      </div>
      <h3 className="muted">Scheduled actions</h3>
      {pending.length === 0 ? (
        <p className="muted">Nothing scheduled.</p>
      ) : (
        <ul className="array-items">
          {pending.map((a) => (
            <li key={a.id} className="scheduled-item">
              <span className="scheduled-when">
                {WORDS[a.action]}
                {a.locales ? ` ${a.locales.join(", ")}` : ""} on {whenIn(a.resolved.at, a.timezone)}
                {a.status === "failed" ? ", failed" : ""}
              </span>
              {canWrite && (
                <>
                  <button
                    type="button"
                    className="btn btn-quiet"
                    aria-label={`Reschedule ${WORDS[a.action].toLowerCase()} on ${whenIn(a.resolved.at, a.timezone)} to the time above`}
                    onClick={() => (time ? reschedule.mutate(a.id) : setErrors({ wallTime: "Choose a date and time." }))}
                  >
                    Reschedule
                  </button>
                  <button
                    type="button"
                    className="btn btn-quiet"
                    aria-label={`Cancel ${WORDS[a.action].toLowerCase()} on ${whenIn(a.resolved.at, a.timezone)}`}
                    onClick={() => cancel.mutate(a.id)}
                  >
                    Cancel
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
