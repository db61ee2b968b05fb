// The entry list's table: the title (a link to the editor) and the chosen columns, a header that
// sorts by its column when clicked (`aria-sort` says how), and a box per row for the selection
// (Shift-click ticks a range).
import type { Ref } from "react";
import { Link } from "@tanstack/react-router";
import type { ListColumn, ListedEntry } from "../../api/entry-lists.ts";
import { entryTitle, titleField } from "../../api/models.ts";
import type { Model } from "../../api/types.ts";
import { Cell } from "./cells.tsx";
import { LocalesCell, LocalesHeader } from "./locale-badges.tsx";
import { nextSort, sortOf, sortsColumn } from "./list-state.ts";
import type { Selection } from "./selection.ts";

interface Props {
  model: Model;
  models: Model[];
  /** The columns shown after the title. */
  columns: ListColumn[];
  /** The title's column, when the model has a title field. */
  titleColumn: ListColumn | null;
  rows: ListedEntry[];
  sort: string;
  onSort(sort: string): void;
  /** The selection, or null when the person may not act on entries. */
  selection: Selection | null;
  onToggle(id: string, range: boolean): void;
  onTogglePage(): void;
  tableRef: Ref<HTMLTableElement>;
  /** The locale listed, when not the default: a title opens the editor in it. */
  locale?: string;
}

const TIMES = new Set(["datetime", "date"]);

/** A column's header: a button that sorts by it when it can sort. */
function Header({ column, sort, fieldNames, onSort }: { column: ListColumn; sort: string; fieldNames: string[]; onSort(s: string): void }) {
  const now = sortOf(sort);
  const active = now && sortsColumn(now.key, column.key, fieldNames) ? now : null;
  const ariaSort = active ? (active.desc ? "descending" : "ascending") : undefined;
  if (!column.sortable) return <th scope="col">{column.label}</th>;
  return (
    <th scope="col" aria-sort={ariaSort}>
      <button type="button" className="sort-toggle" onClick={() => onSort(nextSort(sort, column.key, fieldNames, TIMES.has(column.kind)))}>
        {column.label}
        <span aria-hidden="true">{active ? (active.desc ? " ↓" : " ↑") : ""}</span>
      </button>
    </th>
  );
}

export function ListTable(p: Props) {
  const fieldNames = p.model.fields.map((f) => f.namespace);
  const byKey = new Map(p.model.fields.map((f) => [f.namespace, f]));
  const sel = p.selection;
  const pageTicked = !!sel && p.rows.length > 0 && (sel.allMatching || p.rows.every((r) => sel.ids.has(r.id)));
  const title = p.titleColumn ?? { key: "", label: "Title", kind: "string", of: null, system: false, sortable: false, operators: [], fieldId: null };
  return (
    <div className="list-wrap">
      <table ref={p.tableRef} className="entry-table">
        <caption className="visually-hidden">Entries of {p.model.name}</caption>
        <thead>
          <tr>
            {sel && (
              <th scope="col" className="select-col">
                <input type="checkbox" aria-label="Select all on this page" checked={pageTicked} onChange={p.onTogglePage} />
              </th>
            )}
            <Header column={{ ...title, label: titleField(p.model) ? title.label : "Title" }} sort={p.sort} fieldNames={fieldNames} onSort={p.onSort} />
            {p.columns.map((c) => (
              <Header key={c.key} column={c} sort={p.sort} fieldNames={fieldNames} onSort={p.onSort} />
            ))}
            <LocalesHeader model={p.model} />
          </tr>
        </thead>
        <tbody>
          {p.rows.map((e) => {
            const name = entryTitle(p.model, e);
            const ticked = !!sel && (sel.allMatching || sel.ids.has(e.id));
            return (
              <tr key={e.id} className={ticked ? "selected" : undefined}>
                {sel && (
                  <td className="select-col">
                    <input
                      type="checkbox"
                      aria-label={`Select ${name}`}
                      checked={ticked}
                      // React reports a checkbox's change from its click, which knows about Shift.
                      onChange={(ev) => p.onToggle(e.id, (ev.nativeEvent as MouseEvent).shiftKey === true)}
                    />
                  </td>
                )}
                <td className="title-cell">
                  <Link to="/content/$model/$entryId" params={{ model: p.model.namespace, entryId: e.id }} search={p.locale ? { locale: p.locale } : {}}>
                    {name}
                  </Link>
                </td>
                {p.columns.map((c) => (
                  <td key={c.key}>
                    <Cell column={c} field={byKey.get(c.key)} entry={e} models={p.models} />
                  </td>
                ))}
                <LocalesCell model={p.model} entry={e} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
