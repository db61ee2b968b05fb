// interface.md, GraphQL "Lists, filters, sorts": the `<T>Sort` and `<T>RelationSort` enums. A root
// sort value's internal value is its REST sort term (`-title`, `author.name`), so a `sort`
// argument becomes the REST `sort` parameter by joining; a relation sort value says how to order
// the related entries of a window.
import { GraphQLEnumType, type GraphQLEnumValueConfigMap } from "graphql";
import { itemType, TEXT_TYPES, type FieldDef } from "../domain/models/fields.ts";
import type { Model } from "../domain/models/catalog.ts";
import { derived, selectName, sortValueDescription } from "./descriptions.ts";
import type { ModelNames, Naming } from "./naming.ts";

const SYSTEM_SORTS = ["createdAt", "updatedAt", "publishedAt", "id"] as const;

/** Whether a field can be sorted by: text, number, true_false and date fields (not lists). */
export function sortable(f: FieldDef): boolean {
  const t = itemType(f);
  return f.type !== "array" && (TEXT_TYPES.has(t) || t === "number" || t === "true_false" || t === "date");
}

/** A name as the REST sort grammar writes it: quoted when it holds `, . "` or starts with `$`, `-` or a space. */
export function sortName(ns: string): string {
  return /[,."]/.test(ns) || /^[$\- ]/.test(ns) || ns.trim() !== ns ? `"${ns.replace(/"/g, '""')}"` : ns;
}

/** A system key as REST names it for a model: `$key` when a customer field holds the plain name. */
export function systemName(m: Model, key: string): string {
  return m.fields.some((f) => f.namespace === key) ? `$${key}` : key;
}

/** How a relation window is ordered: the REST output key of the value, and whether it is a date. */
export interface RelationOrder {
  /** The key of the value in a REST entry object. */
  key: string;
  /** The select item that makes the read return it. */
  select: string;
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

/** `<T>Sort`: system sorts, sortable fields, then one hop into each single relation. */
export function sortEnum(mn: ModelNames, naming: Naming): GraphQLEnumType {
  const values: GraphQLEnumValueConfigMap = {};
  for (const [name, rest, path] of sortNames(mn)) add(values, name, path, (desc) => `${desc ? "-" : ""}${rest}`);
  for (const { field, name } of mn.fields) {
    const target = field.type === "relation" && field.relation ? naming.byId.get(field.relation) : undefined;
    if (!target) continue;
    for (const [tName, tRest, tPath] of sortNames(target)) {
      add(values, `${name}__${tName}`, `${field.namespace}.${tPath}`, (desc) => `${desc ? "-" : ""}${sortName(field.namespace)}.${tRest}`);
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
      (desc): RelationOrder => ({ key, select: field ? selectName(field.namespace) : rest, date, desc, sig: `${name}${desc ? "-" : "+"}` }),
    );
  }
  return new GraphQLEnumType({ name: `${mn.type}RelationSort`, description: derived.relationSort(mn.model), values });
}
