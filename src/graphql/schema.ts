// interface.md, GraphQL "Schema": the schema of one set of readable models, built from the model
// definitions and cached per project, model-set version and readable model ids. Each field
// carries `extensions.capa`, which says how translate.ts (root fields) and select.ts (their
// selections) ask the entries read for it.
import {
  type GraphQLEnumType,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLNullableType,
  validateSchema,
} from "graphql";
import { LRUCache } from "lru-cache";
import type { Model } from "../domain/models/catalog.ts";
import type { FieldDef } from "../domain/models/fields.ts";
import type { SystemKey } from "../domain/reads/names.ts";
import { D, derived, fieldDescription, listRootDescription, modelTypeDescription, queryDescription, singleRootDescription } from "./descriptions.ts";
import { modelFilters, type ModelFilters } from "./filters.ts";
import { nameModels, type ModelNames, type Naming } from "./naming.ts";
import { relationSortEnum, sortEnum } from "./sorts.ts";
import { Entry, KeyInfo, Node, PageInfo } from "./types.ts";
import type { ExecContext } from "./execute.ts";
import { modelFields } from "./model-fields.ts";

/** How a field of a model type is read from an entries read. */
export type FieldInfo =
  | { kind: "system"; key: SystemKey; select: string; out: string }
  | { kind: "value"; field: FieldDef }
  | { kind: "relation"; field: FieldDef; target: ModelNames }
  | { kind: "relationList"; field: FieldDef; target: ModelNames };

/** What a root field of Query is. */
export type RootInfo = { kind: "list" | "single"; mn: ModelNames } | { kind: "entry" | "node" | "nodes" | "version" | "me" };

/** The GraphQL types of one exposed model. */
export interface ModelTypes {
  names: ModelNames;
  object: GraphQLObjectType;
  connection: GraphQLObjectType;
  edge: GraphQLObjectType;
  relationConnection: GraphQLObjectType;
  filters: ModelFilters;
  sort: GraphQLEnumType;
  relationSort: GraphQLEnumType;
}

/** What a schema exposes beside its models. */
export interface SchemaOptions {
  /**
   * The project has more than one locale (decisions.md 13): roots take `locale` and
   * `fallbackLocales`, localized fields `locale`, entry types have `_locales` and filters take
   * it. A project with one locale keeps the schema it always had.
   */
  locales?: boolean;
}

/** A built schema and what translation needs beside it. */
export interface Built {
  schema: GraphQLSchema;
  naming: Naming;
  /** Model types by model id and by type name. */
  byId: Map<string, ModelTypes>;
  byType: Map<string, ModelTypes>;
  /** Parsed and validated documents by text (validation depends on the schema). */
  documents: LRUCache<string, object>;
}

const nn = <T extends GraphQLNullableType>(t: T) => new GraphQLNonNull(t);
const capa = <T>(info: T) => ({ capa: info });

/** Builds the schema of a set of readable models (all of `models` are readable). */
export function buildSchema(models: Model[], opts: SchemaOptions = {}): Built {
  return buildNamed(models, nameModels(models), opts);
}

/**
 * Builds the schema of models named by `naming`. The naming rules leave no two types one name,
 * but a schema build must never fail a whole project's GraphQL: if graphql-js refuses the schema,
 * models are added one at a time and each whose types cannot be built is left out (and listed in
 * the `Query` description, like a model that could not be named).
 */
export function buildNamed(models: Model[], naming: Naming, opts: SchemaOptions = {}): Built {
  const whole = tryAssemble(models, naming, opts);
  if (whole) return whole;
  const kept: ModelNames[] = [];
  const dropped: string[] = [];
  for (const mn of naming.models) {
    if (tryAssemble(models, restrict(models, naming, [...kept, mn], dropped), opts)) kept.push(mn);
    else dropped.push(mn.model.namespace);
  }
  return assemble(models, restrict(models, naming, kept, dropped), opts);
}

/** The naming with only `kept` exposed; `dropped` join the models left out, in model order. */
function restrict(models: Model[], naming: Naming, kept: ModelNames[], dropped: string[]): Naming {
  const order = new Map(models.map((m, i) => [m.namespace, i]));
  const leftOut = [...naming.leftOut, ...dropped].sort((a, b) => order.get(a)! - order.get(b)!);
  return { models: kept, byId: new Map(kept.map((n) => [n.model.id, n])), leftOut };
}

/** The schema, or null when graphql-js refuses it (on construction or validation). */
function tryAssemble(models: Model[], naming: Naming, opts: SchemaOptions): Built | null {
  try {
    const b = assemble(models, naming, opts);
    return validateSchema(b.schema).length === 0 ? b : null;
  } catch {
    return null;
  }
}

