// interface.md, "GraphQL behaviour": every root field becomes one `GET /api/entries/...` request.
// This file turns a root field (its arguments and selection) into that request's URL, and the
// read's answer into the field's value: a connection, an entry, or a list of entries.
import { getNamedType, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type ValueNode } from "graphql";
import { collectSubfields } from "graphql/execution/collectFields.js";
import { getArgumentValues } from "graphql/execution/values.js";
import { AppError, fail } from "../errors.ts";
import { isUuid } from "../domain/models/fields.ts";
import type { ProjectHandle } from "../storage/pool.ts";
import type { ReadOutcome } from "../domain/reads/job.ts";
import { selectName } from "./descriptions.ts";
import { toWhere } from "./filters.ts";
import type { Built, FieldInfo, ModelTypes, RootInfo } from "./schema.ts";
import type { RelationOrder } from "./sorts.ts";
import { systemName } from "./sorts.ts";
import { TYPE_NAME } from "./types.ts";

/** Root connection `first` when it is not written, and what `before` alone reads. */
export const ROOT_FIRST = 25;

/** One entries read a root field asks for. */
export interface RestRead {
  ns: string;
  id: string | null;
  /** The query string, `?` included (or empty). */
  search: string;
}

/** What a root field needs run, and how its value is made from the answers. */
export interface RootPlan {
  reads: RestRead[];
  finish(outcomes: ReadOutcome[]): unknown;
}

export interface TranslateContext {
  built: Built;
  h: ProjectHandle;
  fragments: Record<string, FragmentDefinitionNode>;
  /** Coerced variable values (a variable that was not sent is absent). */
  variables: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

/** The URL a read is shown as in `extensions.svc.rest`. */
export function restUrl(r: RestRead): string {
  return `/api/entries/${encodeURIComponent(r.ns)}${r.id === null ? "" : `/${r.id}`}${r.search}`;
}

/** A query string from ordered pairs, escaping only what must be escaped, so the URL stays readable. */
function queryString(pairs: [string, string][]): string {
  if (pairs.length === 0) return "";
  const enc = (v: string) =>
    encodeURIComponent(v).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")").replace(/%24/g, "$").replace(/%2A/g, "*").replace(/%3A/g, ":");
  return `?${pairs.map(([k, v]) => `${k}=${enc(v)}`).join("&")}`;
}

/** REST parameter names as the GraphQL arguments that stand for them. */
function argParam(param: string | undefined, backward: boolean): string | undefined {
  if (param === "where") return "filter";
  if (param === "limit") return backward ? "last" : "first";
  if (param === "select") return undefined;
  return param;
}

/** An outcome's data, or the read's error (REST parameters renamed to GraphQL arguments). */
function dataOf(o: ReadOutcome, backward = false): unknown {
  if (!o.ok) {
    const e = o.error;
    // The only select a translated read can be refused for is nesting past REST's three levels.
    if (e.code === "invalid_select") {
      throw new AppError(e.code, {
        message: "Relations expand at most 3 levels below a root field, as REST select does.",
        hint: "Query deeper relations from another root field, e.g. entry(id:).",
      });
    }
    throw new AppError(e.code, { message: e.message, param: argParam(e.param, backward), hint: e.hint, extra: e.extra });
  }
  return JSON.parse(o.dataJson);
}

const fieldDef = (t: GraphQLObjectType, name: string) => t.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
const infoOf = <T>(f: { extensions: { capa?: unknown } }) => f.extensions.capa as T;

/** Collects the node selections under a connection's `edges { node }` and `nodes` (aliases included), and whether totalCount is asked. */
function connectionParts(ctx: TranslateContext, conn: GraphQLObjectType, nodes: readonly FieldNode[]) {
  const s = ctx.built.schema;
  const byName = (fns: Iterable<readonly FieldNode[]>, name: string) => [...fns].flat().filter((n) => n.name.value === name);
  const parts = [...collectSubfields(s, ctx.fragments, ctx.variables, conn, nodes).values()];
  const nodeNodes = byName(parts, "nodes");
  const edges = byName(parts, "edges");
  if (edges.length) {
    const edgeType = getNamedType(fieldDef(conn, "edges")!.type) as GraphQLObjectType;
    nodeNodes.push(...byName(collectSubfields(s, ctx.fragments, ctx.variables, edgeType, edges).values(), "node"));
  }
  return { nodeNodes, totalCount: byName(parts, "totalCount").length > 0 };
}

/**
 * The REST `select` of a model type for the given selections: system keys as `$name` when a
 * customer field holds the plain name, relations expanded as `rel(...)`. `nestedAfter` says
 * whether a nested connection may take `after` (only under a single entry).
 */
export function selectFor(ctx: TranslateContext, t: ModelTypes, nodes: readonly FieldNode[], nestedAfter: boolean): string {
  return selectItems(ctx, t, nodes, nestedAfter).join(",");
}

