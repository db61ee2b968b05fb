// The calendar of scheduled actions: a month of days (weeks from Monday) in the viewer's time
// zone, each day listing the actions that run on it, soonest first. The month is in the URL.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ACTION_WORDS, scheduledApi, scheduledKeys } from "../../api/scheduled.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { clockIn, dayIn, VIEWER_ZONE } from "../../ui/time-zones.ts";
import { ActionStatusBadge, TargetLink } from "./action-parts.tsx";

const DAY_MS = 86_400_000;
/** Zone offsets reach from -12 to +14 hours: the request reaches this far past the grid. */
const ZONE_REACH_MS = 14 * 3600_000;
const WEEKDAYS = [
  ["Mon", "Monday"],
  ["Tue", "Tuesday"],
  ["Wed", "Wednesday"],
  ["Thu", "Thursday"],
  ["Fri", "Friday"],
  ["Sat", "Saturday"],
  ["Sun", "Sunday"],
] as const;
const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** The current month in the viewer's zone, `YYYY-MM`. */
export function thisMonth(): string {
  return dayIn(Date.now()).slice(0, 7);
}

/** The month before or after `month`, `YYYY-MM`. */
function shift(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7);
}

/** The days of the grid, Monday of the first week to Sunday of the last, as `YYYY-MM-DD`. */
function gridOf(month: string): string[] {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const first = Date.UTC(y, m - 1, 1);
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const cells = Math.ceil((lead + length) / 7) * 7;
  return Array.from({ length: cells }, (_, i) => new Date(first + (i - lead) * DAY_MS).toISOString().slice(0, 10));
}

/** The calendar of one month, filtered by status. */
export function ActionCalendar({ projectId, month, status }: { projectId: string; month: string; status?: string }) {
  const days = gridOf(month);
  const filter = {
    status,
    from: new Date(Date.parse(`${days[0]}T00:00:00Z`) - ZONE_REACH_MS).toISOString(),
    to: new Date(Date.parse(`${days[days.length - 1]}T00:00:00Z`) + DAY_MS + ZONE_REACH_MS).toISOString(),
    limit: 200,
  };
  const list = useQuery({ queryKey: scheduledKeys.list(projectId, filter), queryFn: () => scheduledApi.list(filter) });
  const byDay = new Map<string, NonNullable<typeof list.data>["data"]>();
  for (const a of list.data?.data ?? []) {
    const d = dayIn(a.resolved.at);
    byDay.set(d, [...(byDay.get(d) ?? []), a]);
  }
  const today = dayIn(Date.now());
  const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));
  const title = MONTH_NAME.format(new Date(`${month}-01T00:00:00Z`));

  return (
    <section aria-labelledby="calendar-title">
      <div className="toolbar">
        <h2 id="calendar-title">{title}</h2>
        <span className="muted">Times in your zone, {VIEWER_ZONE}</span>
        <span className="spacer" />
        <Link className="btn" from="/scheduled" to="/scheduled" search={(s) => ({ ...s, month: shift(month, -1) })}>
          Previous month
        </Link>
        <Link className="btn" from="/scheduled" to="/scheduled" search={(s) => ({ ...s, month: undefined })}>
          This month
        </Link>
        <Link className="btn" from="/scheduled" to="/scheduled" search={(s) => ({ ...s, month: shift(month, 1) })}>
          Next month
        </Link>
      </div>
      {list.isError && <Refusal error={list.error} />}
      {list.data && list.data.total > list.data.data.length && (
        <p className="notice">
          Showing the first {list.data.data.length} of {list.data.total} actions around this month; choose a status to see fewer.
        </p>
      )}
      <div className="table-wrap">
        <table className="calendar">
          <caption className="visually-hidden">Scheduled actions in {title}</caption>
          <thead>
            <tr>
              {WEEKDAYS.map(([short, long]) => (
                <th key={short} scope="col">
                  <abbr title={long}>{short}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week[0]}>
                {week.map((d) => {
                  const actions = byDay.get(d) ?? [];
                  return (
                    <td key={d} className={d.startsWith(month) ? "cal-day" : "cal-day cal-other"} aria-current={d === today ? "date" : undefined}>
                      <time dateTime={d} className="cal-date">
                        {/* The weekday shows only on narrow screens, where the days stack and the column headers are gone. */}
                        <span className="cal-weekday" aria-hidden="true">
                          {WEEKDAYS[(new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7]![0]}{" "}
                        </span>
                        {Number(d.slice(8))}
                      </time>
                      {actions.length > 0 && (
                        <ul className="cal-actions" aria-label={`Actions on ${d}`}>
                          {actions.map((a) => (
                            <li key={a.id}>
                              <time dateTime={a.resolved.at}>{clockIn(a.resolved.at)}</time> {ACTION_WORDS[a.action]} <TargetLink action={a} />{" "}
                              <ActionStatusBadge status={a.status} />
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.isPending && <p>Loading…</p>}
      {list.data && list.data.data.length === 0 && <p className="muted">Nothing is scheduled in these weeks.</p>}
    </section>
  );
}
