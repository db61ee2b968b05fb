// A `date` field (interface.md DateTime): a date picker storing `YYYY-MM-DD`, or, with "With a
// time" on, a date and a time in the project's zone stored as an ISO instant with that zone's
// offset. The zone is the project's when the server names one, else the browser's (as the
// Schedule card does), and it is shown beside the time.
import { useState } from "react";
import { labelOf } from "../../api/models.ts";
import { clockIn, dayIn, dayWords, isoInZone, VIEWER_ZONE, whenIn } from "../../ui/time-zones.ts";
import { type FieldKind, type InputProps, aria } from "../types.ts";

/** The zone date-times are entered in. */
export const PROJECT_ZONE = VIEWER_ZONE;

const hasTime = (v: string) => v.includes("T");

function DateInput(p: InputProps) {
  const label = labelOf(p.field);
  const v = typeof p.value === "string" ? p.value : "";
  const [withTime, setWithTime] = useState(hasTime(v));
  const day = !v ? "" : hasTime(v) ? dayIn(v, PROJECT_ZONE) : v.slice(0, 10);
  const [clock, setClock] = useState(hasTime(v) ? clockIn(v, PROJECT_ZONE) : "09:00");
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

export const dateKind: FieldKind = {
  Input: DateInput,
  Cell: ({ value }) => (typeof value !== "string" ? "—" : hasTime(value) ? whenIn(value, PROJECT_ZONE) : dayWords(value)),
  settings: ["unique", "default", "help"],
  empty: () => null,
  labelling: "for",
};