function selectItems(ctx: TranslateContext, t: ModelTypes, nodes: readonly FieldNode[], nestedAfter: boolean): string[] {
  const fields = collectSubfields(ctx.built.schema, ctx.fragments, ctx.variables, t.object, nodes);
  const items = new Map<string, string>();
  const relations = new Map<string, { info: FieldInfo & { kind: "relation" | "relationList" }; nodes: FieldNode[]; extra: Set<string> }>();
  for (const [, fns] of fields) {
    const name = fns[0]!.name.value;
    if (name.startsWith("__")) continue;
    const def = fieldDef(t.object, name)!;
    const info = infoOf<FieldInfo>(def);
    if (info.kind === "system") {
      if (info.key !== "id") items.set(name, info.select);
    } else if (info.kind === "value") {
      items.set(name, selectName(info.field.namespace));
    } else {
      let r = relations.get(name);
      if (!r) {
        r = { info, nodes: [], extra: new Set() };
        relations.set(name, r);
      }
      if (info.kind === "relation") {
        r.nodes.push(...fns);
        continue;
      }
      const tt = ctx.built.byId.get(info.target.model.id)!;
      for (const fn of fns) {
        const args = getArgumentValues(def, fn, ctx.variables) as { after?: string | null; sort?: RelationOrder | null };
        if (args.after != null && !nestedAfter) {
          fail("invalid_parameter", {
            message: `after on the nested connection ${name} works under a single entry only.`,
            param: "after",
            hint: "Page a relation list under <single>(id:), entry(id:) or node(id:).",
          });
        }
        if (args.sort) r.extra.add(args.sort.select);
        r.nodes.push(...connectionParts(ctx, tt.relationConnection, [fn]).nodeNodes);
      }
    }
  }
  for (const [name, r] of relations) {
    const target = ctx.built.byId.get(r.info.target.model.id)!;
    // Under a relation list there are several parents again, so nested after is refused there.
    const sub = new Set(selectItems(ctx, target, r.nodes, nestedAfter && r.info.kind === "relation"));
    for (const x of r.extra) sub.add(x);
    items.set(name, `${selectName(r.info.field.namespace)}(${[...sub].join(",")})`);
  }
  return items.size ? [...items.values()] : [systemName(t.names.model, "id")];
}

/** Throws invalid_filter_value when a variable inside the filter (not the whole filter) was not sent. */
function checkFilterVariables(node: ValueNode, vars: Record<string, unknown>, depth = 0): void {
  if (node.kind === Kind.VARIABLE) {
    if (depth > 0 && !(node.name.value in vars)) {
      fail("invalid_filter_value", {
        message: `The variable $${node.name.value} inside filter is not set.`,
        param: "filter",
        hint: "Send every variable used inside filter, or leave the whole filter out.",
      });
    }
    return;
  }
  if (node.kind === Kind.OBJECT) for (const f of node.fields) checkFilterVariables(f.value, vars, depth + 1);
  if (node.kind === Kind.LIST) for (const v of node.values) checkFilterVariables(v, vars, depth + 1);
}

function uuidOrFail(id: unknown, param: string): string {
  if (!isUuid(id))
    fail("invalid_parameter", { message: "Entry ids are UUIDs.", param, hint: "Entry ids are UUIDs, e.g. 0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f." });
  return id.toLowerCase();
}

/** Tags a root-level entry with its type name, for Node and Entry. */
function tagged(o: unknown, typeName: string): unknown {
  if (o && typeof o === "object") (o as Record<symbol, string>)[TYPE_NAME] = typeName;
  return o;
}

/** The plan of one root field (its nodes share one response key). */
export function planRoot(ctx: TranslateContext, field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]): RootPlan {
  const info = infoOf<RootInfo>(field);
  const args = getArgumentValues(field, nodes[0]!, ctx.variables);
  switch (info.kind) {
    case "list":
      return planList(ctx, ctx.built.byId.get(info.mn.model.id)!, args, nodes);
    case "single":
      return planSingle(ctx, ctx.built.byId.get(info.mn.model.id)!, args.id, nodes);
    case "entry":
    case "node":
      return planById(ctx, uuidOrFail(args.id, "id"), nodes);
    case "nodes":
      return planNodes(ctx, args.ids as string[], nodes);
    default:
      return { reads: [], finish: () => null };
  }
}

