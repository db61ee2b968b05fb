// The library as a list: name, kind, size, dimensions and when each file was uploaded. Name, Size
// and Uploaded sort the list when their header is clicked (`aria-sort` says how), as the entry
// lists do; a second click turns the order round.
import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { type MediaFile, sizeWords } from "../../api/media.ts";
import { KIND_WORDS, type MediaSort } from "../../api/types.ts";
import { SortHeader } from "../../ui/sort-header.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A file's pixel size, or a dash for files without one. */
export function dimensionsOf(f: MediaFile): string {
  return f.width && f.height ? `${f.width} × ${f.height}` : "—";
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
            <SortHeader label="Name" sortKey="name" sort={sort} onSort={(s) => onSort(s as MediaSort)} />
            <th scope="col">Kind</th>
            <SortHeader label="Size" sortKey="size" sort={sort} onSort={(s) => onSort(s as MediaSort)} />
            <th scope="col" className="hide-narrow">
              Dimensions
            </th>
            <SortHeader label="Uploaded" sortKey="createdAt" first="desc" sort={sort} onSort={(s) => onSort(s as MediaSort)} className="hide-narrow" />
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
