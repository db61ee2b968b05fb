// The library's filters and view, each in the URL: search as you type (the entry lists' search
// box: one request once typing pauses), the kind, the order (a choice that works in the grid,
// which has no headers; the list's headers set the same order), the page size (how many files a
// page and each Load more bring) and Grid or List.
import { KIND_WORDS, MEDIA_SORTS, type MediaKind, type MediaSort } from "../../api/types.ts";
import { MEDIA_PAGE_SIZES, SORT_WORDS } from "../../api/media.ts";
import type { MediaSearch, MediaView } from "../../router.tsx";
import { SearchBox } from "../entries/search-box.tsx";

export function MediaToolbar(p: { search: MediaSearch; view: MediaView; onChange(patch: Partial<MediaSearch>): void; onView(v: MediaView): void }) {
  return (
    <div className="toolbar media-filters">
      <SearchBox id="media-search" value={p.search.q ?? ""} onSearch={(q) => p.onChange({ q: q || undefined })} />
      <div className="field">
        <label htmlFor="media-kind">Kind</label>
        <select id="media-kind" value={p.search.kind ?? ""} onChange={(e) => p.onChange({ kind: (e.target.value || undefined) as MediaKind | undefined })}>
          <option value="">Any kind</option>
          {(Object.keys(KIND_WORDS) as MediaKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="media-sort">Sort</label>
        <select
          id="media-sort"
          value={p.search.sort ?? "-createdAt"}
          onChange={(e) => p.onChange({ sort: e.target.value === "-createdAt" ? undefined : (e.target.value as MediaSort) })}
        >
          {MEDIA_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_WORDS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="media-page-size">Per page</label>
        <select id="media-page-size" value={p.search.limit ?? 40} onChange={(e) => p.onChange({ limit: e.target.value === "100" ? 100 : undefined })}>
          {MEDIA_PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <span className="spacer" />
      <fieldset className="view-toggle">
        <legend className="visually-hidden">View</legend>
        {(["grid", "list"] as const).map((v) => (
          <button key={v} type="button" className="btn" aria-pressed={p.view === v} onClick={() => p.onView(v)}>
            {v === "grid" ? "Grid" : "List"}
          </button>
        ))}
      </fieldset>
    </div>
  );
}
