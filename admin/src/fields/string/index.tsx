// A `string` field: one line of text; its cell is the text cut short.
import { type FieldKind, TEXT_SETTINGS, aria, shortText } from "../types.ts";

export const stringKind: FieldKind = {
  Input: (p) => <input type="text" {...aria(p)} value={typeof p.value === "string" ? p.value : ""} onChange={(e) => p.onChange(e.target.value)} />,
  Cell: ({ value }) => shortText(value),
  settings: [...TEXT_SETTINGS, "slug"],
  empty: () => "",
  labelling: "for",
  counts: true,
};
