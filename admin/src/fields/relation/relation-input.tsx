// A relation field (one entry) or a list of relations (several): the chosen entries by title and
// status, chosen in the picker dialog; a list's entries reorder with Move up / Move down and
// are removed one by one.
import { useState } from "react";
import { labelOf } from "../../api/models.ts";
import type { InputProps } from "../types.ts";
import { PickerDialog } from "./picker-dialog.tsx";
import { RelatedEntry } from "./related-entry.tsx";

export function RelationInput(p: InputProps) {
  const target = p.models.find((m) => m.id === p.field.relation);
  const label = labelOf(p.field);
  const many = p.field.type === "array";
  const ids = many ? (Array.isArray(p.value) ? (p.value as string[]) : []) : typeof p.value === "string" ? [p.value] : [];
  const [picking, setPicking] = useState(false);
  if (!target) return <p className="muted">The related model is gone.</p>;
  const set = (next: string[]) => p.onChange(many ? next : (next[0] ?? null));
  const move = (i: number, by: number) => {
    const next = [...ids];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    set(next);
  };
  return (
    <fieldset className="relation" id={p.id} tabIndex={-1} aria-labelledby={p.labelId} aria-describedby={p.describedBy} aria-invalid={p.invalid || undefined}>
      {ids.length === 0 ? (
        <p className="muted">None</p>
      ) : (
        <ul className="related-list">
          {ids.map((id, i) => (
            <li key={id} className="related-row">
              <span className="grow">
                <RelatedEntry id={id} target={target} projectId={p.projectId} display={p.display} />
              </span>
              {many && (
                <>
                  <button type="button" className="btn btn-quiet" aria-label={`Move ${label} ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-quiet"
                    aria-label={`Move ${label} ${i + 1} down`}
                    disabled={i === ids.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                </>
              )}
              <button
                type="button"
                className="btn btn-quiet"
                aria-label={many ? `Remove ${label} ${i + 1}` : `Remove ${label}`}
                onClick={() => set(ids.filter((x) => x !== id))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div>
        <button
          type="button"
          className="btn"
          aria-label={many ? `Add to ${label}` : `${ids.length ? "Change" : "Choose"} ${label}`}
          onClick={() => setPicking(true)}
        >
          {many ? "Add" : ids.length ? "Change" : "Choose"}
        </button>
      </div>
      <PickerDialog
        open={picking}
        label={label}
        target={target}
        projectId={p.projectId}
        many={many}
        chosen={ids}
        onCancel={() => setPicking(false)}
        onChoose={(chosen) => {
          setPicking(false);
          set(many ? [...ids, ...chosen] : chosen);
        }}
      />
    </fieldset>
  );
}
