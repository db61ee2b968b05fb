// A list field (numbers, dates, media, JSON...): one row per item with the item kind's own input.
// Add puts the cursor in the new row; rows reorder by dragging their handle or from the keyboard
// (each row's Move up and Move down, or Alt+Arrow keys inside the row), and focus follows the
// moved row. Items have no ids, so the rows carry keys of their own that move with them.
import { type KeyboardEvent, useRef, useState } from "react";
import { labelOf } from "../../api/models.ts";
import type { Field, FieldType } from "../../api/types.ts";
import type { FieldKind, InputProps } from "../types.ts";

let nextKey = 0;
const newKey = () => `row-${++nextKey}`;

/** Focuses the control of row `id` once it is drawn (the first focusable element in the row). */
function focusRow(rowId: string, control?: string) {
  let tries = 0;
  const go = () => {
    const row = document.getElementById(rowId);
    const el = (control && document.getElementById(control)) || row?.querySelector<HTMLElement>("input, select, textarea, button, [contenteditable=true]");
    if (el) el.focus();
    else if (tries++ < 20) requestAnimationFrame(go);
  };
  requestAnimationFrame(go);
}

export function ListInput(p: InputProps & { item: FieldKind; itemType: Exclude<FieldType, "array"> }) {
  const label = labelOf(p.field);
  const items = Array.isArray(p.value) ? (p.value as unknown[]) : [];
  const keys = useRef<string[]>([]);
  while (keys.current.length < items.length) keys.current.push(newKey());
  keys.current.length = items.length;
  const [dragging, setDragging] = useState<number | null>(null);
  // Read by the drag events themselves, which can come before React has drawn the drag's start.
  const dragFrom = useRef<number | null>(null);
  const [said, setSaid] = useState("");
  const itemField: Field = { ...p.field, type: p.itemType, arrayType: null, required: false };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [v] = next.splice(from, 1);
    next.splice(to, 0, v);
    const [k] = keys.current.splice(from, 1);
    keys.current.splice(to, 0, k!);
    p.onChange(next);
    setSaid(`${label} ${from + 1} moved to position ${to + 1}.`);
  };
  /** Moves row `i` by one and keeps focus on the same button of the moved row (its twin at an end). */
  const step = (i: number, by: -1 | 1) => {
    const k = keys.current[i]!;
    const to = i + by;
    move(i, to);
    const atEnd = to === 0 || to === items.length - 1;
    const same = by < 0 ? "up" : "down";
    const twin = by < 0 ? "down" : "up";
    focusRow(`${p.id}-row-${k}`, `${p.id}-${atEnd ? twin : same}-${k}`);
  };
  const onKey = (i: number) => (e: KeyboardEvent) => {
    if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
    e.preventDefault();
    // The row's elements are moved, not made anew, so the control that had focus gets it back.
    const active = document.activeElement as HTMLElement | null;
    move(i, e.key === "ArrowUp" ? i - 1 : i + 1);
    requestAnimationFrame(() => active?.focus());
  };

  return (
    <fieldset className="array-items" aria-labelledby={p.labelId} aria-describedby={p.describedBy}>
      {items.map((v, i) => {
        const k = keys.current[i]!;
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: the row takes Alt+Arrow keys from the controls inside it; the buttons do the same by click.
          <div
            className={`array-item list-row${dragging === i ? " dragging" : ""}`}
            key={k}
            id={`${p.id}-row-${k}`}
            onKeyDown={onKey(i)}
            onDragOver={(e) => {
              if (dragFrom.current === null) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = "move";
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragFrom.current !== null) move(dragFrom.current, i);
              dragFrom.current = null;
              setDragging(null);
            }}
          >
            <span
              className="drag-handle"
              draggable
              title="Drag to reorder"
              aria-hidden="true"
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = "move";
                e.dataTransfer.setData("text/plain", String(i));
                dragFrom.current = i;
                setDragging(i);
              }}
              onDragEnd={() => {
                dragFrom.current = null;
                setDragging(null);
              }}
            >
              ⋮⋮
            </span>
            <div className="field grow">
              <label className="visually-hidden" htmlFor={`${p.id}-${i}`} id={`${p.id}-${i}-label`}>
                {`${label} ${i + 1}`}
              </label>
              {p.item.Input({
                ...p,
                field: itemField,
                id: `${p.id}-${i}`,
                labelId: `${p.id}-${i}-label`,
                describedBy: undefined,
                value: v,
                onChange: (nv) => p.onChange(items.map((x, j) => (j === i ? nv : x))),
              })}
            </div>
            <button
              type="button"
              className="btn btn-quiet"
              id={`${p.id}-up-${k}`}
              aria-label={`Move ${label} ${i + 1} up`}
              disabled={i === 0}
              onClick={() => step(i, -1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="btn btn-quiet"
              id={`${p.id}-down-${k}`}
              aria-label={`Move ${label} ${i + 1} down`}
              disabled={i === items.length - 1}
              onClick={() => step(i, 1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="btn btn-quiet"
              aria-label={`Remove ${label} ${i + 1}`}
              onClick={() => {
                keys.current.splice(i, 1);
                p.onChange(items.filter((_, j) => j !== i));
              }}
            >
              Remove
            </button>
          </div>
        );
      })}
      <div>
        <button
          type="button"
          className="btn"
          aria-label={`Add to ${label}`}
          onClick={() => {
            const k = newKey();
            keys.current.push(k);
            p.onChange([...items, p.item.empty(itemField)]);
            focusRow(`${p.id}-row-${k}`, `${p.id}-${items.length}`);
          }}
        >
          Add
        </button>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </fieldset>
  );
}
