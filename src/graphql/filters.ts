// interface.md, GraphQL "Lists, filters, sorts" and the field-kind table: the filter input types
// (shared ones and those of each model) and the translation of a `filter` value into the REST
// `where` object. The translation only renames keys; every value check is the entries read's own.
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from "graphql";
import { itemType, MEDIA_TYPES, TEXT_TYPES, type FieldDef } from "../domain/models/fields.ts";
import { D, derived } from "./descriptions.ts";
import type { ModelNames, Naming } from "./naming.ts";
import { DateTime, EntryStatus } from "./types.ts";

const list = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));

function ops(names: string[], scalar: GraphQLInputType): GraphQLInputFieldConfigMap {
  const out: GraphQLInputFieldConfigMap = {};
  for (const n of names) {
    const type = ["in", "nin", "hasAny", "hasAll"].includes(n) ? list(scalar) : ["exists", "null"].includes(n) ? GraphQLBoolean : scalar;
    out[n] = { type, description: D.ops[n] };
  }
  return out;
}

function shared(name: string, names: string[], scalar: GraphQLInputType): GraphQLInputObjectType {
  return new GraphQLInputObjectType({ name, description: D.filters[name], fields: ops(names, scalar) });
}

const STRING_OPS = ["eq", "ne", "in", "nin", "contains", "startsWith", "endsWith", "exists", "null"];
const FLOAT_OPS = ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "exists", "null"];
const DATE_OPS = ["eq", "ne", "lt", "lte", "gt", "gte", "exists", "null"];
/** Operators of a relation (by id) and of a relation list; a hop key may not take these names. */
export const RELATION_OPS = ["eq", "ne", "in", "nin", "exists", "null"];
export const RELATION_LIST_OPS = ["has", "hasAny", "hasAll", "exists", "null"];

/** The filter inputs every schema shares, by name. */
export const SHARED = {
  IDFilter: shared("IDFilter", ["eq", "ne", "in", "nin"], GraphQLID),
  EntryStatusFilter: shared("EntryStatusFilter", ["eq", "ne", "in", "nin"], EntryStatus),
  StringFilter: shared("StringFilter", STRING_OPS, GraphQLString),
  FloatFilter: shared("FloatFilter", FLOAT_OPS, GraphQLFloat),
  BooleanFilter: shared("BooleanFilter", ["eq", "ne", "exists", "null"], GraphQLBoolean),
  DateTimeFilter: shared("DateTimeFilter", DATE_OPS, DateTime),
  StringListFilter: shared("StringListFilter", RELATION_LIST_OPS, GraphQLString),
  FloatListFilter: shared("FloatListFilter", RELATION_LIST_OPS, GraphQLFloat),
  BooleanListFilter: shared("BooleanListFilter", RELATION_LIST_OPS, GraphQLBoolean),
  DateTimeListFilter: shared("DateTimeListFilter", RELATION_LIST_OPS, DateTime),
  RelationIDFilter: shared("RelationIDFilter", RELATION_OPS, GraphQLID),
  RelationIDListFilter: shared("RelationIDListFilter", RELATION_LIST_OPS, GraphQLID),
  MediaFilter: shared("MediaFilter", ["exists", "null", "id"], GraphQLString),
  PresenceFilter: shared("PresenceFilter", ["exists", "null"], GraphQLString),
  JSONFilter: shared("JSONFilter", ["exists", "null"], GraphQLString),
};

/** How one filter key of a model maps to REST: its `where` key and, for a relation, the target. */
interface FilterKey {
  rest: string;
  /** The exposed target of a relation or relation list (its hop keys are renamed too). */
  target: ModelNames | null;
}

/** System filter keys: GraphQL name -> REST `$` name and input type. */
const SYSTEM_FILTERS: [string, string, GraphQLInputType, string][] = [
  ["id", "$id", SHARED.IDFilter, D.sys.id!],
  ["status", "$status", SHARED.EntryStatusFilter, D.sys.status!],
  ["createdAt", "$createdAt", SHARED.DateTimeFilter, D.sys.createdAt!],
  ["updatedAt", "$updatedAt", SHARED.DateTimeFilter, D.sys.updatedAt!],
  ["publishedAt", "$publishedAt", SHARED.DateTimeFilter, D.sys.publishedAt!],
  ["_tags", "$tags", SHARED.StringListFilter, `${D.sys._tags} exists: true means at least one tag; null: true means none.`],
];

/** `_locales` (decisions.md 13): the codes that hold a value (published ones, for a production key); has, hasAny and hasAll. */
const LOCALES_FILTER: [string, string, GraphQLInputType, string] = [
  "_locales",
  "$locales",
  SHARED.StringListFilter,
  `${D.sys._locales} has, hasAny and hasAll compare locale codes (exists and null are refused).`,
];

