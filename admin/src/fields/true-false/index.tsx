// A `true_false` field: a switch (a checkbox with the switch role), "On" or "Off" beside it.
import { type FieldKind, aria } from "../types.ts";

export const trueFalseKind: FieldKind = {
  Input: (p) => (
    <span className="switch-row">
      <input
        type="checkbox"
        role="switch"
        className="switch"
        {...aria(p)}
        aria-checked={p.value === true}
        checked={p.value === true}
        onChange={(e) => p.onChange(e.target.checked)}
      />
      <span aria-hidden="true">{p.value === true ? "On" : "Off"}</span>
    </span>
  ),
  Cell: ({ value }) => (value === true ? "Yes" : value === false ? "No" : "—"),
  settings: ["default", "help"],
  empty: () => false,
  labelling: "for",
};
