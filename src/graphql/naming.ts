// interface.md, GraphQL "Naming rules": type, list-root, single-root and field names derived from
// model and field namespaces, with every collision rule. Pure: models in, names out.
import pluralize from "pluralize";
import type { Model } from "../domain/models/catalog.ts";
import type { FieldDef } from "../domain/models/fields.ts";

/** Type names the fixed part of the schema (and GraphQL itself) already uses. */
export const FIXED_TYPE_NAMES = new Set([
  "String",
  "Int",
  "Float",
  "Boolean",
  "ID",
  "Query",
  "Mutation",
  "Subscription",
  "Node",
  "Entry",
  "EntryStatus",
  "DateTime",
  "JSON",
  "Media",
  "MediaKind",
  "PageInfo",
  "KeyInfo",
  "KeyEnvironment",
  "KeyModel",
  "KeyLegacy",
  "KeyRotatedFrom",
  "KeyWrites",
  "KeyTenant",
  "MediaTransform",
  "MediaFit",
  "MediaFormat",
  "IDFilter",
  "EntryStatusFilter",
  "StringFilter",
  "FloatFilter",
  "BooleanFilter",
  "DateTimeFilter",
  "StringListFilter",
  "FloatListFilter",
  "BooleanListFilter",
  "DateTimeListFilter",
  "RelationIDFilter",
  "RelationIDListFilter",
  "MediaFilter",
  "PresenceFilter",
  "JSONFilter",
  // Introspection's own types: no derived name can start with `__`, listed so the set is whole.
  "__Schema",
  "__Type",
  "__TypeKind",
  "__Field",
  "__InputValue",
  "__EnumValue",
  "__Directive",
  "__DirectiveLocation",
]);

/** Endings that generated type names use; a model type ending in one gets the `Model` suffix. */
const DERIVED_ENDINGS = ["Connection", "Edge", "Filter", "Sort", "Relation", "RelationList"];

/**
 * What schema.ts, filters.ts and sorts.ts append to a model's type name for the types it brings
 * (the type itself, its connections, edges, filters and sort enums).
 */
export const DERIVED_SUFFIXES = [
  "",
  "Connection",
  "Edge",
  "RelationConnection",
  "RelationEdge",
  "Filter",
  "RelationFilter",
  "RelationListFilter",
  "Sort",
  "RelationSort",
] as const;

/** Every type name a model type named `type` brings into the schema. */
export function derivedNames(type: string): string[] {
  return DERIVED_SUFFIXES.map((s) => type + s);
}

/** List-root names that the fixed roots (or planned ones) hold; a model's list root gets `List`. */
export const RESERVED_ROOTS = new Set(["entry", "entries", "version", "me", "search", "media", "schema", "contract", "node", "nodes"]);

/** Root fields that always exist. */
export const FIXED_ROOTS = ["entry", "node", "nodes", "version", "me"];

/** GraphQL names of the entry system fields; a customer field of one of these names gets `_field`. */
export const SYSTEM_FIELD_NAMES = new Set(["id", "model", "status", "createdAt", "updatedAt", "publishedAt", "_version", "_tags", "_folder"]);

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A customer field as GraphQL exposes it. */
export interface FieldName {
  field: FieldDef;
  name: string;
}

/** The names of one exposed model. */
export interface ModelNames {
  model: Model;
  type: string;
  list: string;
  single: string;
  /** Exposed customer fields in model order. */
  fields: FieldName[];
  /** Namespaces of fields left out because two resolved to one name (or none could be made). */
  notExposed: string[];
}

/** The naming of one set of readable models. */
export interface Naming {
  models: ModelNames[];
  byId: Map<string, ModelNames>;
  /** Namespaces of readable models that could not be named. */
  leftOut: string[];
}

