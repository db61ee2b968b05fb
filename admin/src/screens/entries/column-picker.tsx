// Choosing the list's columns from the model's fields and the system columns, each named as the
// header will name it ("Last edited by"). The title always shows, as the link to the entry.
import { useState } from "react";
import type { ListColumn } from "../../api/entry-lists.ts";

/** The default columns after the title: status, when and who saved last. */
export const DEFAULT_COLUMNS = ["$status", "$updatedAt", "$lastEditedBy"];

export function ColumnPicker(p: { columns: ListColumn[]; shown: string[]; onChange(keys: string[] | null): void }) {
  const [open, setOpen] = useState(false);
  const shown = new Set(p.shown);
  function flip(key: string) {
    const next = new Set(shown);
    if (!next.delete(key)) next.add(key);
    // Kept in the model's order, system columns last, as the server lists them.
    p.onChange(p.columns.filter((c) => next.has(c.key)).map((c) => c.key));
  }
  return (
    <div className="column-picker">
      <button type="button" className="btn" aria-expanded={open} onClick={() => setOpen(!open)}>
        Columns
      </button>
      {open && (
        <fieldset className="card column-choices">
          <legend>Columns to show</legend>
          {p.columns.map((c) => (
            <label key={c.key}>
              <input type="checkbox" checked={shown.has(c.key)} onChange={() => flip(c.key)} /> {c.label}
              {c.system && <span className="muted"> (system)</span>}
            </label>
          ))}
          <div className="toolbar">
            <button type="button" className="btn btn-quiet" onClick={() => p.onChange(null)}>
              Default columns
            </button>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}
