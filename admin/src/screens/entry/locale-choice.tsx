// Choosing the locales a publish, unpublish or scheduled action moves (issue 28 item 8): one
// checkbox per locale, checked as the server's default would be, so pressing on at once does
// what the API does without `locales`.
import { useState } from "react";
import type { Locales } from "../../api/locales.ts";
import { Dialog } from "../../ui/dialog.tsx";

/** The checkboxes, for a dialog or the schedule form. */
export function LocaleChecks(props: { all: Locales; idPrefix: string; legend: string; value: string[]; onChange(v: string[]): void }) {
  return (
    <fieldset className="locale-checks">
      <legend>{props.legend}</legend>
      {props.all.locales.map((x) => (
        <label key={x.code}>
          <input
            type="checkbox"
            checked={props.value.includes(x.code)}
            onChange={(e) =>
              props.onChange(
                e.target.checked
                  ? props.all.locales.map((y) => y.code).filter((c) => c === x.code || props.value.includes(c))
                  : props.value.filter((c) => c !== x.code),
              )
            }
          />{" "}
          {x.name} ({x.code})
        </label>
      ))}
    </fieldset>
  );
}

/** Publish or Unpublish in chosen locales; mounted while open, so each opening starts from the default. */
export function LocaleActionDialog(props: {
  action: "publish" | "unpublish";
  all: Locales;
  initial: string[];
  onCancel(): void;
  onConfirm(locales: string[]): void;
}) {
  const [chosen, setChosen] = useState(props.initial);
  const word = props.action === "publish" ? "Publish" : "Unpublish";
  return (
    <Dialog open title={`${word} in which locales?`} onCancel={props.onCancel}>
      <div className="form-stack">
        <LocaleChecks all={props.all} idPrefix={props.action} legend={`Locales to ${props.action}`} value={chosen} onChange={setChosen} />
        {props.action === "publish" && <p className="hint">Fields shared by every locale go live with any locale's publish.</p>}
        <div className="toolbar">
          <button type="button" className="btn btn-primary" disabled={chosen.length === 0} onClick={() => props.onConfirm(chosen)}>
            {word} {chosen.length === 0 ? "" : chosen.join(", ")}
          </button>
          <button type="button" className="btn" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
