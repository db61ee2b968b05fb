// The lists of a project's keys, webhooks and people (issue 27, Lists): sorted by a header and
// searched as you type, both in the URL (`sort`, `q`) so a list can be linked. These lists hold a
// project's handful of keys, endpoints or members and the server answers them whole, so sorting
// and filtering happen here, in the browser (docs/admin.md says so); the media and entry lists,
// which can be long, ask the server.
import { SearchBox } from "../screens/entries/search-box.tsx";
import type { SmallListSearch } from "./small-list-search.ts";

export type { SmallListSearch } from "./small-list-search.ts";

/** A sortable column: the value its rows sort by (null sorts last either way). */
export interface SortColumn<T> {
  key: string;
  value(row: T): string | number | null;
}

const words = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/**
 * The rows that hold every word of `q` (in `text(row)`, without case), sorted by `sort`; ties and
 * an absent sort keep the server's order.
 */
export function sortAndFilter<T>(rows: readonly T[], columns: readonly SortColumn<T>[], text: (row: T) => string, search: SmallListSearch): T[] {
  const terms = (search.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const kept = terms.length ? rows.filter((r) => terms.every((t) => text(r).toLowerCase().includes(t))) : [...rows];
  const desc = search.sort?.startsWith("-") ?? false;
  const column = columns.find((c) => c.key === search.sort?.replace(/^-/, ""));
  if (!column) return kept;
  const at = new Map(kept.map((r, i) => [r, i]));
  return kept.sort((a, b) => {
    const [x, y] = [column.value(a), column.value(b)];
    if (x === null || y === null) return x === y ? at.get(a)! - at.get(b)! : x === null ? 1 : -1;
    const c = typeof x === "number" && typeof y === "number" ? x - y : words.compare(String(x), String(y));
    return c === 0 ? at.get(a)! - at.get(b)! : desc ? -c : c;
  });
}

/** The search box and the count ("2 of 5 keys"), above a small list. */
export function SmallListBar(p: { id: string; q: string | undefined; onSearch(q: string): void; shown: number; total: number; noun: [string, string] }) {
  const noun = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? p.noun[0] : p.noun[1]}`;
  return (
    <div className="toolbar small-list-bar">
      <SearchBox id={p.id} value={p.q ?? ""} onSearch={p.onSearch} />
      <p className="muted" aria-live="polite">
        {p.shown === p.total ? noun(p.total) : `${p.shown.toLocaleString("en")} of ${noun(p.total)}`}
      </p>
    </div>
  );
}
