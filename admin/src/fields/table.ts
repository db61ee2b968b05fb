// The field-kind table (issue 26 item 4): each kind of field maps to its folder, which holds its
// input, its cell, its settings and its empty value. Forms, cells and the model's field form all
// pick from here; nothing else knows the kinds one by one.
import type { Field, FieldType } from "../api/types.ts";
import { arrayKindOf } from "./array/index.tsx";
import { codeKind } from "./code/index.tsx";
import { colorKind } from "./color/index.tsx";
import { dateKind } from "./date/index.tsx";
import { enumKind } from "./enum/index.tsx";
import { htmlKind } from "./html/index.tsx";
import { markdownKind } from "./markdown/index.tsx";
import { mediaKind } from "./media/index.tsx";
import { mixedKind } from "./mixed/index.tsx";
import { numberKind } from "./number/index.tsx";
import { relationKind } from "./relation/index.tsx";
import { stringKind } from "./string/index.tsx";
import { trueFalseKind } from "./true-false/index.tsx";
import type { FieldKind } from "./types.ts";

const ITEM_KINDS: Record<Exclude<FieldType, "array">, FieldKind> = {
  string: stringKind,
  markdown: markdownKind,
  html: htmlKind,
  code: codeKind,
  mixed: mixedKind,
  enum: enumKind,
  color: colorKind,
  number: numberKind,
  true_false: trueFalseKind,
  date: dateKind,
  relation: relationKind,
  image: mediaKind,
  video: mediaKind,
  file: mediaKind,
};

/** Every field kind. */
export const FIELD_KINDS: Record<FieldType, FieldKind> = { ...ITEM_KINDS, array: arrayKindOf(() => ITEM_KINDS) };

/** The kind of a field. */
export function kindOf(f: Pick<Field, "type">): FieldKind {
  return FIELD_KINDS[f.type];
}

/** How a field's label names its input: a `<label for>` or a group's name. */
export function labellingOf(f: Field): "for" | "group" {
  const l = kindOf(f).labelling;
  return typeof l === "function" ? l(f) : l;
}

/** The value a new entry starts with for a field: its default (decisions.md 15), else the kind's empty value. */
export function startValue(f: Field): unknown {
  return f.default !== undefined && f.default !== null ? f.default : kindOf(f).empty(f);
}
