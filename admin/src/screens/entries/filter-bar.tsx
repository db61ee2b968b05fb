// The list's filters: one removable chip per condition, and `Add filter`, which asks for a
// column, one of the operators its kind takes (in words) and a value in the input that fits the
// kind (a number, a date, yes or no, the enum's values). The conditions are the /api where grammar
// underneath (filters.ts); a refusal from the server is said here, where it can be fixed.
import { type FormEvent, useId, useState } from "react";
import type { ListColumn } from "../../api/entry-lists.ts";
import type { Model } from "../../api/types.ts";
import { chipWords, type Filter, filtersOf, opTakes, opWords, parseValue, valueKindOf, whereOf } from "./filters.ts";

interface Props {
  model: Model;
  /** The columns a filter can use (those with operators). */
  columns: ListColumn[];
  where: Record<string, unknown> | null;
  onChange(where: Record<string, unknown> | null): void;
  /** The server's refusal of the filter, in its words. */
  error: string | null;
}

export function FilterBar(p: Props) {
  const { filters, custom } = filtersOf(p.where);
  const [adding, setAdding] = useState(false);
  const byKey = new Map(p.columns.map((c) => [c.key, c]));
  const remove = (i: number) => p.onChange(whereOf(filters.toSpliced(i, 1), custom));
  return (
    <section className="filter-bar" aria-label="Filters">
      <ul className="chips">
        {filters.map((f, i) => {
          const words = chipWords(f, byKey.get(f.key));
          return (
            <li key={`${f.key}-${f.op}`} className="chip">
              <span>{words}</span>
              <button type="button" className="chip-remove" aria-label={`Remove filter: ${words}`} onClick={() => remove(i)}>
                ×
              </button>
            </li>
          );
        })}
        {custom && (
          <li className="chip">
            <span title={JSON.stringify(custom)}>Custom filter</span>
            <button type="button" className="chip-remove" aria-label="Remove filter: Custom filter" onClick={() => p.onChange(whereOf(filters, null))}>
              ×
            </button>
          </li>
        )}
        <li>
          <button type="button" className="btn btn-quiet" aria-expanded={adding} onClick={() => setAdding(!adding)}>
            Add filter
          </button>
        </li>
      </ul>
      {p.error && (
        <p className="form-error" role="alert">
          This filter cannot be used: {p.error}
        </p>
      )}
      {adding && (
        <NewFilter
          model={p.model}
          columns={p.columns}
          onCancel={() => setAdding(false)}
          onAdd={(f) => {
            setAdding(false);
            p.onChange(whereOf([...filters, f], custom));
          }}
        />
      )}
    </section>
  );
}

function NewFilter(p: { model: Model; columns: ListColumn[]; onAdd(f: Filter): void; onCancel(): void }) {
  const id = useId();
  const [key, setKey] = useState(p.columns[0]?.key ?? "");
  const column = p.columns.find((c) => c.key === key);
  const [op, setOp] = useState(column?.operators[0] ?? "eq");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (!column) return <p className="muted">No column of this model can be filtered.</p>;
  const kind = valueKindOf(column);
  const takes = opTakes(op);
  const choices = kind === "choice" ? (p.model.fields.find((f) => f.namespace === column.key)?.options?.values ?? []) : [];

  function pick(k: string) {
    const c = p.columns.find((x) => x.key === k);
    setKey(k);
    setOp(c?.operators[0] ?? "eq");
    setText("");
    setError(null);
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const v = parseValue(kind, op, text);
    if ("error" in v) setError(v.error);
    else p.onAdd({ key, op, value: v.value });
  }
  const valueId = `${id}-value`;
  const described = error ? `${valueId}-error` : takes === "list" ? `${valueId}-hint` : undefined;
  return (
    <form className="card new-filter" onSubmit={submit} aria-label="New filter">
      <div className="field">
        <label htmlFor={`${id}-column`}>Filter by</label>
        <select id={`${id}-column`} value={key} onChange={(e) => pick(e.target.value)}>
          {p.columns.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-op`}>Operator</label>
        <select id={`${id}-op`} value={op} onChange={(e) => setOp(e.target.value)}>
          {column.operators.map((o) => (
            <option key={o} value={o}>
              {opWords(o, kind)}
            </option>
          ))}
        </select>
      </div>
      {takes !== "nothing" && (
        <div className="field">
          <label htmlFor={valueId}>Value</label>
          {takes === "one" && kind === "boolean" ? (
            <select id={valueId} value={text} onChange={(e) => setText(e.target.value)} aria-describedby={described} aria-invalid={error ? true : undefined}>
              <option value="">Choose…</option>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </select>
          ) : takes === "one" && choices.length > 0 ? (
            <select id={valueId} value={text} onChange={(e) => setText(e.target.value)} aria-describedby={described} aria-invalid={error ? true : undefined}>
              <option value="">Choose…</option>
              {choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={valueId}
              type={takes === "one" && kind === "number" ? "number" : takes === "one" && kind === "date" ? "date" : "text"}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={described}
              aria-invalid={error ? true : undefined}
            />
          )}
          {takes === "list" && (
            <p className="hint" id={`${valueId}-hint`}>
              Separate values with commas.
            </p>
          )}
          {error && (
            <p className="error" id={`${valueId}-error`}>
              {error}
            </p>
          )}
        </div>
      )}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary">
          Apply filter
        </button>
        <button type="button" className="btn" onClick={p.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
