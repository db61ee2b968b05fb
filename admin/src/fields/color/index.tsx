// A `color` field: the browser's colour picker, and the value as text beside it.
import { type FieldKind, aria } from "../types.ts";

export const colorKind: FieldKind = {
  Input: (p) => {
    const v = typeof p.value === "string" ? p.value : "";
    return (
      <div className="row">
        <input type="color" {...aria(p)} value={/^#[0-9a-f]{6}$/i.test(v) ? v : "#000000"} onChange={(e) => p.onChange(e.target.value)} />
        <span className="mono">{v || "None"}</span>
      </div>
    );
  },
  Cell: ({ value }) =>
    typeof value === "string" ? (
      <span className="row">
        <span className="swatch" data-color={value} aria-hidden="true" />
        {value}
      </span>
    ) : (
      "—"
    ),
  settings: ["unique", "default", "help", "pattern"],
  empty: () => null,
  labelling: "for",
};
