// What the library screen and the entry editor's picker share: the library's pages by cursor
// ("Load more", never offset paging) and the grid of files, each tile a preview and a name whose
// control (a link to the record, a "Choose" button) the caller supplies.
import type { ReactNode } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { type ListedFile, type MediaFilter, mediaApi, mediaKeys } from "../api/media.ts";
import { MediaThumb } from "./media-thumb.tsx";

/** The files of the library matching `filter`, page by page; `enabled` false asks nothing yet. */
export function useMediaPages(project: string, filter: MediaFilter, enabled = true) {
  const pages = useInfiniteQuery({
    queryKey: mediaKeys.list(project, filter),
    queryFn: ({ pageParam }) => mediaApi.list(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled,
  });
  return { ...pages, files: pages.data?.pages.flatMap((p) => p.data) ?? [] };
}

/** `Load more` while the server says there is a next page. */
export function LoadMore({ pages }: { pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): unknown } }) {
  if (!pages.hasNextPage) return null;
  return (
    <p>
      <button type="button" className="btn" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
        {pages.isFetchingNextPage ? "Loading…" : "Load more"}
      </button>
    </p>
  );
}

/**
 * The files as a grid of tiles. `control(file, body)` wraps the tile's preview and name in the
 * caller's link or button; `meta(file)` adds a line under it; `pick(file)` (a checkbox, for
 * selecting) sits in the tile's corner.
 */
export function MediaGrid(props: {
  files: ListedFile[];
  label: string;
  control(f: ListedFile, body: ReactNode): ReactNode;
  meta?(f: ListedFile): ReactNode;
  pick?(f: ListedFile): ReactNode;
}) {
  return (
    <ul className="media-grid" aria-label={props.label}>
      {props.files.map((f) => (
        <li key={f.id} className={props.pick ? "pickable" : undefined}>
          {props.pick?.(f)}
          {props.control(
            f,
            <>
              <MediaThumb file={f} width={160} />
              <span className="media-name">{f.filename}</span>
            </>,
          )}
          {props.meta && <span className="media-meta">{props.meta(f)}</span>}
        </li>
      ))}
    </ul>
  );
}
