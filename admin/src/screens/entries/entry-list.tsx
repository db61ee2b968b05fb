// The entries of one model: title, status, updated time and who saved last; filter by status
// and text; "Load more" by cursor (never offset paging, design/admin.md, Lists).
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { entryTitle, STATUS_WORDS } from "../../api/models.ts";
import type { EntryStatus } from "../../api/types.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { canEditEntries } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { BulkBar } from "./bulk-bar.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The entry list screen. */
export function EntryList() {
  const { project } = useProject();
  const { model: ns } = useParams({ from: "/app/content/$model" });
  const search = useSearch({ from: "/app/content/$model" });
  const navigate = useNavigate({ from: "/content/$model" });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  // Who saved last is a person's e-mail when the caller may read members; otherwise a short word.
  const members = useQuery({ queryKey: keys.members(project.id), queryFn: () => api.projects.members(project.id) });
  const filter = { status: search.status, q: search.q, sort: search.sort };
  const list = useInfiniteQuery({
    queryKey: keys.entryList(project.id, ns, filter),
    queryFn: ({ pageParam }) => api.entries.list(ns, filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const [text, setText] = useState(search.q ?? "");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const client = useQueryClient();
  const table = useRef<HTMLTableElement>(null);
  // A viewer reads: no New entry, and no selection for bulk publishing.
  const canWrite = canEditEntries(project.role);

  // Keys of the list (design/admin.md): `/` focuses search, `j`/`k` move between entries, Enter opens.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey || e.altKey || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) return;
      if (e.key === "/") {
        e.preventDefault();
        document.getElementById("entry-search")?.focus();
      } else if (e.key === "j" || e.key === "k") {
        const links = [...(table.current?.querySelectorAll<HTMLAnchorElement>("tbody td a") ?? [])];
        if (links.length === 0) return;
        const at = links.indexOf(document.activeElement as HTMLAnchorElement);
        const next = e.key === "j" ? Math.min(links.length - 1, at + 1) : Math.max(0, at === -1 ? 0 : at - 1);
        e.preventDefault();
        links[next]?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const model = models.data?.find((m) => m.namespace === ns);

  function authorOf(by: string | null | undefined): string {
    if (!by) return "—";
    if (by.startsWith("api_key:")) return "API key";
    const m = members.data?.find((x) => `user:${x.userId}` === by);
    return m ? (m.name ?? m.email) : "A person";
  }

  function submitSearch(e: FormEvent) {
    e.preventDefault();
    void navigate({ search: (s) => ({ ...s, q: text || undefined }) });
  }

  if (models.isSuccess && !model) return <p role="alert">No model “{ns}” in this project.</p>;
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  // The selection holds only entries still shown (a filter change drops the others).
  const shown = new Set(rows.map((r) => r.id));
  const chosen = [...selected].filter((id) => shown.has(id));
  const allChosen = rows.length > 0 && chosen.length === rows.length;

  function toggle(id: string) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  }
  const total = list.data?.pages[0]?.total;

  return (
    <>
      <div className="toolbar">
        <h1>{model?.name ?? ns}</h1>
        <span className="spacer" />
        {canWrite && (
          <Link className="btn btn-primary" to="/content/$model/new" params={{ model: ns }}>
            New entry
          </Link>
        )}
      </div>
      <div className="toolbar">
        <div className="field">
          <label htmlFor="status-filter">Status</label>
          <select
            id="status-filter"
            value={search.status ?? ""}
            onChange={(e) => void navigate({ search: (s) => ({ ...s, status: (e.target.value || undefined) as EntryStatus | undefined }) })}
          >
            <option value="">Any status</option>
            {(Object.keys(STATUS_WORDS) as EntryStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_WORDS[s]}
              </option>
            ))}
          </select>
        </div>
        <form className="field" onSubmit={submitSearch}>
          <label htmlFor="entry-search">Search</label>
          <input id="entry-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </form>
        <span className="spacer" />
        {total !== undefined && (
          <p className="muted" aria-live="polite">
            {total === 1 ? "1 entry" : `${total} entries`}
          </p>
        )}
      </div>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending || !model ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>{canWrite ? "No entries here yet. Use “New entry” to write the first one." : "No entries here yet."}</p>
      ) : (
        <table ref={table}>
          <caption className="visually-hidden">Entries of {model.name}</caption>
          <thead>
            <tr>
              {canWrite && (
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select all shown"
                    checked={allChosen}
                    onChange={() => setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.id)))}
                  />
                </th>
              )}
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col" aria-sort={search.sort === "updatedAt" ? "ascending" : search.sort === "-updatedAt" ? "descending" : undefined}>
                <button
                  type="button"
                  className="sort-toggle"
                  onClick={() => void navigate({ search: (s) => ({ ...s, sort: s.sort === "-updatedAt" ? "updatedAt" : "-updatedAt" }) })}
                >
                  Updated
                  <span aria-hidden="true">{search.sort === "updatedAt" ? " ↑" : search.sort === "-updatedAt" ? " ↓" : ""}</span>
                </button>
              </th>
              <th scope="col" className="hide-narrow">
                Author
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                {canWrite && (
                  <td>
                    <input type="checkbox" aria-label={`Select ${entryTitle(model, e)}`} checked={selected.has(e.id)} onChange={() => toggle(e.id)} />
                  </td>
                )}
                <td>
                  <Link to="/content/$model/$entryId" params={{ model: ns, entryId: e.id }}>
                    {entryTitle(model, e)}
                  </Link>
                </td>
                <td>
                  <StatusBadge status={e.status} />
                </td>
                <td>
                  <time dateTime={e.updatedAt}>{when.format(new Date(e.updatedAt))}</time>
                </td>
                <td className="hide-narrow">{authorOf(e.updatedBy)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {canWrite && chosen.length > 0 && (
        <BulkBar
          ids={chosen}
          onDone={(message) => {
            setNotice(message);
            setSelected(new Set());
            void client.invalidateQueries({ queryKey: keys.entries(project.id, ns) });
          }}
        />
      )}
      {list.hasNextPage && (
        <p>
          <button type="button" className="btn" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            Load more
          </button>
        </p>
      )}
    </>
  );
}
