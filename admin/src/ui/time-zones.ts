// Time zones and instants as the admin shows them: the viewer's own zone (the browser's), every
// IANA zone for choosing one, and instants written the same way in every locale
// (`2026-11-24 09:00`), so a time reads the same to everyone and to tests.

/** The viewer's time zone, as the browser reports it. */
export const VIEWER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Every IANA zone the browser knows, the viewer's first. */
export const ZONES: string[] = (() => {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [VIEWER_ZONE, ...all.filter((z) => z !== VIEWER_ZONE)];
})();

const formats = new Map<string, Intl.DateTimeFormat>();

function partsIn(at: string | number, zone: string): Record<string, string> {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(zone, f);
  }
  return Object.fromEntries(f.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
}

/** The calendar day of an instant in a zone, `YYYY-MM-DD`. */
export function dayIn(at: string | number, zone = VIEWER_ZONE): string {
  const p = partsIn(at, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The clock time of an instant in a zone, `HH:mm`. */
export function clockIn(at: string | number, zone = VIEWER_ZONE): string {
  const p = partsIn(at, zone);
  return `${p.hour}:${p.minute}`;
}

/** An instant as `YYYY-MM-DD HH:mm` in a zone (the viewer's unless told). */
export function instantIn(at: string | number, zone = VIEWER_ZONE): string {
  return `${dayIn(at, zone)} ${clockIn(at, zone)}`;
}

/** An instant in UTC, `YYYY-MM-DD HH:mm UTC`. */
export function utc(at: string): string {
  return `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
}

/** A wall time without seconds, with its zone, as people write it. */
export function wallIn(a: { wallTime: string; timezone: string }): string {
  return `${a.wallTime.slice(0, 16).replace("T", " ")} ${a.timezone}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The ISO 8601 instant of a wall time (`YYYY-MM-DD`, `HH:mm`) in a zone, written with the zone's
 * offset then (`2026-12-01T09:30:00+01:00`), so the stored value still reads as the time typed.
 */
export function isoInZone(day: string, clock: string, zone: string): string {
  const wall = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10), +clock.slice(0, 2), +clock.slice(3, 5));
  let at = wall;
  // Two rounds settle the offset, also across a change of offset between the guess and the answer.
  for (let i = 0; i < 2; i++) {
    const p = partsIn(at, zone);
    at += wall - Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!);
  }
  const minutes = Math.round((wall - at) / 60_000);
  const abs = Math.abs(minutes);
  return `${day}T${clock}:00${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A calendar day as people read it, the same in every locale: `1 Dec 2026`. */
export function dayWords(day: string): string {
  return `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

/** An instant in a zone as one phrase: `1 Dec 2026, 09:30 UTC` (the zone named as given). */
export function whenIn(at: string | number, zone: string): string {
  return `${dayWords(dayIn(at, zone))}, ${clockIn(at, zone)} ${zone === "Etc/UTC" ? "UTC" : zone}`;
}