/** `blog-post` -> `BlogPost`: split on `-` and `_`, each part's first letter upper-cased. */
export function pascal(ns: string): string {
  return ns
    .split(/[-_]/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");
}

interface Candidate {
  model: Model;
  /** The PascalCase name (with a leading `_` before a digit), before any suffix. */
  base: string;
  type: string;
  /** Whether the type is `Model_<namespace>`. */
  fallback: boolean;
}

function firstType(m: Model): Candidate | null {
  let base = pascal(m.namespace);
  if (base === "") return null;
  if (/^[0-9]/.test(base)) base = `_${base}`;
  // `presence` would bring `PresenceFilter`, the shared filter's name: any derived name that the
  // fixed schema holds gets the suffix, not only the type's own.
  const suffixed = DERIVED_ENDINGS.some((e) => base.endsWith(e)) || derivedNames(base).some((n) => FIXED_TYPE_NAMES.has(n));
  return { model: m, base, type: suffixed ? `${base}Model` : base, fallback: false };
}

function fallbackType(c: Candidate): Candidate {
  return { ...c, type: `Model_${c.model.namespace.replace(/-/g, "_")}`, fallback: true };
}

function lowerFirst(s: string): string {
  return s[0]!.toLowerCase() + s.slice(1);
}

/** The list root of a type: its PascalCase name before any `Model` suffix, first letter lower-cased. */
function listRoot(c: Candidate): string {
  const name = lowerFirst(c.fallback ? c.type : c.base);
  return RESERVED_ROOTS.has(name) ? `${name}List` : name;
}

/** Groups by a key and returns the members of groups with more than one member. */
function duplicates<T>(items: T[], key: (t: T) => string): Set<T> {
  const by = new Map<string, T[]>();
  for (const t of items) by.set(key(t), [...(by.get(key(t)) ?? []), t]);
  return new Set([...by.values()].filter((g) => g.length > 1).flat());
}

/** The candidates one of whose type names is fixed or brought by another candidate too. */
function sharingNames(cands: Candidate[]): Set<Candidate> {
  const owners = new Map<string, number>();
  for (const c of cands) for (const n of derivedNames(c.type)) owners.set(n, (owners.get(n) ?? 0) + 1);
  return new Set(cands.filter((c) => derivedNames(c.type).some((n) => FIXED_TYPE_NAMES.has(n) || owners.get(n)! > 1)));
}

/** The singular of the list root's last word, or null when there is no clean singular. */
function singularOf(list: string): string | null {
  const m = /[A-Z]?[a-z]+$/.exec(list);
  if (!m) return null;
  const word = m[0];
  if (!pluralize.isPlural(word)) return null;
  const one = pluralize.singular(word);
  if (one === word || one.length === 0 || !NAME.test(list.slice(0, m.index) + one)) return null;
  return list.slice(0, m.index) + one;
}

/** Names every readable model (in model order) per interface.md's naming rules. */
export function nameModels(models: Model[]): Naming {
  const leftOut: string[] = [];
  let cands: Candidate[] = [];
  for (const m of models) {
    const c = firstType(m);
    if (c) cands.push(c);
    else leftOut.push(m.namespace);
  }
  // Two models one name: both become Model_<namespace>; if those collide too, both are left out.
  // List roots that collide are treated the same way.
  for (const phase of ["type", "list"] as const) {
    const clash = duplicates(cands, phase === "type" ? (c) => c.type : listRoot);
    cands = cands.map((c) => (clash.has(c) && !c.fallback ? fallbackType(c) : c));
    const still = new Set([...duplicates(cands, (c) => c.type), ...(phase === "list" ? duplicates(cands, listRoot) : [])]);
    for (const c of still) leftOut.push(c.model.namespace);
    cands = cands.filter((c) => !still.has(c));
  }
  // Every name a model brings (its type, connections, edges, filters, sorts) against the fixed
  // names and every other model's: a model that still shares one is named `Model_<namespace>`, and
  // left out if even that shares a type name or list root.
  const sharing = sharingNames(cands);
  cands = cands.map((c) => (sharing.has(c) && !c.fallback ? fallbackType(c) : c));
  const still = new Set([...sharingNames(cands), ...duplicates(cands, listRoot)]);
  for (const c of still) leftOut.push(c.model.namespace);
  cands = cands.filter((c) => !still.has(c));
  const used = new Set<string>([...FIXED_ROOTS, ...cands.map(listRoot)]);
  const out: ModelNames[] = [];
  for (const c of cands) {
    const list = listRoot(c);
    let single = singularOf(list);
    if (single === null || used.has(single)) single = `${list}ById`;
    if (used.has(single)) {
      leftOut.push(c.model.namespace);
      continue;
    }
    used.add(single);
    const { fields, notExposed } = nameFields(c.model.fields);
    out.push({ model: c.model, type: c.type, list, single, fields, notExposed });
  }
  const order = new Map(models.map((m, i) => [m.namespace, i]));
  leftOut.sort((a, b) => order.get(a)! - order.get(b)!);
  return { models: out, byId: new Map(out.map((n) => [n.model.id, n])), leftOut };
}

/** The GraphQL name of one field namespace, or null when none can be made (a `__` prefix). */
export function fieldName(ns: string): string | null {
  let name = NAME.test(ns) ? ns : Array.from(ns, (ch, i) => (/[_A-Za-z]/.test(ch) || (i > 0 && /[0-9]/.test(ch)) ? ch : "_")).join("");
  if (name.startsWith("__")) return null;
  if (SYSTEM_FIELD_NAMES.has(name)) name = `${name}_field`;
  return name;
}

/** Names a model's customer fields: `$` fields left out; clashing names left out and listed. */
export function nameFields(defs: FieldDef[]): { fields: FieldName[]; notExposed: string[] } {
  const named: FieldName[] = [];
  const notExposed: string[] = [];
  for (const f of defs) {
    if (f.namespace.startsWith("$")) continue;
    const name = fieldName(f.namespace);
    if (name === null) notExposed.push(f.namespace);
    else named.push({ field: f, name });
  }
  const clash = duplicates(named, (n) => n.name);
  for (const n of named) if (clash.has(n)) notExposed.push(n.field.namespace);
  const order = new Map(defs.map((f, i) => [f.id, i]));
  notExposed.sort((a, b) => order.get(defs.find((f) => f.namespace === a)!.id)! - order.get(defs.find((f) => f.namespace === b)!.id)!);
  return { fields: named.filter((n) => !clash.has(n)), notExposed };
}