function assemble(models: Model[], naming: Naming, opts: SchemaOptions): Built {
  const locales = opts.locales === true;
  const byId = new Map<string, ModelTypes>();
  const byType = new Map<string, ModelTypes>();
  const types = (mn: ModelNames) => byId.get(mn.model.id)!;
  const describe = (f: FieldDef) => {
    const target = f.relation ? (models.find((m) => m.id === f.relation) ?? null) : null;
    return fieldDescription(f, target);
  };

  for (const mn of naming.models) {
    const m = mn.model;
    const object: GraphQLObjectType = new GraphQLObjectType({
      name: mn.type,
      description: modelTypeDescription(m, mn.notExposed),
      interfaces: [Node, Entry],
      fields: () => modelFields(mn, naming, types, describe, locales),
    });
    const edge = new GraphQLObjectType({
      name: `${mn.type}Edge`,
      description: derived.edge(m),
      fields: { cursor: { type: nn(GraphQLString), description: D.edgeCursor }, node: { type: nn(object), description: D.edgeNode } },
    });
    const connection = new GraphQLObjectType({
      name: `${mn.type}Connection`,
      description: derived.connection(m),
      fields: {
        edges: { type: nn(new GraphQLList(nn(edge))), description: D.edges },
        nodes: { type: nn(new GraphQLList(nn(object))), description: D.nodes },
        pageInfo: { type: nn(PageInfo), description: D.pageInfoField },
        totalCount: { type: nn(GraphQLInt), description: D.totalCount },
      },
    });
    const relationEdge = new GraphQLObjectType({
      name: `${mn.type}RelationEdge`,
      description: derived.relationEdge(m),
      fields: { cursor: { type: nn(GraphQLString), description: D.relationEdgeCursor }, node: { type: nn(object), description: D.edgeNode } },
    });
    const relationConnection = new GraphQLObjectType({
      name: `${mn.type}RelationConnection`,
      description: derived.relationConnection(m),
      fields: {
        edges: { type: nn(new GraphQLList(nn(relationEdge))), description: D.edges },
        nodes: { type: nn(new GraphQLList(nn(object))), description: D.nodes },
        pageInfo: { type: nn(PageInfo), description: D.pageInfoField },
      },
    });
    const t: ModelTypes = {
      names: mn,
      object,
      connection,
      edge,
      relationConnection,
      filters: undefined as unknown as ModelFilters,
      sort: sortEnum(mn, naming),
      relationSort: relationSortEnum(mn),
    };
    byId.set(m.id, t);
    byType.set(mn.type, t);
  }
  for (const t of byId.values()) t.filters = modelFilters(t.names, naming, (target) => types(target).filters, describe, locales);
  // A root's locale arguments (decisions.md 13), on every entry root of a schema with locales.
  const localeArgs: GraphQLFieldConfigArgumentMap = locales
    ? {
        locale: { type: GraphQLString, description: D.args.locale },
        fallbackLocales: { type: new GraphQLList(nn(GraphQLString)), description: D.args.fallbackLocales },
      }
    : {};

  const root = (mnOrKind: RootInfo) => capa<RootInfo>(mnOrKind);
  // Root values are made before execution (one entries read per root field); errors fail their field.
  const fromRoot = (src: Record<string, unknown>, _args: unknown, ctx: ExecContext, info: { path: { key: string | number } }) => {
    const v = src[info.path.key as string];
    if (v instanceof Error) throw v;
    if (Array.isArray(v)) ctx.actual += v.filter((x) => x !== null).length;
    else if (v && typeof v === "object") ctx.actual += Array.isArray((v as { nodes?: unknown }).nodes) ? (v as { nodes: unknown[] }).nodes.length : 1;
    return v;
  };
  const plain = (src: Record<string, unknown>, _args: unknown, _ctx: unknown, info: { path: { key: string | number } }) => src[info.path.key as string];
  const queryFields: GraphQLFieldConfigMap<Record<string, unknown>, ExecContext> = {};
  for (const mn of naming.models) {
    const t = types(mn);
    queryFields[mn.list] = {
      type: t.connection,
      description: listRootDescription(mn.model),
      args: {
        first: { type: GraphQLInt, description: D.args.first },
        after: { type: GraphQLString, description: D.args.after },
        last: { type: GraphQLInt, description: D.args.last },
        before: { type: GraphQLString, description: D.args.before },
        sort: { type: new GraphQLList(nn(t.sort)), description: D.args.sort },
        filter: { type: t.filters.filter, description: D.args.filter },
        ...localeArgs,
      },
      extensions: root({ kind: "list", mn }),
      resolve: fromRoot,
    };
    queryFields[mn.single] = {
      type: t.object,
      description: singleRootDescription(mn.model),
      args: {
        id: mn.model.singleEntry ? { type: GraphQLID, description: D.args.singleId } : { type: nn(GraphQLID), description: D.args.id },
        ...localeArgs,
      },
      extensions: root({ kind: "single", mn }),
      resolve: fromRoot,
    };
  }
  queryFields.entry = {
    type: Entry,
    description: D.roots.entry,
    args: { id: { type: nn(GraphQLID), description: D.args.id }, ...localeArgs },
    extensions: root({ kind: "entry" }),
    resolve: fromRoot,
  };
  queryFields.node = {
    type: Node,
    description: D.roots.node,
    args: { id: { type: nn(GraphQLID), description: D.args.id }, ...localeArgs },
    extensions: root({ kind: "node" }),
    resolve: fromRoot,
  };
  queryFields.nodes = {
    type: new GraphQLList(Node),
    description: D.roots.nodes,
    args: { ids: { type: nn(new GraphQLList(nn(GraphQLID))), description: D.args.ids }, ...localeArgs },
    extensions: root({ kind: "nodes" }),
    resolve: fromRoot,
  };
  queryFields.version = { type: nn(GraphQLString), description: D.roots.version, extensions: root({ kind: "version" }), resolve: plain };
  queryFields.me = { type: nn(KeyInfo), description: D.roots.me, extensions: root({ kind: "me" }), resolve: plain };

  const query = new GraphQLObjectType({ name: "Query", description: queryDescription(naming.leftOut), fields: queryFields });
  const schema = new GraphQLSchema({ query, types: [...byId.values()].map((t) => t.object) });
  return { schema, naming, byId, byType, documents: new LRUCache({ max: 100 }) };
}