function planList(ctx: TranslateContext, t: ModelTypes, args: Obj, nodes: readonly FieldNode[]): RootPlan {
  const first = args.first as number | null | undefined;
  const last = args.last as number | null | undefined;
  const after = args.after as string | null | undefined;
  const before = args.before as string | null | undefined;
  if (first != null && before != null) {
    fail("invalid_parameter", {
      message: "first takes after, not before.",
      param: "before",
      hint: "Page forward with first and after, backward with last and before.",
    });
  }
  if (last != null && (first != null || after != null)) {
    fail("invalid_parameter", {
      message: `last cannot be sent with ${first != null ? "first" : "after"}.`,
      param: "last",
      hint: "Page forward with first and after, backward with last and before.",
    });
  }
  if (after != null && before != null) {
    fail("invalid_parameter", {
      message: "Send after or before, not both.",
      param: "before",
      hint: "Page forward with first and after, backward with last and before.",
    });
  }
  const backward = last != null || before != null;
  const { nodeNodes, totalCount } = connectionParts(ctx, t.connection, nodes);
  const pairs: [string, string][] = [["select", selectFor(ctx, t, nodeNodes, false)]];
  const filterArg = nodes[0]!.arguments?.find((a) => a.name.value === "filter");
  if (filterArg) checkFilterVariables(filterArg.value, ctx.variables);
  if (args.filter != null) pairs.push(["where", JSON.stringify(toWhere(t.names, ctx.built.naming, args.filter as Obj))]);
  const sort = args.sort as string[] | null | undefined;
  if (sort?.length) pairs.push(["sort", sort.join(",")]);
  pairs.push(["limit", String((backward ? last : first) ?? ROOT_FIRST)]);
  if (backward) pairs.push(["before", before ?? "end"]);
  else if (after != null) pairs.push(["after", after]);
  if (totalCount) pairs.push(["count", "true"]);
  const read: RestRead = { ns: t.names.model.namespace, id: null, search: queryString(pairs) };
  return {
    reads: [read],
    finish([o]) {
      const rows = dataOf(o!, backward) as Obj[];
      const r = o as Extract<ReadOutcome, { ok: true }>;
      const cursors = r.cursors ?? [];
      const page = r.page!;
      const edges = rows.map((node, i) => ({ cursor: cursors[i]!, node }));
      const hasNextPage = page.next !== null;
      const hasPreviousPage = page.prev !== null;
      return {
        edges,
        nodes: rows,
        totalCount: r.count,
        pageInfo: {
          hasNextPage,
          hasPreviousPage,
          startCursor: cursors[0] ?? null,
          endCursor: hasNextPage ? page.next : (cursors[cursors.length - 1] ?? null),
        },
      };
    },
  };
}

function planSingle(ctx: TranslateContext, t: ModelTypes, id: unknown, nodes: readonly FieldNode[]): RootPlan {
  const ns = t.names.model.namespace;
  const select = selectFor(ctx, t, nodes, true);
  if (id == null) {
    // A single-entry model without id: its one entry (REST limit=1).
    return {
      reads: [
        {
          ns,
          id: null,
          search: queryString([
            ["select", select],
            ["limit", "1"],
          ]),
        },
      ],
      finish: ([o]) => (dataOf(o!) as Obj[])[0] ?? null,
    };
  }
  return {
    reads: [{ ns, id: String(id), search: queryString([["select", select]]) }],
    finish([o]) {
      if (!o!.ok && o!.error.code === "entry_not_found") return null;
      return dataOf(o!);
    },
  };
}

/** The exposed model types of entries by id (one statement). */
function typesOf(ctx: TranslateContext, ids: string[]): Map<string, ModelTypes> {
  const rows = ctx.h.sqlite.query("SELECT id, model_id FROM entries WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as {
    id: string;
    model_id: string;
  }[];
  const out = new Map<string, ModelTypes>();
  for (const r of rows) {
    const t = ctx.built.byId.get(r.model_id);
    if (t) out.set(r.id, t);
  }
  return out;
}

function planById(ctx: TranslateContext, id: string, nodes: readonly FieldNode[]): RootPlan {
  const t = typesOf(ctx, [id]).get(id);
  // An id of no entry, or of a model this schema does not expose, answers null with no error.
  if (!t) return { reads: [], finish: () => null };
  return {
    reads: [{ ns: t.names.model.namespace, id, search: queryString([["select", selectFor(ctx, t, nodes, true)]]) }],
    finish([o]) {
      if (!o!.ok && o!.error.code === "entry_not_found") return null;
      return tagged(dataOf(o!), t.names.type);
    },
  };
}

function planNodes(ctx: TranslateContext, raw: string[], nodes: readonly FieldNode[]): RootPlan {
  const ids = raw.map((x) => uuidOrFail(x, "ids"));
  const types = typesOf(ctx, [...new Set(ids)]);
  // One read per model the ids belong to; an id sent twice is read once.
  const groups = new Map<ModelTypes, string[]>();
  for (const [id, t] of types) groups.set(t, [...(groups.get(t) ?? []), id]);
  const order = [...groups.entries()];
  return {
    reads: order.map(([t, group]) => ({
      ns: t.names.model.namespace,
      id: null,
      search: queryString([
        ["select", selectFor(ctx, t, nodes, false)],
        ["where", JSON.stringify({ $id: { in: group } })],
        ["limit", String(group.length)],
      ]),
    })),
    finish(outcomes) {
      const found = new Map<string, Obj>();
      outcomes.forEach((o, i) => {
        const [t] = order[i]!;
        const idKey = systemName(t.names.model, "id");
        for (const row of dataOf(o) as Obj[]) found.set(row[idKey] as string, tagged(row, t.names.type) as Obj);
      });
      return ids.map((id) => found.get(id) ?? null);
    },
  };
}
