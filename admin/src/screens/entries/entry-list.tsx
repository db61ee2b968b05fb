// The entries of one model (issue 27, lists): columns chosen from the model's fields, each shown
// by its kind's cell; sort by a header; filters by field; search as one types; keyset pages with
// the count and a page size; a selection (Shift-click ranges, "all N that match") to publish,
// unpublish, schedule, delete or export; saved views. Everything is in the URL (list-state.ts).
import { useEffect, useMemo, useRef, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { ApiError, api, keys } from "../../api/client.ts";
import { type BulkAction, type ListColumn, listApi, listKeys, type Selected } from "../../api/entry-lists.ts";
import { STATUS_WORDS, titleField } from "../../api/models.ts";
import type { EntryStatus } from "../../api/types.ts";
import { viewsApi, viewsKey } from "../../api/views.ts";
import { canEditEntries, Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";
import { BatchProgress } from "./batch-progress.tsx";
import { BulkBar } from "./bulk-bar.tsx";
import { ColumnPicker, DEFAULT_COLUMNS } from "./column-picker.tsx";
import { FilterBar } from "./filter-bar.tsx";
import { differsFrom, type ListSearch, partsOf, stateOf, withParts } from "./list-state.ts";
import { bulkDefaults, LocaleFilter, useListLocales } from "./list-locales.tsx";
import { ListTable } from "./list-table.tsx";
import { Pager, rememberPage } from "./pager.tsx";
import { countOf, EMPTY, type Selection, toggle, togglePage } from "./selection.ts";
import { useListKeys } from "./use-list-keys.ts";
import { ViewBar } from "./view-bar.tsx";
import { entries } from "./words.ts";
import { SearchBox } from "./search-box.tsx";

/** The entry list screen. */
export function EntryList() {
  const { project } = useProject();
  const { model: ns } = useParams({ from: "/app/content/$model" });
  const search = useSearch({ from: "/app/content/$model" });
  const navigate = useNavigate({ from: "/content/$model" });
  const client = useQueryClient();
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const columnsQ = useQuery({ queryKey: listKeys.columns(project.id, ns), queryFn: () => listApi.columns(ns) });
  // The rail asked for the views already; opening one from there asks nothing more.
  const views = useQuery({ queryKey: viewsKey(project.id), queryFn: viewsApi.list });
  const view = search.view ? (views.data?.find((v) => v.id === search.view) ?? null) : null;
  const waitingForView = !!search.view && views.isPending;
  const state = stateOf(search, view);
  const model = models.data?.find((m) => m.namespace === ns);
  // The locale listed (issue 28): null in a project with one locale, and nothing is sent then.
  const ll = useListLocales(model, search.locale);
  const locales = ll === "waiting" ? null : ll;
  const query = {
    status: state.status,
    q: state.q || undefined,
    sort: state.sort || undefined,
    where: state.where,
    limit: state.limit,
    after: state.after,
    ...(locales?.sent ? { locale: locales.sent } : {}),
  };
  const list = useQuery({
    queryKey: listKeys.page(project.id, ns, query),
    queryFn: () => listApi.page(ns, query),
    enabled: !waitingForView && ll !== "waiting",
    placeholderData: keepPreviousData,
  });
  const [selection, setSelection] = useState<Selection>(EMPTY);
  const [notice, setNotice] = useState<string | null>(null);
  const [batch, setBatch] = useState<{ action: BulkAction; id: string } | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const canWrite = canEditEntries(project.role);
  useListKeys(table, "entry-search");

  useTitle(view?.name, model?.name ?? ns);
  // The list this selection and these pages belong to: a change of filter starts both again.
  const listKey = JSON.stringify([ns, query.status, query.q, query.sort, query.where, query.limit, query.locale]);
  const [selectionOf, setSelectionOf] = useState(listKey);
  if (selectionOf !== listKey) {
    setSelectionOf(listKey);
    setSelection(EMPTY);
  }
  useEffect(() => rememberPage(listKey, state.page, state.after), [listKey, state.page, state.after]);

  const go = (next: ListSearch, replace = false) => void navigate({ search: next, replace });
  const set = (parts: Parameters<typeof withParts>[1], replace = false) => go(withParts(search, parts), replace);

  const all = columnsQ.data ?? [];
  const title = model ? titleField(model) : null;
  const titleColumn = all.find((c) => c.key === title?.namespace) ?? null;
  const choosable = all.filter((c) => c.key !== title?.namespace);
  const chosen = state.columns ?? DEFAULT_COLUMNS;
  const shown = chosen.map((k) => all.find((c) => c.key === k)).filter((c): c is ListColumn => !!c);
  // A column the model no longer has (a field deleted or renamed since the link was made).
  const gone = columnsQ.data ? chosen.filter((k) => !all.some((c) => c.key === k)) : [];
  const filterable = all.filter((c) => c.operators.length > 0 && c.key !== "$status");

  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  const rowIds = useMemo(() => rows.map((r) => r.id), [rows]);
  const count = countOf(selection, total);
  const selected: Selected = selection.allMatching
    ? { modelId: ns, ...(state.where ? { where: state.where } : {}), ...(state.q ? { q: state.q } : {}), ...(state.status ? { status: state.status } : {}) }
    : { instanceIds: [...selection.ids] };
  const err = list.error instanceof ApiError ? list.error : null;
  const pageTicked = rows.length > 0 && rows.every((r) => selection.ids.has(r.id));

  if (models.isSuccess && !model) return <p role="alert">No model “{ns}” in this project.</p>;
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
      {search.view && views.isSuccess && !view && (
        <p className="notice" role="status">
          This view no longer exists (it was deleted, or it was someone else's private view): the list shows every entry.
        </p>
      )}
      <ViewBar
        project={project}
        model={ns}
        view={view}
        parts={partsOf(state)}
        changed={!!view && differsFrom(state, view)}
        // A view keeps no locale (issue 28): opening or leaving one keeps the list's.
        open={(id) => go({ ...(id ? { view: id } : {}), ...(search.locale ? { locale: search.locale } : {}) })}
      />
      <div className="toolbar list-controls">
        <div className="field">
          <label htmlFor="status-filter">Status</label>
          <select id="status-filter" value={state.status ?? ""} onChange={(e) => set({ status: (e.target.value || undefined) as EntryStatus | undefined })}>
            <option value="">Any status</option>
            {(Object.keys(STATUS_WORDS) as EntryStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_WORDS[s]}
              </option>
            ))}
          </select>
        </div>
        {locales && <LocaleFilter l={locales} onChange={(locale) => set({ locale })} />}
        <SearchBox id="entry-search" value={state.q} onSearch={(q) => set({ q }, true)} />
        <span className="spacer" />
        <ColumnPicker columns={choosable} shown={chosen} onChange={(columns) => set({ columns })} />
      </div>
      {model && (
        <FilterBar
          model={model}
          columns={filterable}
          where={state.where}
          onChange={(where) => set({ where })}
          error={err?.field === "where" ? err.message : null}
        />
      )}
      {gone.length > 0 && (
        <p className="notice" role="status">
          {gone.map((k) => `No column “${k}”: ${model?.name ?? ns} has no such field now (it was deleted or renamed), so it is left out.`).join(" ")}
        </p>
      )}
      {err?.field === "sort" && (
        <p className="form-error" role="alert">
          This sort cannot be used: {err.message}{" "}
          <button type="button" className="btn btn-quiet" onClick={() => set({ sort: "" })}>
            Sort newest first
          </button>
        </p>
      )}
      {err?.field === "after" && (
        <p className="form-error" role="alert">
          This page no longer fits the list: {err.message}{" "}
          <button type="button" className="btn btn-quiet" onClick={() => go({ ...search, after: undefined, page: undefined })}>
            First page
          </button>
        </p>
      )}
      {list.isError && !err?.field && <Refusal error={list.error} />}
      {list.isPending || !model ? (
        !list.isError && <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>
          {state.q || state.where || state.status
            ? "No entries match."
            : canWrite
              ? "No entries here yet. Use “New entry” to write the first one."
              : "No entries here yet."}
        </p>
      ) : (
        <>
          {canWrite && pageTicked && !selection.allMatching && total > rows.length && (
            <p className="notice select-all">
              {`All ${entries(rows.length)} on this page are selected.`}{" "}
              <button type="button" className="btn btn-quiet" onClick={() => setSelection({ ...selection, allMatching: true })}>
                {`Select all ${entries(total)} that match`}
              </button>
            </p>
          )}
          {selection.allMatching && <p className="notice select-all">{`All ${entries(total)} that match are selected.`}</p>}
          <ListTable
            model={model}
            models={models.data ?? []}
            columns={shown}
            titleColumn={titleColumn}
            rows={rows}
            sort={state.sort}
            onSort={(sort) => set({ sort })}
            selection={canWrite ? selection : null}
            onToggle={(id, range) => setSelection(toggle(selection, rowIds, id, range))}
            onTogglePage={() => setSelection(selection.allMatching ? EMPTY : togglePage(selection, rowIds))}
            locale={query.locale}
            tableRef={table}
          />
        </>
      )}
      {list.data && (
        <Pager
          list={listKey}
          page={state.page}
          limit={state.limit}
          shown={rows.length}
          total={total}
          next={list.data.next}
          loading={list.isPlaceholderData}
          go={(page, after) => go({ ...search, after: after ?? undefined, page: after ? page : undefined })}
          onLimit={(limit) => set({ limit })}
        />
      )}
      <div aria-live="polite">
        {batch ? (
          <BatchProgress key={batch.id} action={batch.action} id={batch.id} started={notice ?? ""} refresh={keys.entries(project.id, ns)} />
        ) : (
          notice && <p className="notice">{notice}</p>
        )}
      </div>
      {canWrite && count > 0 && (
        <BulkBar
          model={ns}
          count={count}
          selected={selected}
          locale={query.locale}
          locales={
            locales && { all: locales.all, initial: bulkDefaults(locales.all, selection.allMatching ? rows : rows.filter((r) => selection.ids.has(r.id))) }
          }
          exportOf={{ columns: [...(titleColumn ? [titleColumn.key] : ["$id"]), ...shown.map((c) => c.key)], sort: state.sort }}
          onClear={() => setSelection(EMPTY)}
          onDone={(message, queued) => {
            setNotice(message);
            setBatch(queued ?? null);
            setSelection(EMPTY);
            void client.invalidateQueries({ queryKey: keys.entries(project.id, ns) });
          }}
        />
      )}
    </>
  );
}
