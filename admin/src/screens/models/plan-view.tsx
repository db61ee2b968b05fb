// A field-change plan, shown when a field edit answers 409 field_change_required: per operation,
// how many values convert, lose detail or fail, and a choice; `Apply` queues the change.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { type FieldEdit, modelApi, type Plan, type PlanOp } from "../../api/model-admin.ts";

/** What a decision may choose for an op. */
type Choice = PlanOp["choices"][number];
import { Refusal } from "../../ui/refusal.tsx";

const CHOICE_WORDS: Record<string, string> = {
  convert: "Convert the values",
  clear: "Clear the values",
  keep_both: "Keep both (old values in a new field)",
  delete: "Delete the values",
};

/** Turning `localized` on or off (issue 28): what it does, and the values kept and dropped. */
function LocalizeOp({ op, on }: { op: PlanOp; on: boolean }) {
  const c = op.counts;
  return (
    <>
      <h3>
        {op.from.namespace}: {on ? "localized (one value per locale)" : "shared by every locale"}
      </h3>
      <p>
        {on
          ? "Every value becomes the default locale's value; the other locales start empty and fall back."
          : "The default locale's value is kept; the values of every other locale are dropped."}
      </p>
      {c && (
        <ul aria-label={`Values of ${op.from.namespace}`}>
          <li>{c.values} values</li>
          <li>{c.kept ?? c.convert} kept</li>
          <li>{c.dropped ?? c.loseDetail} dropped</li>
        </ul>
      )}
    </>
  );
}

/** The plan of `editFields` on model `modelId`; `onApplied` after the change is queued. */
export function PlanView(props: {
  modelId: string;
  plan: Plan;
  editFields: FieldEdit[];
  onApplied(change: { id: string; state: string }): void;
  onCancel(): void;
}) {
  const [choices, setChoices] = useState<Record<string, Choice>>(() => Object.fromEntries(props.plan.ops.map((o) => [o.id, o.choices[0] ?? "convert"])));
  // What a value that cannot convert does, per op converting a type: emptied and listed (the
  // server's default), or the whole change stops with every such value listed, nothing changed.
  const [onFailure, setOnFailure] = useState<Record<string, "clear" | "stop">>({});
  const stops = (o: PlanOp) => o.kind === "change" && choices[o.id] === "convert";
  const apply = useMutation({
    mutationFn: () =>
      modelApi.apply(props.modelId, {
        planHash: props.plan.planHash,
        editFields: props.editFields,
        removeIds: [],
        decisions: props.plan.ops.map((o) => ({ opId: o.id, choice: choices[o.id]!, ...(stops(o) ? { onFailure: onFailure[o.id] ?? "clear" } : {}) })),
      }),
    onSuccess: (c) => props.onApplied(c),
  });
  return (
    <div className="form-stack">
      <p>
        This change rewrites stored values of {props.plan.entries === 1 ? "1 entry" : `${props.plan.entries} entries`}. Check what happens to them, choose, then
        apply.
      </p>
      {props.plan.ops.map((o) => (
        <div key={o.id} className="card">
          {o.kind === "localize" ? (
            <LocalizeOp op={o} on={props.editFields.find((f) => `${f.id}.localized` === o.id)?.localized === true} />
          ) : (
            <h3>
              {o.from.namespace}: {o.from.type} → {o.to?.type ?? "removed"}
            </h3>
          )}
          {o.counts && o.kind !== "localize" && (
            <ul aria-label={`Values of ${o.from.namespace}`}>
              <li>{o.counts.values} values</li>
              <li>{o.counts.convert} convert</li>
              <li>{o.counts.loseDetail} lose detail</li>
              <li>{o.counts.fail} fail</li>
            </ul>
          )}
          <div className="field">
            <label htmlFor={`choice-${o.id}`}>What to do with {o.from.namespace}</label>
            <select id={`choice-${o.id}`} value={choices[o.id]} onChange={(e) => setChoices({ ...choices, [o.id]: e.target.value as Choice })}>
              {o.choices.map((c) => (
                <option key={c} value={c}>
                  {CHOICE_WORDS[c] ?? c}
                </option>
              ))}
            </select>
          </div>
          {stops(o) && (
            <div className="field">
              <label htmlFor={`fail-${o.id}`}>If a value of {o.from.namespace} cannot convert</label>
              <select
                id={`fail-${o.id}`}
                value={onFailure[o.id] ?? "clear"}
                onChange={(e) => setOnFailure({ ...onFailure, [o.id]: e.target.value as "clear" | "stop" })}
              >
                <option value="clear">Empty it and list it</option>
                <option value="stop">Stop the change and list it</option>
              </select>
            </div>
          )}
        </div>
      ))}
      {apply.error && <Refusal error={apply.error} />}
      <div className="toolbar">
        <button type="button" className="btn btn-primary" disabled={apply.isPending} onClick={() => apply.mutate()}>
          Apply
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
