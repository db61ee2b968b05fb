// The SQL of one operator on one expression: the value checked and bound as a parameter (never
// inlined), lists read through json_each, and system timestamps compared on their stored
// millisecond form.
import { instantKey, isDateValue, isUuid, type FieldDef } from "../models/fields.ts";
import type { FilterContext } from "./filter.ts";
import { fail } from "../../errors.ts";
import { itemType, MEDIA_TYPES, TEXT_TYPES } from "../models/fields.ts";
import { listSource } from "./names.ts";

const RANGE: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

/** A value checked against the kind and op, in the form the SQL compares (dates as instant keys, booleans as 0/1). */
function scalar(kind: Kind, v: unknown, key: string, op: string): unknown {
  const bad = (what: string) => valueError(`The operator ${op} on "${key}" takes ${what}; got ${JSON.stringify(v)?.slice(0, 60)}.`);
  switch (kind) {
    case "string":
    case "stringList":
    case "tags":
    case "locales":
      if (typeof v !== "string") bad("text");
      return v;
    case "float":
    case "floatList":
      if (typeof v !== "number" || !Number.isFinite(v)) bad("a number");
      return v;
    case "boolean":
    case "booleanList":
      if (typeof v !== "boolean") bad("true or false");
      return v ? 1 : 0;
    case "datetime":
    case "datetimeList":
    case "sysDatetime":
      // A date-time without a zone is read as UTC, as a date alone is (interface.md, DateTimeFilter).
      if (!isDateValue(v) && !isDateValue(`${v}Z`)) bad("a date (YYYY-MM-DD) or an ISO 8601 date-time (UTC when it has no zone)");
      return instantKey(isDateValue(v) ? v : `${v}Z`);
    case "relation":
    case "relationId":
    case "relationList":
    case "relationIdList":
    case "id":
      if (!isUuid(v)) bad("an entry id (UUID)");
      return (v as string).toLowerCase();
    case "media":
      if (typeof v !== "string") bad("a media id");
      return v;
    default:
      return bad("a value");
  }
}

function list(kind: Kind, v: unknown, key: string, op: string): unknown[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > 100) valueError(`The operator ${op} on "${key}" takes a list of 1 to 100 values.`);
  return v.map((x) => scalar(kind, x, key, op));
}

/**
 * System timestamps are stored with milliseconds (…00.000Z) while filter values are normalised
 * to microseconds; compare on the millisecond form, exact for values with no sub-millisecond part.
 */
function sysTime(expr: string, op: string, v6: string, params: unknown[]): string {
  const ms = `${v6.slice(0, 23)}Z`;
  const exact = v6.slice(23, 26) === "000";
  params.push(ms);
  if (exact) return op === "eq" ? `${expr} = ?` : op === "ne" ? `(${expr} IS NULL OR ${expr} <> ?)` : `${expr} ${RANGE[op]} ?`;
  switch (op) {
    case "eq":
      params.pop();
      return "0";
    case "ne":
      params.pop();
      return "1";
    case "lt":
    case "lte":
      return `${expr} <= ?`;
    default:
      return `${expr} > ?`;
  }
}
/** The condition of one operator with its value on `expr`. */
export function opCondition(ctx: FilterContext, kind: Kind, expr: string, op: string, v: unknown, key: string, alias: string, f: FieldDef | null): string {
  const p = ctx.params;
  if (op === "exists" || op === "null") {
    if (typeof v !== "boolean") valueError(`The operator ${op} on "${key}" takes true or false.`);
    if (kind === "tags") {
      const some = `json_array_length(${expr}) > 0`;
      return (op === "exists") === v ? some : `NOT (${some})`;
    }
    const present = `${expr} IS NOT NULL`;
    return (op === "exists") === v ? present : `${expr} IS NULL`;
  }
  const isList = kind.endsWith("List") || kind === "tags" || kind === "locales";
  if (isList) {
    const src = kind === "tags" || kind === "locales" ? expr : listSource(ctx.vis, alias, f!, ctx.loc?.chain ?? null);
    const member = "j.value";
    if (op === "has") {
      p.push(scalar(kind, v, key, op));
      return `EXISTS (SELECT 1 FROM json_each(${src}) j WHERE ${member} = ?)`;
    }
    const vals = list(kind, v, key, op);
    p.push(JSON.stringify(vals));
    if (op === "hasAny") return `EXISTS (SELECT 1 FROM json_each(${src}) j WHERE ${member} IN (SELECT value FROM json_each(?)))`;
    // hasAll: every wanted value is among the list's values.
    return `NOT EXISTS (SELECT 1 FROM json_each(?) w WHERE w.value NOT IN (SELECT ${member} FROM json_each(${src}) j))`;
  }
  if (kind === "media") {
    p.push(scalar(kind, v, key, op));
    return `json_extract(${listSource(ctx.vis, alias, f!, ctx.loc?.chain ?? null)}, '$.id') = ?`;
  }
  if (op === "in" || op === "nin") {
    const vals = list(kind, v, key, op);
    p.push(JSON.stringify(vals));
    const inList = `${expr} IN (SELECT value FROM json_each(?))`;
    return op === "in" ? inList : `(${expr} IS NULL OR NOT (${inList}))`;
  }
  if (kind === "sysDatetime") return sysTime(expr, op, scalar(kind, v, key, op) as string, p);
  const val = scalar(kind, v, key, op);
  switch (op) {
    case "eq":
      p.push(val);
      // `+?`, not `?`: an equality of an indexed expression with a bare parameter cost SQLite 5-14 us
      // more on every run of the prepared statement than the same statement with a literal (about
      // what preparing it costs; docs/performance.md); `+?` is the same value and the same
      // comparison (a parameter has no affinity either way) and seeks the same index.
      return `${expr} = +?`;
    case "ne":
      p.push(val);
      return `(${expr} IS NULL OR ${expr} <> ?)`;
    case "contains":
      p.push(val);
      return `instr(${expr}, ?) > 0`;
    case "startsWith":
      p.push(val, val);
      return `substr(${expr}, 1, length(?)) = ?`;
    case "endsWith":
      p.push(val, val, val);
      return `(length(${expr}) >= length(?) AND substr(${expr}, length(${expr}) - length(?) + 1) = ?)`;
    default:
      p.push(val);
      return `${expr} ${RANGE[op]} ?`;
  }
}

