// One field in the layout editor: in a card (width, relation display, Move to, Move up and Move
// down) or in "Not in the layout" (Move to). Rows are dragged with HTML5 drag and drop; the
// selects and buttons do everything dragging does, from the keyboard.
import type { DragEvent } from "react";
import type { Field, LayoutField } from "../../api/types.ts";
import { labelOf } from "../../api/models.ts";
import { KIND_WORDS } from "../../api/model-admin.ts";
import { DISPLAYS, isRelationField, WIDTHS } from "./draft.ts";

/** A card a field can be moved to, as the Move to select lists it. */
export interface Target {
  id: string;
  word: string;
}

/** What a row shows and the changes it asks for. */
export interface FieldRowProps {
  field: Field;
  /** The field's item when it is placed in a card; null in "Not in the layout". */
  item: LayoutField | null;
  cardId: string | null;
  targets: Target[];
  canUp: boolean;
  canDown: boolean;
  error: string | null;
  onMove(cardId: string | null): void;
  onStep(delta: -1 | 1): void;
  onChange(patch: Partial<Pick<LayoutField, "width" | "display">>): void;
  onDragStart(fieldId: string): void;
  /** A dragged field dropped on this row goes just before it. */
  onDropHere(): void;
}

/** The kind of a field in a few words (`Text`, `List of Relation`). */
function kindWord(f: Field): string {
  const item = f.type === "array" && f.arrayType ? KIND_WORDS[f.arrayType] : KIND_WORDS[f.type];
  return f.type === "array" ? `List of ${item}` : item;
}

/** One draggable field row. */
export function FieldRow(p: FieldRowProps) {
  const label = labelOf(p.field);
  const id = `lf-${p.field.id}`;
  const start = (e: DragEvent) => {
    e.dataTransfer.setData("text/plain", p.field.id);
    e.dataTransfer.effectAllowed = "move";
    p.onDragStart(p.field.id);
  };
  const over = (e: DragEvent) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    p.onDropHere();
  };
  return (
    <li className="layout-item" draggable aria-label={label} onDragStart={start} onDragOver={over} onDrop={drop}>
      <span className="drag-handle" aria-hidden="true">
        ⠿
      </span>
      <span className="layout-item-name">
        <strong>{label}</strong> <span className="muted">{kindWord(p.field)}</span>
      </span>
      <span className="layout-item-controls">
        {p.item && (
          <span className="inline-field">
            <label htmlFor={`${id}-width`}>
              Width<span className="visually-hidden"> of {label}</span>
            </label>
            <select
              id={`${id}-width`}
              value={p.item.width}
              onChange={(e) => p.onChange({ width: e.target.value as LayoutField["width"] })}
              aria-invalid={p.error ? true : undefined}
            >
              {WIDTHS.map((w) => (
                <option key={w.value} value={w.value}>
                  {w.word}
                </option>
              ))}
            </select>
          </span>
        )}
        {p.item && isRelationField(p.field) && (
          <span className="inline-field">
            <label htmlFor={`${id}-display`}>
              Display<span className="visually-hidden"> of {label}</span>
            </label>
            <select id={`${id}-display`} value={p.item.display ?? "picker"} onChange={(e) => p.onChange({ display: e.target.value as LayoutField["display"] })}>
              {DISPLAYS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.word}
                </option>
              ))}
            </select>
          </span>
        )}
        <span className="inline-field">
          <label htmlFor={`${id}-move`}>
            Move<span className="visually-hidden"> {label}</span> to
          </label>
          <select id={`${id}-move`} value={p.cardId ?? ""} onChange={(e) => p.onMove(e.target.value === "" ? null : e.target.value)}>
            {p.targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.word}
              </option>
            ))}
            <option value="">Not in the layout</option>
          </select>
        </span>
        {p.item && (
          <span className="step-buttons">
            <button type="button" className="btn btn-quiet" aria-label={`Move ${label} up`} disabled={!p.canUp} onClick={() => p.onStep(-1)}>
              ↑
            </button>
            <button type="button" className="btn btn-quiet" aria-label={`Move ${label} down`} disabled={!p.canDown} onClick={() => p.onStep(1)}>
              ↓
            </button>
          </span>
        )}
      </span>
      {p.error && (
        <span className="error" role="alert">
          {p.error}
        </span>
      )}
    </li>
  );
}
