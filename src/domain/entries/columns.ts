// The columns of a model's entry list: every field of the model and the system columns (`$id`,
// `$status`, the three times, `$lastEditedBy`, `$tags`), each with what the list can do with it
// (sort, the `where` operators of its kind). Saved views and the export name columns by these
// keys: a field by its namespace, a system column with a `$`.
import type { Model } from "../models/catalog.ts";
import { TEXT_TYPES, itemType, type FieldDef } from "../models/fields.ts";
import { fieldKind, OPS } from "../reads/filter-ops.ts";

export interface Column {
  key: string;
  label: string;
  /** A field's type (`array` with its item type in `of`), or the system column's kind. */
  kind: string;
  of: string | null;
  system: boolean;
  sortable: boolean;
  /** The `where` operators the column takes; empty when it cannot be filtered. */
  operators: string[];
  fieldId: string | null;
}

const SORTABLE = new Set([...TEXT_TYPES, "number", "true_false", "date"]);

/** The system columns, in the order the list offers them. */
export const SYSTEM_COLUMNS: Column[] = [
  { key: "$id", label: "ID", kind: "id", of: null, system: true, sortable: true, operators: OPS.id, fieldId: null },
  { key: "$status", label: "Status", kind: "status", of: null, system: true, sortable: false, operators: OPS.string, fieldId: null },
  { key: "$createdAt", label: "Created", kind: "datetime", of: null, system: true, sortable: true, operators: OPS.sysDatetime, fieldId: null },
  { key: "$updatedAt", label: "Updated", kind: "datetime", of: null, system: true, sortable: true, operators: OPS.sysDatetime, fieldId: null },
  { key: "$publishedAt", label: "Published", kind: "datetime", of: null, system: true, sortable: true, operators: OPS.sysDatetime, fieldId: null },
  { key: "$lastEditedBy", label: "Last edited by", kind: "editor", of: null, system: true, sortable: false, operators: [], fieldId: null },
  { key: "$tags", label: "Tags", kind: "tags", of: null, system: true, sortable: false, operators: OPS.tags, fieldId: null },
];

function fieldColumn(f: FieldDef): Column {
  return {
    key: f.namespace,
    label: f.label || f.namespace,
    kind: f.type,
    of: f.type === "array" ? f.arrayType : null,
    system: false,
    sortable: f.type !== "array" && SORTABLE.has(itemType(f)),
    operators: OPS[fieldKind(f, () => true)],
    fieldId: f.id,
  };
}

/** Every column of a model: its fields in order, then the system columns. */
export function columnsOf(m: Model): Column[] {
  return [...m.fields.map(fieldColumn), ...SYSTEM_COLUMNS];
}

/** The column of a key, or null when the model has none (a field removed or renamed). */
export function columnOf(m: Model, key: string): Column | null {
  if (key.startsWith("$")) return SYSTEM_COLUMNS.find((c) => c.key === key) ?? null;
  const f = m.fields.find((x) => x.namespace === key);
  return f ? fieldColumn(f) : null;
}

/** The columns an export shows when none are chosen: the id, every field, then status, updated and who. */
export function defaultColumns(m: Model): Column[] {
  const sys = (k: string) => SYSTEM_COLUMNS.find((c) => c.key === k)!;
  return [sys("$id"), ...m.fields.map(fieldColumn), sys("$status"), sys("$updatedAt"), sys("$lastEditedBy")];
}
