// What every field kind provides (issue 26 item 4; PocketBase's and Payload's field folders): the
// input that edits a value, the cell that shows one in a list or a comparison, the settings of
// decisions.md 15 the kind takes, and the value a new entry or a new list row starts with.
import type { ReactNode } from "react";
import type { Field, LayoutField, Model } from "../api/types.ts";

/** What every input gets: the field, its value, a setter, and the ids that tie it to its label and notes. */
export interface InputProps {
  field: Field;
  value: unknown;
  onChange(v: unknown): void;
  id: string;
  labelId: string;
  /** The ids of the help text, the character count and the error, for `aria-describedby`. */
  describedBy: string | undefined;
  invalid: boolean;
  models: Model[];
  projectId: string;
  /** How the layout shows a relation field: a picker (the default), inline links, or embedded fields. */
  display?: LayoutField["display"];
}

/** What a cell gets: the field and one value. */
export interface CellProps {
  field: Field;
  value: unknown;
  models: Model[];
}

/** A setting of decisions.md 15 beside `required`. */
export type SettingName = "unique" | "min" | "max" | "minLength" | "maxLength" | "pattern" | "default" | "help" | "slug";

/** One field kind: its folder's parts. */
export interface FieldKind {
  Input(p: InputProps): ReactNode;
  Cell(p: CellProps): ReactNode;
  /** The settings the server takes for this kind (a setting that does not fit is refused). */
  settings: readonly SettingName[];
  /** The value a new entry or a new list row starts with, before its default. */
  empty(field: Field): unknown;
  /**
   * How the label names the input: `for` (a `<label for>` on one control) or `group` (the input
   * is a group, toolbar or dialog button set named by the label's id).
   */
  labelling: "for" | "group" | ((f: Field) => "for" | "group");
  /** Whether the field counts characters (text kinds). */
  counts?: boolean;
}

/** The common ARIA of a single control. */
export function aria(p: InputProps) {
  return {
    id: p.id,
    "aria-invalid": p.invalid || undefined,
    "aria-describedby": p.describedBy,
    "aria-required": p.field.required || undefined,
  };
}

/** A value in a few words, for cells and read-only display. */
export function shortText(v: unknown, max = 80): string {
  if (v === null || v === undefined || v === "") return "—";
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const TEXT_SETTINGS: readonly SettingName[] = ["unique", "minLength", "maxLength", "pattern", "default", "help"];
