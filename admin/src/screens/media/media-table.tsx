// The library as a list: name, kind, size, dimensions and when each file was uploaded. Name, Size
// and Uploaded sort the list when their header is clicked (`aria-sort` says how), as the entry
// lists do; a second click turns the order round.
import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { type MediaFile, sizeWords } from "../../api/media.ts";
import { KIND_WORDS, type MediaSort } from "../../api/types.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A file's pixel size, or a dash for files without one. */
export function dimensionsOf(f: MediaFile): string {
  return f.width && f.height ? `${f.width} × ${f.height}` : "—";
}

/** A sortable header: `key` is the ascending sort; times start newest first. */
function SortHeader(p: { label: string; sortKey: "name" | "size" | "createdAt"; sort: MediaSort; onSort(s: MediaSort): void; className?: string }) {
  const asc = p.sortKey;
  const desc = `-${p.sortKey}` as MediaSort;
  const active = p.sort === asc ? "ascending" : p.sort === desc ? "descending" : undefined;
  const first = p.sortKey === "createdAt" ? desc : asc;
  const next = active === undefined ? first : active === "ascending" ? desc : asc;
  return (
    <th scope="col" aria-sort={active} className={p.className}>
      <button type="button" className="sort-toggle" onClick={() => p.onSort(next)}>
        {p.label}
        <span aria-hidden="true">{active ? (active === "descending" ? " ↓" : " ↑") : ""}</span>
      </button>
    </th>
  );
}

/** The files as a table; each name opens the file's record; `pick(file)` is the row's checkbox. */
export function MediaTable({
  files,
  caption,
  pick,
  sort,
  onSort,
}: {
  files: MediaFile[];
  caption: string;
  pick?(f: MediaFile): ReactNode;
  sort: MediaSort;
  onSort(s: MediaSort): void;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {pick && (
              <th scope="col">
                <span className="visually-hidden">Selected</span>
              </th>
            )}
            <SortHeader label="Name" sortKey="name" sort={sort} onSort={onSort} />
            <th scope="col">Kind</th>
            <SortHeader label="Size" sortKey="size" sort={sort} onSort={onSort} />
            <th scope="col" className="hide-narrow">
              Dimensions
            </th>
            <SortHeader label="Uploaded" sortKey="createdAt" sort={sort} onSort={onSort} className="hide-narrow" />
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.id}>
              {pick && <td>{pick(f)}</td>}
              <th scope="row">
                <Link to="/media/$mediaId" params={{ mediaId: f.id }}>
                  {f.filename}
                </Link>
              </th>
              <td>{KIND_WORDS[f.kind] ?? f.kind}</td>
              <td>{sizeWords(f.size)}</td>
              <td className="hide-narrow">{dimensionsOf(f)}</td>
              <td className="hide-narrow">
                <time dateTime={f.createdAt}>{when.format(new Date(f.createdAt))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
