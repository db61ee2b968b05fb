// The library as a list: name, kind, size, dimensions and when each file was uploaded.
import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { type MediaFile, sizeWords } from "../../api/media.ts";
import { KIND_WORDS } from "../../api/types.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A file's pixel size, or a dash for files without one. */
export function dimensionsOf(f: MediaFile): string {
  return f.width && f.height ? `${f.width} × ${f.height}` : "—";
}

/** The files as a table; each name opens the file's record; `pick(file)` is the row's checkbox. */
export function MediaTable({ files, caption, pick }: { files: MediaFile[]; caption: string; pick?(f: MediaFile): ReactNode }) {
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
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Size</th>
            <th scope="col" className="hide-narrow">
              Dimensions
            </th>
            <th scope="col" className="hide-narrow">
              Uploaded
            </th>
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
