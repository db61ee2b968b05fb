// A column header that sorts its list when clicked (design/admin.md, Lists), as the entry lists'
// headers do: `aria-sort` says how the list is sorted now, an arrow shows it, and a second click
// turns the order round. Sorts are written as in the URL: `key` ascending, `-key` descending.

/** The sort after a click on `key`'s header, from `sort` (`first`: the order a first click gives). */
export function nextSortOf(sort: string | undefined, key: string, first: "asc" | "desc" = "asc"): string {
  if (sort === key) return `-${key}`;
  if (sort === `-${key}`) return key;
  return first === "asc" ? key : `-${key}`;
}

export function SortHeader(p: {
  label: string;
  sortKey: string;
  sort: string | undefined;
  onSort(s: string): void;
  first?: "asc" | "desc";
  className?: string;
}) {
  const active = p.sort === p.sortKey ? "ascending" : p.sort === `-${p.sortKey}` ? "descending" : undefined;
  return (
    <th scope="col" aria-sort={active} className={p.className}>
      <button type="button" className="sort-toggle" onClick={() => p.onSort(nextSortOf(p.sort, p.sortKey, p.first))}>
        {p.label}
        <span aria-hidden="true">{active ? (active === "descending" ? " ↓" : " ↑") : ""}</span>
      </button>
    </th>
  );
}
