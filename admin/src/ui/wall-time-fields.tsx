// The two inputs of a scheduled time (decisions.md 11, Time): a wall time and an IANA zone, each
// with the server's refusal at it (`wallTime`, `timezone`). The entry's Schedule card and the
// Scheduled screen's Reschedule dialog use the same pair; `idPrefix` keeps their ids apart.
import { ZONES } from "./time-zones.ts";

interface Props {
  idPrefix: string;
  time: string;
  zone: string;
  onTime(v: string): void;
  onZone(v: string): void;
  errors: { wallTime?: string; timezone?: string };
}

export function WallTimeFields({ idPrefix, time, zone, onTime, onZone, errors }: Props) {
  const timeId = `${idPrefix}-time`;
  const zoneId = `${idPrefix}-zone`;
  return (
    <>
      <div className="field">
        <label htmlFor={timeId}>Time</label>
        <input
          id={timeId}
          type="datetime-local"
          value={time}
          onChange={(e) => onTime(e.target.value)}
          aria-invalid={!!errors.wallTime || undefined}
          aria-describedby={errors.wallTime ? `${timeId}-error` : undefined}
        />
        {errors.wallTime && (
          <span className="error" id={`${timeId}-error`}>
            {errors.wallTime}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor={zoneId}>Time zone</label>
        <input
          id={zoneId}
          list={`${idPrefix}-zones`}
          value={zone}
          onChange={(e) => onZone(e.target.value)}
          aria-invalid={!!errors.timezone || undefined}
          aria-describedby={errors.timezone ? `${zoneId}-error` : undefined}
        />
        <datalist id={`${idPrefix}-zones`}>
          {ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        {errors.timezone && (
          <span className="error" id={`${zoneId}-error`}>
            {errors.timezone}
          </span>
        )}
      </div>
    </>
  );
}
