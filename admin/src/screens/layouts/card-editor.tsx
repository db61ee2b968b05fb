// One card in the layout editor: its title and description (limited as typed), whether it folds
// and starts folded, its place (Move up, Move down, to the other column, Remove card), and its
// fields, which take dropped rows (at the end, or before the row they are dropped on).
import type { DragEvent } from "react";
import type { Field, LayoutCard, LayoutField } from "../../api/types.ts";
import { type Column, LIMITS } from "./draft.ts";
import { FieldRow, type Target } from "./field-row.tsx";
import { TextLimit } from "./text-limit.tsx";

/** A server refusal pointed at a card: the key it names (`title`, `description`, ...) and its sentence. */
export interface CardError {
  key: string | null;
  item: number | null;
  message: string;
}

/** What a card editor shows and the changes it asks for. */
export interface CardEditorProps {
  card: LayoutCard;
  column: Column;
  first: boolean;
  last: boolean;
  fields: Map<string, Field>;
  targets: Target[];
  error: CardError | null;
  onCard(patch: Partial<Pick<LayoutCard, "title" | "description" | "collapsible" | "collapsed">>): void;
  onCardStep(delta: -1 | 1): void;
  onSwitch(): void;
  onRemove(): void;
  onPlace(fieldId: string, cardId: string | null, index?: number): void;
  onFieldStep(fieldId: string, delta: -1 | 1): void;
  onField(fieldId: string, patch: Partial<Pick<LayoutField, "width" | "display">>): void;
  onDragStart(fieldId: string): void;
  /** Drops the dragged field into this card before `index` (at the end when undefined). */
  onDrop(index?: number): void;
}

/** The editor of one card. */
export function CardEditor(p: CardEditorProps) {
  const c = p.card;
  const name = c.title.trim() || "Untitled card";
  const id = `lc-${c.id}`;
  const other = p.column === "main" ? "aside" : "main";
  const cardLevel = p.error && p.error.item === null && p.error.key !== "title" && p.error.key !== "description" ? p.error.message : null;
  const over = (e: DragEvent) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    p.onDrop();
  };
  return (
    <section className="card layout-card" aria-label={`Card: ${name}`} onDragOver={over} onDrop={drop}>
      <div className="toolbar">
        <h3>{name}</h3>
        <span className="spacer" />
        <button type="button" className="btn btn-quiet" aria-label={`Move card ${name} up`} disabled={p.first} onClick={() => p.onCardStep(-1)}>
          ↑
        </button>
        <button type="button" className="btn btn-quiet" aria-label={`Move card ${name} down`} disabled={p.last} onClick={() => p.onCardStep(1)}>
          ↓
        </button>
        <button type="button" className="btn" aria-label={`Move card ${name} to ${other}`} onClick={p.onSwitch}>
          {other === "aside" ? "To aside" : "To main"}
        </button>
        <button type="button" className="btn btn-danger" aria-label={`Remove card ${name}`} onClick={p.onRemove}>
          Remove
        </button>
      </div>
      <TextLimit
        id={`${id}-title`}
        label="Title"
        value={c.title}
        max={LIMITS.title}
        error={p.error?.key === "title" && p.error.item === null ? p.error.message : null}
        onChange={(title) => p.onCard({ title })}
      />
      <TextLimit
        id={`${id}-description`}
        label="Description"
        multiline
        value={c.description ?? ""}
        max={LIMITS.description}
        error={p.error?.key === "description" && p.error.item === null ? p.error.message : null}
        onChange={(d) => p.onCard({ description: d === "" ? null : d })}
      />
      <div className="layout-switches">
        <label>
          <input type="checkbox" checked={c.collapsible} onChange={(e) => p.onCard({ collapsible: e.target.checked })} /> Collapsible
        </label>
        <label>
          <input type="checkbox" checked={c.collapsed} disabled={!c.collapsible} onChange={(e) => p.onCard({ collapsed: e.target.checked })} /> Collapsed at
          first
        </label>
      </div>
      {cardLevel && (
        <p className="form-error" role="alert">
          {cardLevel}
        </p>
      )}
      {c.items.length === 0 ? (
        <p className="drop-hint muted">No fields yet: drag fields here, or choose this card in a field’s “Move to”.</p>
      ) : (
        <ol className="layout-items" aria-label={`Fields of ${name}`}>
          {c.items.map((it, i) => {
            const f = p.fields.get(it.fieldId);
            if (!f) return null;
            return (
              <FieldRow
                key={it.id}
                field={f}
                item={it}
                cardId={c.id}
                targets={p.targets}
                canUp={i > 0}
                canDown={i < c.items.length - 1}
                error={p.error?.item === i ? p.error.message : null}
                onMove={(to) => p.onPlace(f.id, to)}
                onStep={(d) => p.onFieldStep(f.id, d)}
                onChange={(patch) => p.onField(f.id, patch)}
                onDragStart={p.onDragStart}
                onDropHere={() => p.onDrop(i)}
              />
            );
          })}
        </ol>
      )}
    </section>
  );
}
