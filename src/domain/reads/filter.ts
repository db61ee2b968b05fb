// Compiling a `where` object (the same shape as the GraphQL `filter`) into SQL over the entries
// table. Every value is a bound parameter; only model and field ids (our own UUIDs) are inlined,
// so partial expression indexes of one model can match.
import { fail } from "../../errors.ts";
import type { Model } from "../models/catalog.ts";
import { instantKey, isDateValue, isUuid, itemType, MEDIA_TYPES, TEXT_TYPES, type FieldDef } from "../models/fields.ts";
import { type Vis, fieldExpr, listSource, resolveName, type Resolved, systemExpr } from "./names.ts";

const WHERE_HINT = 'Example: where={"title":{"contains":"news"},"price":{"gte":10}}';
const VALUE_HINT = 'Example: where={"price":{"gte":10}}; null, {} and an empty not are refused';

function whereError(message: string): never {
  fail("invalid_where", { message, param: "where", hint: WHERE_HINT });
}
function valueError(message: string): never {
  fail("invalid_filter_value", { message, param: "where", hint: VALUE_HINT });
}

/** The filter kinds of interface.md's field table. */
type Kind =
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
  | "sysDatetime";

const OPS: Record<Kind, string[]> = {
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

export interface FilterContext {
  models: { byId: Map<string, Model> };
  vis: Vis;
  readable: (modelId: string) => boolean;
  params: unknown[];
  /** Customer fields used by range or equality filters, to index lazily. */
  used: { model: Model; field: FieldDef }[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** How deep `and`, `or`, `not` and a hop may nest: deeper SQL would pass SQLite's expression depth. */
export const MAX_WHERE_DEPTH = 32;

/** Joins conditions as a balanced tree, so a long list stays well within SQLite's expression depth. */
function joinTree(parts: string[], op: " AND " | " OR "): string {
  if (parts.length === 1) return parts[0]!;
  const mid = parts.length >> 1;
  return `(${joinTree(parts.slice(0, mid), op)})${op}(${joinTree(parts.slice(mid), op)})`;
}

/** Compiles a whole `where` object against a model; `alias` is the table alias (`e`). */
export function compileWhere(ctx: FilterContext, m: Model, where: unknown, alias: string, allowHop = true, depth = 0): string {
  if (!isPlainObject(where)) whereError("where must be a JSON object.");
  if (depth > MAX_WHERE_DEPTH) whereError(`where nests and, or, not and hops at most ${MAX_WHERE_DEPTH} levels deep.`);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === "and" || key === "or") {
      if (!Array.isArray(value) || value.length === 0) valueError(`${key} must be a non-empty list of filter objects.`);
      const subs = value.map((v) => {
        if (!isPlainObject(v) || Object.keys(v).length === 0) valueError(`Each item of ${key} must be a non-empty filter object.`);
        return `(${compileWhere(ctx, m, v, alias, allowHop, depth + 1)})`;
      });
      parts.push(`(${joinTree(subs, key === "and" ? " AND " : " OR ")})`);
      continue;
    }
    if (key === "not") {
      if (!isPlainObject(value) || Object.keys(value).length === 0) valueError("not must be a non-empty filter object.");
      // A comparison with an absent value is SQL NULL, which means "does not match"; NOT must
      // then match, so the inner condition is made 0 before it is negated.
      parts.push(`NOT COALESCE((${compileWhere(ctx, m, value, alias, allowHop, depth + 1)}), 0)`);
      continue;
    }
    parts.push(compileKey(ctx, m, key, value, alias, allowHop, depth));
  }
  return parts.length ? joinTree(parts, " AND ") : "1";
}

function compileKey(ctx: FilterContext, m: Model, key: string, value: unknown, alias: string, allowHop: boolean, depth: number): string {
  const r: Resolved | null = resolveName(m, key.startsWith("$") ? key.slice(1) : key, key.startsWith("$"));
  if (!r && !key.startsWith("$") && key.includes(".")) {
    // A hop: "author.name" compares the related entry's field.
    const dot = key.indexOf(".");
    const rel = resolveName(m, key.slice(0, dot), false);
    if (rel && rel.kind === "field" && itemType(rel.field).valueOf() === "relation") {
      if (!allowHop) whereError(`where hops at most once into a relation: "${key}".`);
      return hop(ctx, rel.field, { [key.slice(dot + 1)]: value }, alias, key, depth);
    }
  }
  if (!r)
    fail("unknown_field", {
      message: `The model ${m.namespace} has no field "${key}".`,
      param: "where",
      hint: 'Example: where={"title":{"eq":"x"}}; system keys take a $: {"$createdAt":{"gt":"2026-01-01"}}',
    });
  if (r.kind === "system") {
    const k = r.key;
    if (k === "version" || k === "folder" || k === "model") whereError(`${k} cannot be filtered.`);
    const kind: Kind = k === "id" ? "id" : k === "tags" ? "tags" : k === "status" ? "string" : "sysDatetime";
    const expr = k === "status" ? statusExpr(ctx.vis, alias) : systemExpr(ctx.vis, alias, k);
    return ops(ctx, kind, expr, value, key, alias, null);
  }
  const f = r.field;
  const kind = fieldKind(f, ctx.readable);
  return ops(ctx, kind, fieldExpr(ctx.vis, alias, f), value, key, alias, f, m, allowHop, depth);
}

function statusExpr(_v: Vis, a: string): string {
  return `(CASE WHEN ${a}.published_version_id IS NULL THEN 'draft' WHEN ${a}.published_version = ${a}.draft_version THEN 'published' ELSE 'changed' END)`;
}

/** A relation hop: the related entry (visible to this key, in a readable model) matches `sub`. */
function hop(ctx: FilterContext, f: FieldDef, sub: unknown, alias: string, key: string, depth: number): string {
  if (!ctx.readable(f.relation!)) fail("unknown_field", { message: `"${key}" hops into a model this key cannot read.`, param: "where" });
  const target = ctx.models.byId.get(f.relation!);
  if (!target) fail("unknown_field", { message: `"${key}" hops into a model that no longer exists.`, param: "where" });
  const t = alias === "e" ? "t" : `${alias}t`;
  const cond = compileWhere(ctx, target, sub, t, false, depth + 1);
  const inner = `SELECT ${t}.id FROM entries ${t} WHERE ${t}.model_id = '${target.id}' AND ${ctx.vis.visible(t)} AND ${cond}`;
  if (f.type === "array") return `EXISTS (SELECT 1 FROM json_each(${listSource(ctx.vis, alias, f)}) j WHERE j.value IN (${inner}))`;
  return `${fieldExpr(ctx.vis, alias, f)} IN (${inner})`;
}

const RANGE: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

function ops(
  ctx: FilterContext,
  kind: Kind,
  expr: string,
  value: unknown,
  key: string,
  alias: string,
  f: FieldDef | null,
  m?: Model,
  allowHop = false,
  depth = 0,
): string {
  // A bare value means eq (has for lists); a bare null is refused.
  if (value === null) valueError(`The filter on "${key}" is null; leave the key out or use {"null": true}.`);
  const obj: Record<string, unknown> = isPlainObject(value) ? value : { [OPS[kind].includes("eq") ? "eq" : "has"]: value };
  const entries = Object.entries(obj);
  if (entries.length === 0) valueError(`The filter on "${key}" has no operator.`);
  const parts: string[] = [];
  for (const [op, v] of entries) {
    if (!OPS[kind].includes(op)) {
      if ((kind === "relation" || kind === "relationList") && f) {
        // {"author": {"name": ...}} is the hop "author.name"; inside a hop it would be a second one.
        if (!allowHop) whereError(`where hops at most once into a relation: "${key}.${op}".`);
        parts.push(hop(ctx, f, { [op]: v }, alias, `${key}.${op}`, depth));
        continue;
      }
      whereError(`The operator ${op} does not apply to "${key}"; it takes ${OPS[kind].join(", ")}.`);
    }
    if (v === null || v === undefined) valueError(`The operator ${op} on "${key}" has no value.`);
    parts.push(one(ctx, kind, expr, op, v, key, alias, f));
    if (f && m && ["eq", "lt", "lte", "gt", "gte", "in"].includes(op) && ["string", "float", "boolean", "datetime"].includes(kind)) {
      ctx.used.push({ model: m, field: f });
    }
  }
  return parts.join(" AND ");
}

function scalar(kind: Kind, v: unknown, key: string, op: string): unknown {
  const bad = (what: string) => valueError(`The operator ${op} on "${key}" takes ${what}; got ${JSON.stringify(v)?.slice(0, 60)}.`);
  switch (kind) {
    case "string":
    case "stringList":
    case "tags":
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

function one(ctx: FilterContext, kind: Kind, expr: string, op: string, v: unknown, key: string, alias: string, f: FieldDef | null): string {
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
  const isList = kind.endsWith("List") || kind === "tags";
  if (isList) {
    const src = kind === "tags" ? expr : listSource(ctx.vis, alias, f!);
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
    return `json_extract(${listSource(ctx.vis, alias, f!)}, '$.id') = ?`;
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
      return `${expr} = ?`;
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
