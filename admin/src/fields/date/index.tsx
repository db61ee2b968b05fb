// A `date` field (interface.md DateTime): a date picker storing `YYYY-MM-DD`, or, with "With a
// time" on, a date and a time in the project's zone stored as an ISO instant with that zone's
// offset. The zone is the project's when the server names one, else the browser's (as the
// Schedule card does), and it is shown beside the time.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { labelOf } from "../../api/models.ts";
import { scheduledApi, scheduledKeys } from "../../api/scheduled.ts";
import { useProject } from "../../screens/shell/project-context.ts";
import { clockIn, dayIn, dayWords, isoInZone, VIEWER_ZONE, whenIn } from "../../ui/time-zones.ts";
import { type FieldKind, type InputProps, aria } from "../types.ts";

/** The zone date-times are entered in: the project's publishing zone when it has one, else the browser's. */
function useProjectZone(): string {
  const { project } = useProject();
  const defaults = useQuery({ queryKey: scheduledKeys.defaults(project.id), queryFn: scheduledApi.defaults, staleTime: 60_000 });
  return defaults.data?.timezone ?? VIEWER_ZONE;
}

const hasTime = (v: string) => v.includes("T");

function DateInput(p: InputProps) {
  const PROJECT_ZONE = useProjectZone();
  const label = labelOf(p.field);
  const v = typeof p.value === "string" ? p.value : "";
  const [withTime, setWithTime] = useState(hasTime(v));
  const day = !v ? "" : hasTime(v) ? dayIn(v, PROJECT_ZONE) : v.slice(0, 10);
  // The time shown is read from the value in the zone (which may arrive after the first render);
  // only a time typed before the value has one is kept here.
  const [typedClock, setClock] = useState("09:00");
  const clock = hasTime(v) ? clockIn(v, PROJECT_ZONE) : typedClock;
  const set = (d: string, t: string, timed: boolean) => p.onChange(!d ? null : timed ? isoInZone(d, t || "00:00", PROJECT_ZONE) : d);
  return (
    <div className="date-input">
      <input type="date" {...aria(p)} value={day} onChange={(e) => set(e.target.value, clock, withTime)} />
      {withTime && (
        <>
          <input
            type="time"
            aria-label={`Time of ${label}`}
            value={clock}
            onChange={(e) => {
              setClock(e.target.value);
              set(day, e.target.value, true);
            }}
          />
          <span className="muted">{PROJECT_ZONE}</span>
        </>
      )}
      <label className="switch-row">
        <input
          type="checkbox"
          role="switch"
          className="switch"
          aria-label={`${label} with a time`}
          aria-checked={withTime}
          checked={withTime}
          onChange={(e) => {
            setWithTime(e.target.checked);
            set(day, clock, e.target.checked);
          }}
        />
        With a time
      </label>
    </div>
  );
}

function DateCell({ value }: { value: unknown }) {
  const zone = useProjectZone();
  return typeof value !== "string" ? "—" : hasTime(value) ? whenIn(value, zone) : dayWords(value);
}

export const dateKind: FieldKind = {
  Input: DateInput,
  Cell: DateCell,
  settings: ["unique", "default", "help"],
  empty: () => null,
  labelling: "for",
};
