// A `markdown` field: the rich text editor writing Markdown, with its source view.
import { plainExcerpt, RichTextInput } from "../rich-text/lazy.tsx";
import { type FieldKind, TEXT_SETTINGS } from "../types.ts";

export const markdownKind: FieldKind = {
  Input: (p) => <RichTextInput {...p} format="markdown" />,
  Cell: ({ value }) => plainExcerpt(value, "markdown"),
  settings: TEXT_SETTINGS,
  empty: () => "",
  labelling: "group",
  counts: true,
};
