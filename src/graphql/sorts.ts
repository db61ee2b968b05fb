// interface.md, GraphQL "Lists, filters, sorts": the `<T>Sort` and `<T>RelationSort` enums. A root
// sort value's internal value is its sort term (args.ts; REST writes it `-title`, `author.name`),
// so a `sort` argument is the read's sort as it is; a relation sort value says how to order the
// related entries of a window.
import { GraphQLEnumType, type GraphQLEnumValueConfigMap } from "graphql";
import { itemType, TEXT_TYPES, type FieldDef } from "../domain/models/fields.ts";
import type { SortTerm } from "../domain/reads/grammar.ts";
import { sortName } from "../domain/reads/args.ts";
import type { Model } from "../domain/models/catalog.ts";
import { derived, sortValueDescription } from "./descriptions.ts";
import type { ModelNames, Naming } from "./naming.ts";

const SYSTEM_SORTS = ["createdAt", "updatedAt", "publishedAt", "id"] as const;

/** Whether a field can be sorted by: text, number, true_false and date fields (not lists). */
export function sortable(f: FieldDef): boolean {
  const t = itemType(f);
  return f.type !== "array" && (TEXT_TYPES.has(t) || t === "number" || t === "true_false" || t === "date");
}

/** A system key as REST names it for a model: `$key` when a customer field holds the plain name. */
export function systemName(m: Model, key: string): string {
  return m.fields.some((f) => f.namespace === key) ? `$${key}` : key;
}

/** How a relation window is ordered: the REST output key of the value, and whether it is a date. */
export interface RelationOrder {
  /** The key of the value in a REST entry object. */
  key: string;
  /** The system key's select name (`createdAt` or `$createdAt`) when it sorts by one. */
  select: string;
  /** The customer field's namespace when it sorts by one (its select item). */
  field: string | null;
  date: boolean;
  desc: boolean;
  /** The sort signature carried in cursors, so a cursor of another order is refused. */
  sig: string;
}

function add(values: GraphQLEnumValueConfigMap, name: string, path: string, term: (desc: boolean) => unknown): void {
  for (const desc of [false, true]) {
    const v = `${name}_${desc ? "DESC" : "ASC"}`;
    if (!values[v]) values[v] = { value: term(desc), description: sortValueDescription(path, desc) };
  }
}

/** The sortable names of a model: [GraphQL name, REST term name, description path, field or null]. */
function sortNames(mn: ModelNames): [string, string, string, FieldDef | null][] {
  const m = mn.model;
  const out: [string, string, string, FieldDef | null][] = SYSTEM_SORTS.map((k) => [k, systemName(m, k), k, null]);
  for (const { field, name } of mn.fields) if (sortable(field)) out.push([name, sortName(field.namespace), field.namespace, field]);
  return out;
}

/** A sort name as a term's path segment: `$key` (system) when a customer field holds the plain name. */
function segment(restName: string, field: FieldDef | null): SortTerm["path"][number] {
  if (field) return { name: field.namespace, system: false };
  return restName.startsWith("$") ? { name: restName.slice(1), system: true } : { name: restName, system: false };
}

/** `<T>Sort`: system sorts, sortable fields, then one hop into each single relation. A value's internal value is its sort term (args.ts). */
export function sortEnum(mn: ModelNames, naming: Naming): GraphQLEnumType {
  const values: GraphQLEnumValueConfigMap = {};
  for (const [name, rest, path, f] of sortNames(mn)) add(values, name, path, (desc): SortTerm => ({ path: [segment(rest, f)], desc }));
  for (const { field, name } of mn.fields) {
    const target = field.type === "relation" && field.relation ? naming.byId.get(field.relation) : undefined;
    if (!target) continue;
    for (const [tName, tRest, tPath, tf] of sortNames(target)) {
      add(values, `${name}__${tName}`, `${field.namespace}.${tPath}`, (desc): SortTerm => ({ path: [segment("", field), segment(tRest, tf)], desc }));
    }
  }
  return new GraphQLEnumType({ name: `${mn.type}Sort`, description: derived.sort(mn.model), values });
}

/** `<T>RelationSort`: the same without the hop values; values say how to order a window. */
export function relationSortEnum(mn: ModelNames): GraphQLEnumType {
  const values: GraphQLEnumValueConfigMap = {};
  for (const [name, rest, path, field] of sortNames(mn)) {
    const key = field ? field.namespace : rest;
    const date = field ? itemType(field) === "date" : name !== "id";
    add(
      values,
      name,
      path,
      (desc): RelationOrder => ({ key, select: rest, field: field ? field.namespace : null, date, desc, sig: `${name}${desc ? "-" : "+"}` }),
    );
  }
  return new GraphQLEnumType({ name: `${mn.type}RelationSort`, description: derived.relationSort(mn.model), values });
}
