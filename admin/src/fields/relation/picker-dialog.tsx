// Choosing related entries (issue 26 item 5): a dialog that searches the target model on the
// server (`q`), lists titles and status 25 at a time with "Load more" by cursor, and chooses one
// entry (single relations) or several with checkboxes (lists of relations).
import { useDeferredValue, useId, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { api, keys } from "../../api/client.ts";
import { entryTitle } from "../../api/models.ts";
import type { Model } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { StatusBadge } from "../../ui/status-badge.tsx";

interface Props {
  open: boolean;
  /** The field's label, for the title. */
  label: string;
  target: Model;
  projectId: string;
  /** Several entries (a list) or one. */
  many: boolean;
  /** Ids already chosen: ticked (many) or marked (one). */
  chosen: string[];
  onChoose(ids: string[]): void;
  onCancel(): void;
}

export function PickerDialog(p: Props) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim());
  const [ticked, setTicked] = useState<string[]>([]);
  const pages = useInfiniteQuery({
    queryKey: [...keys.entryList(p.projectId, p.target.namespace, { q }), "picker"],
    queryFn: ({ pageParam }) => api.entries.list(p.target.namespace, q ? { q } : {}, pageParam, 25),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: p.open,
    placeholderData: (previous) => previous,
  });
  const rows = pages.data?.pages.flatMap((x) => x.data) ?? [];
  const total = pages.data?.pages[0]?.total;
  const close = () => {
    setTicked([]);
    setSearch("");
  };
  return (
    <Dialog
      open={p.open}
      wide
      title={p.many ? `Add to ${p.label}` : `Choose ${p.label}`}
      onCancel={() => {
        close();
        p.onCancel();
      }}
    >
      <div className="field">
        <label htmlFor={searchId}>{`Search ${p.target.name}`}</label>
        <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <p className="muted" aria-live="polite">
        {total === undefined ? "Searching…" : `${total} ${total === 1 ? "entry" : "entries"}`}
      </p>
      <ul className="picker-list dialog-scroll" aria-label={`Entries of ${p.target.name}`}>
        {rows.map((e) => {
          const title = entryTitle(p.target, e);
          const already = p.chosen.includes(e.id);
          return (
            <li key={e.id} className="picker-row">
              {p.many ? (
                <label className="grow">
                  <input
                    type="checkbox"
                    checked={already || ticked.includes(e.id)}
                    disabled={already}
                    onChange={(ev) => setTicked((t) => (ev.target.checked ? [...t, e.id] : t.filter((x) => x !== e.id)))}
                  />{" "}
                  {title}
                </label>
              ) : (
                <button
                  type="button"
                  className="btn btn-quiet grow picker-choose"
                  aria-current={already || undefined}
                  onClick={() => {
                    close();
                    p.onChoose([e.id]);
                  }}
                >
                  <span className="visually-hidden">Choose </span>
                  {title}
                </button>
              )}
              <StatusBadge status={e.status} />
            </li>
          );
        })}
      </ul>
      {pages.hasNextPage && (
        <button type="button" className="btn" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
      <div className="toolbar">
        {p.many && (
          <button
            type="button"
            className="btn btn-primary"
            disabled={ticked.length === 0}
            onClick={() => {
              const ids = ticked;
              close();
              p.onChoose(ids);
            }}
          >
            {ticked.length === 1 ? "Add 1 entry" : `Add ${ticked.length} entries`}
          </button>
        )}
        <button
          type="button"
          className="btn"
          onClick={() => {
            close();
            p.onCancel();
          }}
        >
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
