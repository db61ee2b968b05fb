// Keyset paging (design/admin.md, Lists: never offset paging): the count of every match, the page
// size, and pages by cursor. Each page is a URL (`after` and its number), so back, forward and a
// link all work; page 400 costs what page 1 costs. Going back a page uses the cursors this tab
// has seen; a page opened from a link offers "First page" instead.
import { PAGE_SIZES } from "./list-state.ts";

/** The cursor each page of a list started after, per list (its filter, sort and size), for Previous. */
const trails = new Map<string, Map<number, string>>();

/** Remembers that page `page` of list `list` starts after `after`. */
export function rememberPage(list: string, page: number, after: string | null): void {
  if (!after) return;
  let t = trails.get(list);
  if (!t) {
    t = new Map();
    trails.set(list, t);
  }
  t.set(page, after);
}

/** The cursor of page `page` of `list`: null for page 1, undefined when this tab never saw it. */
export function cursorOf(list: string, page: number): string | null | undefined {
  return page <= 1 ? null : trails.get(list)?.get(page);
}

const n = (x: number) => x.toLocaleString("en");

export function Pager(p: {
  list: string;
  page: number;
  limit: number;
  shown: number;
  total: number;
  next: string | null;
  /** The rows shown are still the previous page's (kept while this one loads). */
  loading: boolean;
  go(page: number, after: string | null): void;
  onLimit(limit: number): void;
}) {
  const first = (p.page - 1) * p.limit + 1;
  const previous = cursorOf(p.list, p.page - 1);
  return (
    <nav className="pager" aria-label="Pages">
      <p className="muted" aria-live="polite">
        {p.loading
          ? `Loading page ${n(p.page)}…`
          : p.total === 0
            ? "No entries"
            : p.shown === 0
              ? `No entries on this page of ${n(p.total)}`
              : `Entries ${n(first)}–${n(first + p.shown - 1)} of ${n(p.total)}`}
      </p>
      <span className="spacer" />
      <div className="field field-inline">
        <label htmlFor="page-size">Per page</label>
        <select id="page-size" value={p.limit} onChange={(e) => p.onLimit(Number(e.target.value))}>
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {p.page > 2 && previous === undefined && (
        <button type="button" className="btn" onClick={() => p.go(1, null)}>
          First page
        </button>
      )}
      <button type="button" className="btn" disabled={p.page <= 1 || previous === undefined} onClick={() => p.go(p.page - 1, previous ?? null)}>
        Previous page
      </button>
      <button type="button" className="btn" disabled={!p.next} onClick={() => p.next && p.go(p.page + 1, p.next)}>
        Next page
      </button>
    </nav>
  );
}
