// A `number` field: a number input whose arrows step by one within the field's min and max.
// (React leaves a number input's text alone while it reads as the same number, so "1." or a lone
// "-" being typed is not thrown away.)
import { type FieldKind, aria, shortText } from "../types.ts";

export const numberKind: FieldKind = {
  Input: (p) => (
    <input
      type="number"
      step="any"
      inputMode="decimal"
      min={p.field.min ?? undefined}
      max={p.field.max ?? undefined}
      {...aria(p)}
      value={typeof p.value === "number" ? String(p.value) : ""}
      onChange={(e) => p.onChange(e.target.value === "" ? null : Number(e.target.value))}
    />
  ),
  Cell: ({ value }) => (typeof value === "number" ? value.toLocaleString("en") : shortText(value)),
  settings: ["unique", "min", "max", "default", "help"],
  empty: () => null,
  labelling: "for",
};
