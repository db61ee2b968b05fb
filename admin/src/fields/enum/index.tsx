// An `enum` field: a select of the field's values, with None to clear it.
import { type FieldKind, aria, shortText } from "../types.ts";

export const enumKind: FieldKind = {
  Input: (p) => (
    <select {...aria(p)} value={typeof p.value === "string" ? p.value : ""} onChange={(e) => p.onChange(e.target.value || null)}>
      <option value="">None</option>
      {(p.field.options?.values ?? []).map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </select>
  ),
  Cell: ({ value }) => shortText(value),
  settings: ["unique", "default", "help"],
  empty: () => null,
  labelling: "for",
};
