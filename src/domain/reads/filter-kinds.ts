// What a `where` may say of each field: its filter kind (interface.md's field table), the
// operators each kind takes, and the two refusals every part of the compiler uses:
// invalid_where for the shape of the object, invalid_filter_value for a value.
import { fail } from "../../errors.ts";
import { itemType, MEDIA_TYPES, TEXT_TYPES, type FieldDef } from "../models/fields.ts";

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
