// Turning a local wall time and an IANA zone into the instant an action runs (decisions.md 7).
// Temporal does the zone arithmetic; nothing here adds offsets by hand. A wall time that falls
// in a spring-forward gap moves forward by the gap, one in a fall-back overlap takes the earlier
// instant, and both say so in `note`, so a person sees what the server understood.
import { badField, fail } from "../../errors.ts";
import { checkValue } from "../access/body-check.ts";
import { WallTime, Zone } from "./bodies.ts";
import { iso } from "../../infra/clock.ts";

/** How far ahead a scheduled time must be (interface.md, Limits: scheduling lead time). */
export const MIN_LEAD_MS = 60_000;

/** The server's reading of a wall time in a zone. */
export interface Resolved {
  /** The UTC instant, ISO 8601 with milliseconds. */
  at: string;
  /** The zone's UTC offset at that instant, e.g. `+02:00`. */
  offset: string;
  /** A sentence when daylight saving moved or chose the time. */
  note?: string;
}

/** Checks a wall time's form (the body model's, `YYYY-MM-DDTHH:mm[:ss]`, no offset) and calendar, or refuses naming `field`. */
export function parseWallTime(v: unknown, field = "wallTime"): Temporal.PlainDateTime {
  checkValue(WallTime, v, field);
  try {
    return Temporal.PlainDateTime.from(v, { overflow: "reject" });
  } catch {
    badField(field, `${field} is not a real date and time: ${v}`);
  }
}

/**
 * Checks an IANA zone name and returns its canonical spelling, or refuses naming `field`.
 * Bare offsets such as `+02:00` are refused: they have no daylight-saving rules.
 */
export function parseZone(v: unknown, field = "timezone"): string {
  checkValue(Zone, v, field);
  try {
    return Temporal.PlainDateTime.from("2000-01-01T00:00").toZonedDateTime(v).timeZoneId;
  } catch {
    badField(field, `${field} "${v}" is not a known IANA time zone`);
  }
}

function hm(t: Temporal.PlainDateTime): string {
  return t
    .toString({ smallestUnit: t.second === 0 ? "minute" : "second" })
    .split("T")
    .at(-1)!;
}

/** Resolves `wallTime` in `zone` (both already checked) to an instant, with a note for gaps and overlaps. */
export function resolveWallTime(wall: Temporal.PlainDateTime, zone: string): Resolved {
  const compatible = wall.toZonedDateTime(zone, { disambiguation: "compatible" });
  const earlier = wall.toZonedDateTime(zone, { disambiguation: "earlier" });
  const later = wall.toZonedDateTime(zone, { disambiguation: "later" });
  const date = wall.toPlainDate().toString();
  let note: string | undefined;
  if (!compatible.toPlainDateTime().equals(wall)) {
    // A gap: "compatible" moves the time forward by the length of the gap.
    const gapMin = Math.round((later.epochMilliseconds - earlier.epochMilliseconds) / 60_000);
    note = `${hm(wall)} does not exist on ${date} in ${zone}: the clocks skip ${gapMin} minutes there, so the action runs at ${hm(compatible.toPlainDateTime())} (${compatible.offset}).`;
  } else if (earlier.epochMilliseconds !== later.epochMilliseconds) {
    note = `${hm(wall)} happens twice on ${date} in ${zone}; the action runs at the first one (${earlier.offset}), not the second (${later.offset}).`;
  }
  const r: Resolved = { at: iso(compatible.epochMilliseconds), offset: compatible.offset };
  if (note) r.note = note;
  return r;
}

/** Parses and resolves a wall time and zone, refusing a time less than 60 seconds after `now`. */
export function resolveTime(wallTime: unknown, timezone: unknown, now: number): Resolved & { wallTime: string; timezone: string } {
  const wall = parseWallTime(wallTime);
  const zone = parseZone(timezone);
  const r = resolveWallTime(wall, zone);
  if (Date.parse(r.at) - now < MIN_LEAD_MS) {
    fail("in_the_past", {
      message: `The scheduled time ${wallTime as string} in ${zone} (${r.at}) is less than 60 seconds ahead.`,
      extra: { field: "wallTime", resolved: r },
    });
  }
  return { ...r, wallTime: wallTime as string, timezone: zone };
}
