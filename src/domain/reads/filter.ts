// Compiling a `where` object (the same shape as the GraphQL `filter`) into SQL over the entries
// table. Every value is a bound parameter; only model and field ids (our own UUIDs) are inlined,
// so partial expression indexes of one model can match.
// Beside it: filter-ops.ts (the kinds, their operators, the refusals, and the SQL of one
// operator).
import { fail } from "../../errors.ts";
import type { Model } from "../models/catalog.ts";
import { itemType, type FieldDef } from "../models/fields.ts";
import { fieldKind, type Kind, OPS, opCondition, valueError, whereError } from "./filter-ops.ts";
import { type Vis, fieldExpr, listSource, resolveName, type Resolved, systemExpr } from "./names.ts";
import { localeFor, oneLocaleFor, localePublishedAtExpr, localesListExpr, localeStatusExpr, type ReadLocale, visibleIn } from "./locale.ts";

export interface FilterContext {
  models: { byId: Map<string, Model> };
  vis: Vis;
  readable: (modelId: string) => boolean;
  params: unknown[];
  /** Customer fields used by range or equality filters, to index lazily. */
  used: { model: Model; field: FieldDef }[];
  /** The read's locale: a localized field compares its value after fallback along the chain. */
  loc?: ReadLocale;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** How deep `and`, `or`, `not` and a hop may nest: deeper SQL would pass SQLite's expression depth. */
const MAX_WHERE_DEPTH = 32;

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

/** The condition of one key: a field, a `$` system key, or a hop written `relation.field`. */
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
    const kind: Kind = k === "id" ? "id" : k === "tags" ? "tags" : k === "locales" ? "locales" : k === "status" ? "string" : "sysDatetime";
    // A localized model's status and publishedAt are the locale read's (locale.ts).
    const mloc = oneLocaleFor(ctx.loc, m);
    let expr: string;
    if (k === "status") expr = mloc ? localeStatusExpr(ctx.vis, alias, mloc, statusExpr(alias)) : statusExpr(alias);
    else if (k === "locales") expr = localesListExpr(ctx.vis, alias);
    else if (k === "publishedAt" && mloc) expr = localePublishedAtExpr(alias, mloc);
    else expr = systemExpr(ctx.vis, alias, k);
    return ops(ctx, kind, expr, value, key, alias, null);
  }
  const f = r.field;
  const kind = fieldKind(f, ctx.readable);
  return ops(ctx, kind, fieldExpr(ctx.vis, alias, f, chainOf(ctx)), value, key, alias, f, m, allowHop, depth);
}

/** The chain a localized field of this read falls back along (null without locales). */
function chainOf(ctx: FilterContext): string[] | null {
  return ctx.loc?.chain ?? null;
}

/** An entry's status from its columns; the same for every key's view (a draft is a draft to all). */
function statusExpr(a: string): string {
  return `(CASE WHEN ${a}.published_version_id IS NULL THEN 'draft' WHEN ${a}.published_version = ${a}.draft_version THEN 'published' ELSE 'changed' END)`;
}

/** A relation hop: the related entry (visible to this key, in a readable model) matches `sub`. */
function hop(ctx: FilterContext, f: FieldDef, sub: unknown, alias: string, key: string, depth: number): string {
  if (!ctx.readable(f.relation!)) fail("unknown_field", { message: `"${key}" hops into a model this key cannot read.`, param: "where" });
  const target = ctx.models.byId.get(f.relation!);
  if (!target) fail("unknown_field", { message: `"${key}" hops into a model that no longer exists.`, param: "where" });
  const t = alias === "e" ? "t" : `${alias}t`;
  const cond = compileWhere(ctx, target, sub, t, false, depth + 1);
  const inner = `SELECT ${t}.id FROM entries ${t} WHERE ${t}.model_id = '${target.id}' AND ${visibleIn(ctx.vis, t, localeFor(ctx.loc, target))} AND ${cond}`;
  if (f.type === "array") return `EXISTS (SELECT 1 FROM json_each(${listSource(ctx.vis, alias, f, chainOf(ctx))}) j WHERE j.value IN (${inner}))`;
  return `${fieldExpr(ctx.vis, alias, f, chainOf(ctx))} IN (${inner})`;
}

/** The conditions of one key's operators (a bare value is eq, or has for lists); on a relation, a field name in operator place is a hop. */
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
    parts.push(opCondition(ctx, kind, expr, op, v, key, alias, f));
    if (f && m && ["eq", "lt", "lte", "gt", "gte", "in"].includes(op) && ["string", "float", "boolean", "datetime"].includes(kind)) {
      ctx.used.push({ model: m, field: f });
    }
  }
  return parts.join(" AND ");
}
