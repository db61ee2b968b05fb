// The fields of an entry: the model's entry layout (cards in main and aside, widths on a
// 6-column grid, collapsible cards), or one card of every field when the model has none.
import { useState, type ReactNode } from "react";
import type { Field, LayoutCard, Model } from "../../api/types.ts";
import { FormField } from "../../fields/form-field.tsx";

/** The form's values by field namespace, and the server's error per namespace. */
export interface FormProps {
  model: Model;
  models: Model[];
  projectId: string;
  values: Record<string, unknown>;
  errors: Record<string, string>;
  onChange(ns: string, v: unknown): void;
  /** Extra cards for the aside (details, scheduling). */
  aside?: ReactNode;
  /** Shows the values with every input disabled (a viewer's role). */
  readOnly?: boolean;
  /** The side-by-side view: another locale's value beside each localized field (locale-beside.tsx). */
  beside?: (f: Field) => ReactNode;
}

function Card({ card, p }: { card: LayoutCard; p: FormProps }) {
  const [open, setOpen] = useState(!card.collapsed);
  const byId = new Map(p.model.fields.map((f) => [f.id, f]));
  const fields = card.items.map((it) => ({ it, f: byId.get(it.fieldId) })).filter((x): x is { it: (typeof card.items)[number]; f: Field } => !!x.f);
  // A collapsed card with an error opens, so the error is never hidden.
  const shown = open || fields.some((x) => p.errors[x.f.namespace]);
  const bodyId = `card-${card.id}`;
  return (
    <section className="card" aria-labelledby={`${bodyId}-title`}>
      {card.collapsible ? (
        <h2 id={`${bodyId}-title`}>
          <button type="button" className="card-toggle" aria-expanded={shown} aria-controls={bodyId} onClick={() => setOpen(!shown)}>
            {shown ? "▾" : "▸"} {card.title}
          </button>
        </h2>
      ) : (
        <h2 id={`${bodyId}-title`}>{card.title}</h2>
      )}
      {card.description && <p className="muted">{card.description}</p>}
      {/* A fieldset, so one `disabled` turns off every input of the card for a reader. */}
      <fieldset className="card-fields" id={bodyId} hidden={!shown} disabled={p.readOnly}>
        {fields.map(({ it, f }) => {
          const field = (width: string) => (
            <FormField
              key={it.id}
              field={f}
              width={width}
              display={it.display}
              value={p.values[f.namespace]}
              error={p.errors[f.namespace]}
              onChange={p.onChange}
              models={p.models}
              projectId={p.projectId}
            />
          );
          if (!p.beside || !f.localized) return field(it.width ?? "full");
          // Side by side: the field and the other locale's value share the field's row.
          return (
            <div key={it.id} className="w-full locale-pair">
              {field("pair")}
              {p.beside(f)}
            </div>
          );
        })}
      </fieldset>
    </section>
  );
}

/** The entry's fields as the model lays them out. */
export function EntryForm(p: FormProps) {
  const layout = p.model.layout;
  if (layout && layout.main.length + layout.aside.length > 0) {
    return (
      <div className="editor-grid">
        <div>
          {layout.main.map((c) => (
            <Card key={c.id} card={c} p={p} />
          ))}
        </div>
        <div>
          {p.aside}
          {layout.aside.map((c) => (
            <Card key={c.id} card={c} p={p} />
          ))}
        </div>
      </div>
    );
  }
  const all: LayoutCard = {
    t: "card",
    id: "all",
    title: "Fields",
    description: null,
    collapsible: false,
    collapsed: false,
    items: p.model.fields.map((f) => ({ t: "field", id: f.id, fieldId: f.id, width: "full" })),
  };
  return (
    <div className="editor-grid">
      <div>
        <Card card={all} p={p} />
      </div>
      <div>{p.aside}</div>
    </div>
  );
}
