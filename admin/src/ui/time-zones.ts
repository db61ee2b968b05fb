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