/** The filter input of a customer field when no hop is possible (a relation compares ids only). */
export function flatFilterOf(f: FieldDef): GraphQLInputType {
  const t = itemType(f);
  if (f.type === "array") {
    if (t === "relation") return SHARED.RelationIDListFilter;
    if (t === "number") return SHARED.FloatListFilter;
    if (t === "true_false") return SHARED.BooleanListFilter;
    if (t === "date") return SHARED.DateTimeListFilter;
    if (MEDIA_TYPES.has(t) || t === "mixed") return SHARED.PresenceFilter;
    return SHARED.StringListFilter;
  }
  if (t === "relation") return SHARED.RelationIDFilter;
  if (t === "number") return SHARED.FloatFilter;
  if (t === "true_false") return SHARED.BooleanFilter;
  if (t === "date") return SHARED.DateTimeFilter;
  if (MEDIA_TYPES.has(t)) return SHARED.MediaFilter;
  if (TEXT_TYPES.has(t)) return SHARED.StringFilter;
  return SHARED.JSONFilter;
}

/** The filter inputs of one model, made lazily by the schema builder. */
export interface ModelFilters {
  filter: GraphQLInputObjectType;
  relation: GraphQLInputObjectType;
  relationList: GraphQLInputObjectType;
}

/**
 * Makes the three filter inputs of a model. `of` gives the inputs of another exposed model (for
 * relation fields); `describe` gives each field's description.
 */
export function modelFilters(
  mn: ModelNames,
  naming: Naming,
  of: (target: ModelNames) => ModelFilters,
  describe: (f: FieldDef) => string,
  locales = false,
): ModelFilters {
  const customer = (hop: boolean, skip: string[]): GraphQLInputFieldConfigMap => {
    const out: GraphQLInputFieldConfigMap = {};
    for (const { field, name } of mn.fields) {
      if (skip.includes(name)) continue;
      const target = field.relation ? naming.byId.get(field.relation) : undefined;
      let type = flatFilterOf(field);
      if (hop && target) type = field.type === "array" ? of(target).relationList : of(target).relation;
      out[name] = { type, description: describe(field) };
    }
    return out;
  };
  // `_locales` (decisions.md 13) only in a schema with locales, so a one-locale project's filters stay as they were.
  const system = (skip: string[]): GraphQLInputFieldConfigMap =>
    Object.fromEntries(
      [...SYSTEM_FILTERS, ...(locales ? [LOCALES_FILTER] : [])]
        .filter(([n]) => !skip.includes(n))
        .map(([n, , type, description]) => [n, { type, description }]),
    );
  const filter: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${mn.type}Filter`,
    description: derived.filter(mn.model),
    fields: () => ({
      ...system([]),
      ...customer(true, []),
      and: { type: list(filter), description: D.filterLogic.and },
      or: { type: list(filter), description: D.filterLogic.or },
      not: { type: filter, description: D.filterLogic.not },
    }),
  });
  // A hop compares the target's own fields once; its relations compare ids only. The id is
  // compared by the operators themselves, and a field named like an operator cannot be hopped to.
  const relation = new GraphQLInputObjectType({
    name: `${mn.type}RelationFilter`,
    description: derived.relationFilter(mn.model),
    fields: () => ({ ...ops(RELATION_OPS, GraphQLID), ...system(["id", ...RELATION_OPS]), ...customer(false, RELATION_OPS) }),
  });
  const relationList = new GraphQLInputObjectType({
    name: `${mn.type}RelationListFilter`,
    description: derived.relationListFilter(mn.model),
    fields: () => ({ ...ops(RELATION_LIST_OPS, GraphQLID), ...system(["id", ...RELATION_LIST_OPS]), ...customer(false, RELATION_LIST_OPS) }),
  });
  return { filter, relation, relationList };
}

/** GraphQL filter keys of a model -> REST where keys, kept on the model's names (built once per schema). */
function keysOf(mn: ModelNames & { filterKeys?: Map<string, FilterKey> }, naming: Naming): Map<string, FilterKey> {
  let m = mn.filterKeys;
  if (!m) {
    m = new Map([...SYSTEM_FILTERS, LOCALES_FILTER].map(([n, rest]) => [n, { rest, target: null }]));
    for (const { field, name } of mn.fields) {
      m.set(name, { rest: field.namespace, target: field.relation ? (naming.byId.get(field.relation) ?? null) : null });
    }
    mn.filterKeys = m;
  }
  return m;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Translates a coerced `filter` value into the REST `where` object. Nulls and empty objects are
 * kept as they are, so the entries read refuses them with invalid_filter_value as REST does.
 */
export function toWhere(mn: ModelNames, naming: Naming, value: Record<string, unknown>): Record<string, unknown> {
  const keys = keysOf(mn, naming);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "and" || k === "or") {
      out[k] = Array.isArray(v) ? v.map((x) => (isObject(x) ? toWhere(mn, naming, x) : x)) : v;
      continue;
    }
    if (k === "not") {
      out[k] = isObject(v) ? toWhere(mn, naming, v) : v;
      continue;
    }
    const fk = keys.get(k)!;
    if (fk.target && isObject(v)) {
      const hop = keysOf(fk.target, naming);
      const inner: Record<string, unknown> = {};
      for (const [op, x] of Object.entries(v)) inner[hop.get(op)?.rest ?? op] = x;
      out[fk.rest] = inner;
    } else out[fk.rest] = v;
  }
  return out;
}