// Below, what a `where` may say of each field: its filter kind (interface.md's field table), the
// operators each kind takes, and the two refusals every part of the compiler uses:
// invalid_where for the shape of the object, invalid_filter_value for a value.
const WHERE_HINT = 'Example: where={"title":{"contains":"news"},"price":{"gte":10}}';
const VALUE_HINT = 'Example: where={"price":{"gte":10}}; null, {} and an empty not are refused';

/** The shape of the where object is wrong (unknown operator, too deep, a second hop). */
export function whereError(message: string): never {
  fail("invalid_where", { message, param: "where", hint: WHERE_HINT });
}

/** A value is wrong (null, empty, the wrong type). */
export function valueError(message: string): never {
  fail("invalid_filter_value", { message, param: "where", hint: VALUE_HINT });
}

/** The filter kinds of interface.md's field table. */
export type Kind =
  | "string"
  | "float"
  | "boolean"
  | "datetime"
  | "stringList"
  | "floatList"
  | "booleanList"
  | "datetimeList"
  | "relation"
  | "relationList"
  | "relationId"
  | "relationIdList"
  | "media"
  | "presence"
  | "json"
  | "id"
  | "tags"
  | "locales"
  | "sysDatetime";

/** The operators each kind takes. */
export const OPS: Record<Kind, string[]> = {
  string: ["eq", "ne", "in", "nin", "contains", "startsWith", "endsWith", "exists", "null"],
  float: ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "exists", "null"],
  boolean: ["eq", "ne", "exists", "null"],
  datetime: ["eq", "ne", "lt", "lte", "gt", "gte", "exists", "null"],
  sysDatetime: ["eq", "ne", "lt", "lte", "gt", "gte", "exists", "null"],
  stringList: ["has", "hasAny", "hasAll", "exists", "null"],
  floatList: ["has", "hasAny", "hasAll", "exists", "null"],
  booleanList: ["has", "hasAny", "hasAll", "exists", "null"],
  datetimeList: ["has", "hasAny", "hasAll", "exists", "null"],
  tags: ["has", "hasAny", "hasAll", "exists", "null"],
  // `$locales` (decisions.md 13): list operators only.
  locales: ["has", "hasAny", "hasAll"],
  relation: ["eq", "ne", "in", "nin", "exists", "null"],
  relationId: ["eq", "ne", "in", "nin", "exists", "null"],
  relationList: ["has", "hasAny", "hasAll", "exists", "null"],
  relationIdList: ["has", "hasAny", "hasAll", "exists", "null"],
  media: ["exists", "null", "id"],
  presence: ["exists", "null"],
  json: ["exists", "null"],
  id: ["eq", "ne", "in", "nin"],
};

/** The filter kind of a customer field, given whether its relation target is readable. */
export function fieldKind(f: FieldDef, readable: (modelId: string) => boolean): Kind {
  const t = itemType(f);
  if (f.type === "array") {
    if (t === "relation") return readable(f.relation!) ? "relationList" : "relationIdList";
    if (t === "number") return "floatList";
    if (t === "true_false") return "booleanList";
    if (t === "date") return "datetimeList";
    if (MEDIA_TYPES.has(t) || t === "mixed") return "presence";
    return "stringList";
  }
  if (t === "relation") return readable(f.relation!) ? "relation" : "relationId";
  if (t === "number") return "float";
  if (t === "true_false") return "boolean";
  if (t === "date") return "datetime";
  if (MEDIA_TYPES.has(t)) return "media";
  if (t === "mixed") return "json";
  if (TEXT_TYPES.has(t)) return "string";
  return "json";
}
