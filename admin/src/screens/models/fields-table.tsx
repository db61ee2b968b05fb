// The fields of one model in their order, with Edit, Remove, Move up and Move down per field.
// Rows can also be dragged (HTML5 drag and drop, as in the layout editor); the buttons do
// everything dragging does, from the keyboard. A new order is saved whole as `fieldOrder`.
import { useEffect, useRef, useState, type DragEvent } from "react";
import { KIND_WORDS } from "../../api/model-admin.ts";
import type { Field, Model } from "../../api/types.ts";

function kindOf(f: Field, models: Model[]): string {
  const item = f.type === "array" && f.arrayType ? f.arrayType : f.type;
  let w = KIND_WORDS[item];
  if (item === "relation") w += ` to ${models.find((m) => m.id === f.relation)?.name ?? "?"}`;
  if (item === "enum" && f.options?.values) w += ` (${f.options.values.join(", ")})`;
  return f.type === "array" ? `List of ${w}` : w;
}

/** The ids of `fields` with the field `id` moved to just before `beforeId` (or to the end). */
export function reorder(fields: Field[], id: string, beforeId: string | null): string[] {
  const ids = fields.map((f) => f.id).filter((x) => x !== id);
  const at = beforeId === null ? ids.length : ids.indexOf(beforeId);
  ids.splice(at < 0 ? ids.length : at, 0, id);
  return ids;
}

/** The table; `onOrder` saves a new order (every field id) and says which field moved and how. */
export function FieldsTable(props: {
  model: Model;
  models: Model[];
  shape: boolean;
  busy: boolean;
  onEdit(f: Field): void;
  onRemove(f: Field): void;
  onOrder(order: string[], moved: Field, words: string): void;
}) {
  const { model, shape } = props;
  const fields = model.fields;
  const dragged = useRef<string | null>(null);
  // After a move the rows are drawn again in the new order; the focus stays on the button that
  // was pressed (or its twin when that one is now disabled, at the top or bottom).
  const [refocus, setRefocus] = useState<{ id: string; dir: "up" | "down"; from: string } | null>(null);
  const order = fields.map((f) => f.id).join();
  useEffect(() => {
    // Acts once the saved order has come back (the rows are in their new places).
    if (!refocus || refocus.from === order) return;
    const mine = document.getElementById(`move-${refocus.dir}-${refocus.id}`) as HTMLButtonElement | null;
    const twin = document.getElementById(`move-${refocus.dir === "up" ? "down" : "up"}-${refocus.id}`) as HTMLButtonElement | null;
    if (mine && !mine.disabled) mine.focus();
    else twin?.focus();
    setRefocus(null);
  }, [refocus, order]);

  const step = (f: Field, i: number, dir: "up" | "down") => {
    // Ignored while a save is on its way rather than disabled: a disabled button loses the focus.
    if (props.busy) return;
    const ids = fields.map((x) => x.id);
    const j = dir === "up" ? i - 1 : i + 1;
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    setRefocus({ id: f.id, dir, from: order });
    props.onOrder(ids, f, dir === "up" ? "moved up" : "moved down");
  };
  const drop = (e: DragEvent, beforeId: string | null) => {
    e.preventDefault();
    const id = dragged.current;
    dragged.current = null;
    const f = fields.find((x) => x.id === id);
    if (!f || id === beforeId) return;
    const order = reorder(fields, f.id, beforeId);
    if (order.join() !== fields.map((x) => x.id).join()) props.onOrder(order, f, "moved");
  };
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Fields of {model.name}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Namespace</th>
            <th scope="col">Kind</th>
            <th scope="col">Required</th>
            {shape && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => (
            <tr
              key={f.id}
              draggable={shape && !props.busy}
              onDragStart={(e) => {
                e.dataTransfer.setData("text/plain", f.id);
                e.dataTransfer.effectAllowed = "move";
                dragged.current = f.id;
              }}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
              }}
              // A row dropped on a row below it goes after that row; on a row above it, before it.
              onDrop={(e) => drop(e, i > fields.findIndex((x) => x.id === dragged.current) ? (fields[i + 1]?.id ?? null) : f.id)}
            >
              <th scope="row">{f.label || f.namespace}</th>
              <td className="mono">{f.namespace}</td>
              <td>{kindOf(f, props.models)}</td>
              <td>{f.required ? "Required" : "Optional"}</td>
              {shape && (
                <td className="row-actions">
                  <button
                    type="button"
                    id={`move-up-${f.id}`}
                    className="btn btn-quiet"
                    aria-label={`Move up ${f.namespace}`}
                    disabled={i === 0}
                    onClick={() => step(f, i, "up")}
                  >
                    Move up
                  </button>
                  <button
                    type="button"
                    id={`move-down-${f.id}`}
                    className="btn btn-quiet"
                    aria-label={`Move down ${f.namespace}`}
                    disabled={i === fields.length - 1}
                    onClick={() => step(f, i, "down")}
                  >
                    Move down
                  </button>
                  <button type="button" className="btn btn-quiet" aria-label={`Edit ${f.namespace}`} onClick={() => props.onEdit(f)}>
                    Edit
                  </button>
                  <button type="button" className="btn btn-quiet btn-danger" aria-label={`Remove ${f.namespace}`} onClick={() => props.onRemove(f)}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
