// Filters of an entry list by field, as chips over the /api where grammar (docs/reads.md): each
// chip is one operator on one column (`{ "price": { "gte": 10 } }`), with the operators the
// column's kind takes (GET /v2/model-instances/columns) said in words. A where the chips cannot
// show (and, or, not) is kept whole as one "custom filter". Pure functions, unit-tested beside.
import type { ListColumn } from "../../api/entry-lists.ts";

/** One operator on one column. */
export interface Filter {
  key: string;
  op: string;
  value: unknown;
}

const ALL_OPS = new Set([
  "eq",
  "ne",
  "in",
  "nin",
  "contains",
  "startsWith",
  "endsWith",
  "lt",
  "lte",
  "gt",
  "gte",
  "exists",
  "null",
  "has",
  "hasAny",
  "hasAll",
  "id",
]);
const LOGIC = new Set(["and", "or", "not"]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The chips of a where, and what of it is not chips (kept and sent as it is). */
export function filtersOf(where: Record<string, unknown> | null): { filters: Filter[]; custom: Record<string, unknown> | null } {
  const filters: Filter[] = [];
  const custom: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(where ?? {})) {
    if (LOGIC.has(key)) custom[key] = v;
    else if (isObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((op) => ALL_OPS.has(op)))
      for (const [op, value] of Object.entries(v)) filters.push({ key, op, value });
    // A bare value is the grammar's short form of eq (or has, on a list).
    else if (!isObject(v)) filters.push({ key, op: "eq", value: v });
    else custom[key] = v;
  }
  return { filters, custom: Object.keys(custom).length > 0 ? custom : null };
}

/** The where of some chips and the custom part; null when there is no filter. */
export function whereOf(filters: Filter[], custom: Record<string, unknown> | null): Record<string, unknown> | null {
  const out: Record<string, unknown> = { ...(custom ?? {}) };
  for (const f of filters) out[f.key] = { ...(isObject(out[f.key]) ? (out[f.key] as Record<string, unknown>) : {}), [f.op]: f.value };
  return Object.keys(out).length > 0 ? out : null;
}

/** The kind of value a column's filter takes. */
export type ValueKind = "text" | "number" | "boolean" | "date" | "choice" | "id";

/** The kind of one value of a column (a list's items for list columns). */
export function valueKindOf(c: Pick<ListColumn, "kind" | "of">): ValueKind {
  const k = c.kind === "array" ? (c.of ?? "string") : c.kind;
  if (k === "number") return "number";
  if (k === "true_false") return "boolean";
  if (k === "date" || k === "datetime") return "date";
  if (k === "enum") return "choice";
  if (k === "relation" || k === "id") return "id";
  return "text";
}

const TIME_WORDS: Record<string, string> = { lt: "is before", lte: "is on or before", gt: "is after", gte: "is on or after" };
const WORDS: Record<string, string> = {
  eq: "is",
  ne: "is not",
  in: "is one of",
  nin: "is none of",
  contains: "contains",
  startsWith: "starts with",
  endsWith: "ends with",
  lt: "is less than",
  lte: "is at most",
  gt: "is more than",
  gte: "is at least",
  exists: "is set",
  null: "is empty",
  has: "includes",
  hasAny: "includes any of",
  hasAll: "includes all of",
  id: "is the file",
};

/** An operator in words, for a column of `kind`. */
export function opWords(op: string, kind: ValueKind): string {
  return (kind === "date" && TIME_WORDS[op]) || WORDS[op] || op;
}

/** Whether an operator takes no value (it is set or empty), or a list of values. */
export function opTakes(op: string): "nothing" | "list" | "one" {
  if (op === "exists" || op === "null") return "nothing";
  return op === "in" || op === "nin" || op === "hasAny" || op === "hasAll" ? "list" : "one";
}

/** One value as typed, read as the column's kind, or the reason it cannot be. */
function scalar(kind: ValueKind, text: string): { value: unknown } | { error: string } {
  const t = text.trim();
  if (t === "") return { error: "Type a value to filter by." };
  switch (kind) {
    case "number": {
      const n = Number(t);
      return Number.isFinite(n) ? { value: n } : { error: `“${t}” is not a number.` };
    }
    case "boolean":
      return t === "true" || t === "false" ? { value: t === "true" } : { error: "Choose Yes or No." };
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(t) ? { value: t } : { error: "Choose a date." };
    default:
      return { value: t };
  }
}

/** The value of a filter from what was typed or chosen (lists comma-separated). */
export function parseValue(kind: ValueKind, op: string, text: string): { value: unknown } | { error: string } {
  const takes = opTakes(op);
  if (takes === "nothing") return { value: true };
  if (takes === "one") return scalar(kind, text);
  const values: unknown[] = [];
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const one = scalar(kind, part);
    if ("error" in one) return one;
    values.push(one.value);
  }
  return values.length > 0 ? { value: values } : { error: "Type one or more values, separated by commas." };
}

/** A value in words: text in quotes, yes or no, lists joined. */
export function valueWords(v: unknown): string {
  if (Array.isArray(v)) return v.map(valueWords).join(", ");
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string") return `“${v}”`;
  return JSON.stringify(v);
}

/** A chip's words: `Title contains “note”`, `Price is at least 10`, `Cover is set`. */
export function chipWords(f: Filter, column: Pick<ListColumn, "label" | "kind" | "of"> | undefined): string {
  const kind = column ? valueKindOf(column) : "text";
  const label = column?.label ?? f.key;
  // `exists: false` and `null: false` say the opposite of their names.
  if (f.op === "exists" || f.op === "null") return `${label} ${(f.op === "exists") === (f.value !== false) ? "is set" : "is empty"}`;
  return `${label} ${opWords(f.op, kind)} ${valueWords(f.value)}`;
}
