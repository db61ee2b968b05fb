// The layout editor of one model: cards in Main and Aside, the fields not in the layout, Save
// (PUT /v2/models/:id/layout), Reset to default (DELETE, after a confirmation) and the live
// preview. A refusal's `path` (`main[0].title`) is shown at the card, input or field it names.
import { useEffect, useMemo, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, keys } from "../../api/client.ts";
import { layoutApi } from "../../api/layouts.ts";
import type { Model } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { CardEditor, type CardError } from "./card-editor.tsx";
import * as D from "./draft.ts";
import { FieldRow, type Target } from "./field-row.tsx";
import { LayoutPreview } from "./layout-preview.tsx";

const COLUMN_WORDS = { main: "Main", aside: "Aside" } as const;

/** The editor; `model` is the model as last read, with its saved layout. */
export function LayoutEditor({ model, models, projectId }: { model: Model; models: Model[]; projectId: string }) {
  const client = useQueryClient();
  const [draft, setDraftState] = useState(() => D.draftOf(model.layout, model.fields));
  const [saved, setSaved] = useState(() => JSON.stringify(D.layoutOf(D.draftOf(model.layout, model.fields))));
  const [hasLayout, setHasLayout] = useState(model.layout !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const dragged = useRef<string | null>(null);
  const fields = useMemo(() => new Map(model.fields.map((f) => [f.id, f])), [model.fields]);
  const count = D.counts(draft);
  const dirty = JSON.stringify(D.layoutOf(draft)) !== saved;

  // Any edit clears the last answer: a refusal's path points into the draft as it was sent.
  const setDraft = (d: D.Draft | null, refusal: string | null = null) => {
    setRefused(refusal);
    if (!d) return;
    setDraftState(d);
    setNotice(null);
    save.reset();
  };
  const afterWrite = (m: Model | null, message: string) => {
    const d = D.draftOf(m?.layout ?? null, model.fields);
    setDraftState(d);
    setSaved(JSON.stringify(D.layoutOf(d)));
    setHasLayout(m?.layout != null);
    setNotice(message);
    void client.invalidateQueries({ queryKey: keys.models(projectId) });
  };
  const save = useMutation({
    // A field removed from the model since the editor opened is left out, as the server would refuse it.
    mutationFn: () => layoutApi.save(model.id, D.layoutOf(D.draftOf(D.layoutOf(draft), model.fields))),
    onSuccess: (m) => afterWrite(m, "Layout saved. The entry editor of this model follows it now."),
    // Focus goes to the input or field the refusal names, so the person lands where to fix it.
    onError: (e) => {
      const at = e instanceof ApiError && e.field ? D.pointOf(e.field) : null;
      const card = at ? draft[at.column][at.card] : undefined;
      if (!at || !card) return;
      const id = at.item !== null ? `lf-${card.items[at.item]?.fieldId}-width` : `lc-${card.id}-${at.key === "description" ? "description" : "title"}`;
      requestAnimationFrame(() => document.getElementById(id)?.focus());
    },
  });
  const reset = useMutation({
    mutationFn: () => layoutApi.reset(model.id),
    onSuccess: () => {
      setConfirming(false);
      save.reset();
      afterWrite(null, "Layout reset: the entry editor shows every field in one column.");
    },
  });

  // Ctrl+S (Cmd+S) saves, as in the entry editor.
  const saveRef = useRef(() => {});
  saveRef.current = () => {
    if (dirty && !save.isPending) save.mutate();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // Where the server's refusal points, if at a part of the draft.
  const point = save.error instanceof ApiError && save.error.code === "invalid_layout" && save.error.field ? D.pointOf(save.error.field) : null;
  const pointedCard = point ? draft[point.column][point.card] : undefined;
  const cardError = (id: string): CardError | null =>
    point && pointedCard?.id === id && save.error ? { key: point.key, item: point.item, message: save.error.message } : null;
  const targets: Target[] = D.allCards(draft).map(({ column, card }) => ({
    id: card.id,
    word: `${COLUMN_WORDS[column]}: ${card.title.trim() || "Untitled card"}`,
  }));
  const tooMany = `A layout holds at most ${D.LIMITS.fields} fields; take one out before placing another.`;
  const place = (fieldId: string, cardId: string | null, index?: number) => {
    const next = D.placeField(draft, fieldId, cardId, index);
    setDraft(next, next ? null : tooMany);
  };
  const dropInto = (cardId: string | null, index?: number) => {
    if (dragged.current) place(dragged.current, cardId, index);
    dragged.current = null;
  };
  const unplaced = model.fields.filter((f) => !D.placeOf(draft, f.id));
  const atCardLimit = count.cards >= D.LIMITS.cards;

  const column = (col: D.Column) => (
    <section className="layout-column" aria-labelledby={`layout-${col}-title`}>
      <h2 id={`layout-${col}-title`}>{COLUMN_WORDS[col]}</h2>
      {draft[col].length === 0 && <p className="muted">No cards in {COLUMN_WORDS[col].toLowerCase()}.</p>}
      {draft[col].map((card, i) => (
        <CardEditor
          key={card.id}
          card={card}
          column={col}
          first={i === 0}
          last={i === draft[col].length - 1}
          fields={fields}
          targets={targets}
          error={cardError(card.id)}
          onCard={(patch) => setDraft(D.updateCard(draft, card.id, patch))}
          onCardStep={(d) => setDraft(D.moveCard(draft, card.id, d))}
          onSwitch={() => setDraft(D.switchColumn(draft, card.id))}
          onRemove={() => setDraft(D.removeCard(draft, card.id))}
          onPlace={place}
          onFieldStep={(f, d) => setDraft(D.moveField(draft, f, d))}
          onField={(f, patch) => setDraft(D.updateField(draft, f, patch))}
          onDragStart={(f) => {
            dragged.current = f;
          }}
          onDrop={(index) => dropInto(card.id, index)}
        />
      ))}
      <button
        type="button"
        className="btn"
        disabled={atCardLimit}
        aria-describedby={atCardLimit ? "layout-card-limit" : undefined}
        onClick={() => {
          const added = D.addCard(draft, col);
          if (!added) return;
          setDraft(added.draft);
          // The new card's title is where people go next.
          requestAnimationFrame(() => (document.getElementById(`lc-${added.id}-title`) as HTMLInputElement | null)?.select());
        }}
      >
        Add card to {COLUMN_WORDS[col].toLowerCase()}
      </button>
    </section>
  );

  return (
    <>
      <div className="toolbar">
        <p className="muted" aria-live="polite">
          {count.cards} of {D.LIMITS.cards} cards, {count.fields} of {D.LIMITS.fields} fields placed.
          {dirty ? " Unsaved changes." : ""}
        </p>
        <span className="spacer" />
        {(hasLayout || dirty) && (
          <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
            Reset to default
          </button>
        )}
        <button type="button" className="btn btn-primary" disabled={!dirty || save.isPending} onClick={() => save.mutate()}>
          Save layout
        </button>
      </div>
      {atCardLimit && (
        <p className="notice" id="layout-card-limit">
          This layout has {D.LIMITS.cards} cards, the most a layout holds: remove one to add another.
        </p>
      )}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {refused && (
        <p className="form-error" role="alert">
          {refused}
        </p>
      )}
      {save.error && !pointedCard && <Refusal error={save.error} />}
      {count.cards === 0 && model.fields.length > 0 && (
        <p>
          <button type="button" className="btn" onClick={() => setDraft(D.plainDraft(model.fields))}>
            Start with every field in one card
          </button>
        </p>
      )}
      <div className="layout-columns">
        {column("main")}
        {column("aside")}
      </div>
      <section
        className="card layout-unplaced"
        aria-labelledby="layout-unplaced-title"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          dropInto(null);
        }}
      >
        <h2 id="layout-unplaced-title">Not in the layout</h2>
        <p className="muted">
          {count.cards === 0
            ? "With no cards the editor shows every field in one column. Once there are cards, fields left here are not shown in the entry editor; their values are kept."
            : "These fields are not shown in the entry editor; their values are kept. Drag one into a card, or choose a card in its “Move to”."}
        </p>
        {unplaced.length === 0 ? (
          <p className="muted">Every field is in a card.</p>
        ) : (
          <ul className="layout-items" aria-label="Fields not in the layout">
            {unplaced.map((f) => (
              <FieldRow
                key={f.id}
                field={f}
                item={null}
                cardId={null}
                targets={targets}
                canUp={false}
                canDown={false}
                error={null}
                onMove={(to) => place(f.id, to)}
                onStep={() => {}}
                onChange={() => {}}
                onDragStart={(id) => {
                  dragged.current = id;
                }}
                onDropHere={() => dropInto(null)}
              />
            ))}
          </ul>
        )}
      </section>
      <LayoutPreview model={model} models={models} projectId={projectId} layout={count.cards === 0 && !hasLayout && !dirty ? null : D.layoutOf(draft)} />
      <Dialog open={confirming} title="Reset the layout?" onCancel={() => setConfirming(false)}>
        <p>The saved layout of {model.name} is deleted and its entry editor shows every field in one column. Unsaved changes here are lost.</p>
        {reset.error && <Refusal error={reset.error} />}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={reset.isPending} onClick={() => reset.mutate()}>
            Reset to default
          </button>
          <button type="button" className="btn" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
