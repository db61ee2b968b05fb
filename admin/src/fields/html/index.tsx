// An `html` field: the rich text editor writing HTML, with its source view. Stored HTML is kept
// as given (a script included) and never run in the app: the editor draws only its own safe
// markup and shows active parts as their source.
import { plainExcerpt, RichTextInput } from "../rich-text/lazy.tsx";
import { type FieldKind, TEXT_SETTINGS } from "../types.ts";

export const htmlKind: FieldKind = {
  Input: (p) => <RichTextInput {...p} format="html" />,
  Cell: ({ value }) => plainExcerpt(value, "html"),
  settings: TEXT_SETTINGS,
  empty: () => "",
  labelling: "group",
  counts: true,
};
