// interface.md, "Limits: GraphQL" and decisions.md section 5: every limit is checked before any
// query runs, and each refusal states the measured value and the limit. Sizes and bracket
// nesting are measured on the text; depth, root fields, bounds and cost on the operation.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  GraphQLObjectType,
  type OperationDefinitionNode,
  isAbstractType,
  getNamedType,
} from "graphql";
import { collectFields, collectSubfields } from "graphql/execution/collectFields.js";
import { getArgumentValues } from "graphql/execution/values.js";
import { fail } from "../errors.ts";
import { LIMITS } from "./limit-values.ts";
import type { Built, FieldInfo, ModelTypes, RootInfo } from "./schema.ts";
import { ROOT_FIRST } from "./translate.ts";
import { NESTED_FIRST } from "./windows.ts";

export { LIMITS };

/** Refuses a size over its limit. */
export function checkSize(what: string, bytes: number, limit: number): void {
  if (bytes > limit) {
    fail("query_too_large", {
      message: `The ${what} is ${bytes} bytes; the limit is ${limit}.`,
      hint: what === "query document" ? "Shorten the document, or register it once as a persisted query." : `Keep the ${what} within ${limit} bytes.`,
    });
  }
}

/** The deepest nesting of `{`, `[` and `(` in a GraphQL document or JSON text, outside strings and comments. */
export function bracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A block string """...""" or a plain string "..." with escapes.
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 2;
        continue;
      }
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c === 0x23) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a) i++;
      continue;
    }
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) depth--;
  }
  return max;
}

/** Refuses text nested deeper than the limit (before parsing, so a parser never recurses that far). */
export function checkNesting(what: string, text: string): void {
  const d = bracketDepth(text);
  if (d > LIMITS.nesting) {
    fail("query_too_deep", {
      message: `The ${what} nests brackets ${d} levels deep; the limit is ${LIMITS.nesting}.`,
      hint: `Nest {, [ and ( at most ${LIMITS.nesting} levels.`,
    });
  }
}

/** The measures of an operation (extensions.svc.cost and the cost extension). */
export interface Measures {
  depth: number;
  rootFields: number;
  connections: number;
  fields: number;
  /** Worst-case entries the document can return (unwritten nested first counts its default). */
  requested: number;
  /** What counts against the budget (unwritten nested first counts 10). */
  counted: number;
}

/** Measures before anything is measured; `measure` fills them in place, so a refusal can still report them. */
export function emptyMeasures(): Measures {
  return { depth: 0, rootFields: 0, connections: 0, fields: 0, requested: 0, counted: 0 };
}

const ENTRY_ROOTS = new Set(["list", "single", "entry", "node", "nodes"]);

interface Walk {
  built: Built;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  m: Measures;
}

const capaOf = <T>(f: GraphQLField<unknown, unknown>) => f.extensions.capa as T | undefined;

function argsOf(w: Walk, def: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
  return getArgumentValues(def, node, w.variables);
}

function bound(name: string, v: unknown, max: number): void {
  if (v == null) return;
  if (typeof v !== "number" || v < 1 || v > max) {
    fail("invalid_limit", { message: `${name} must be from 1 to ${max}; got ${String(v)}.`, param: name, hint: `Example: ${name}: 25` });
  }
}

/** Walks selections of an object type; returns [requested, counted] entries below, per parent entry. */
function walkObject(w: Walk, type: GraphQLObjectType, nodes: readonly FieldNode[], depth: number): [number, number] {
  let req = 0;
  let cnt = 0;
  for (const [, fns] of collectSubfields(w.built.schema, w.fragments, w.variables, type, nodes)) {
    const name = fns[0]!.name.value;
    w.m.fields++;
    if (depth > w.m.depth) w.m.depth = depth;
    if (name === "__typename") continue;
    const def = type.getFields()[name]!;
    const info = capaOf<FieldInfo>(def);
    if (info?.kind === "relation") {
      const [r, c] = walkObject(w, w.built.byId.get(info.target.model.id)!.object, fns, depth + 1);
      req += 1 + r;
      cnt += 1 + c;
    } else if (info?.kind === "relationList") {
      w.m.connections++;
      const tt = w.built.byId.get(info.target.model.id)!;
      for (const fn of fns) {
        const first = argsOf(w, def, fn).first as number | null | undefined;
        bound("first", first, LIMITS.nestedFirstMax);
        const [r, c] = walkConnection(w, tt, tt.relationConnection, [fn], depth + 1);
        req += (first ?? NESTED_FIRST) * (1 + r);
        cnt += (first ?? LIMITS.nestedBudgetFirst) * (1 + c);
      }
    } else if (!isLeaf(def)) {
      // Media, PageInfo, KeyInfo and the like: count their fields and depth.
      const named = getNamedType(def.type);
      if (named instanceof GraphQLObjectType) walkObject(w, named, fns, depth + 1);
    }
  }
  return [req, cnt];
}

const isLeaf = (def: GraphQLField<unknown, unknown>) => !(getNamedType(def.type) instanceof GraphQLObjectType) && !isAbstractType(getNamedType(def.type));

/** Walks a connection's selections; returns the cost below one entry of it. */
function walkConnection(w: Walk, t: ModelTypes, conn: GraphQLObjectType, nodes: readonly FieldNode[], depth: number): [number, number] {
  let req = 0;
  let cnt = 0;
  for (const [, fns] of collectSubfields(w.built.schema, w.fragments, w.variables, conn, nodes)) {
    const name = fns[0]!.name.value;
    w.m.fields++;
    if (depth > w.m.depth) w.m.depth = depth;
    if (name === "nodes") {
      const [r, c] = walkObject(w, t.object, fns, depth + 1);
      req = Math.max(req, r);
      cnt = Math.max(cnt, c);
    } else if (name === "edges") {
      const edge = getNamedType(conn.getFields().edges!.type) as GraphQLObjectType;
      for (const [, efns] of collectSubfields(w.built.schema, w.fragments, w.variables, edge, fns)) {
        w.m.fields++;
        if (depth + 1 > w.m.depth) w.m.depth = depth + 1;
        if (efns[0]!.name.value === "node") {
          const [r, c] = walkObject(w, t.object, efns, depth + 2);
          req = Math.max(req, r);
          cnt = Math.max(cnt, c);
        }
      }
    } else if (name === "pageInfo") {
      walkObject(w, getNamedType(conn.getFields().pageInfo!.type) as GraphQLObjectType, fns, depth + 1);
    }
  }
  return [req, cnt];
}

/** The heaviest cost of an entry of any exposed model for an Entry or Node selection. */
function walkAbstract(w: Walk, nodes: readonly FieldNode[], depth: number): [number, number] {
  let best: [number, number] = [0, 0];
  const saved = { ...w.m };
  let deepest = saved;
  for (const t of w.built.byId.values()) {
    Object.assign(w.m, saved);
    const r = walkObject(w, t.object, nodes, depth);
    if (w.m.depth > deepest.depth || w.m.fields > deepest.fields) deepest = { ...w.m };
    if (r[1] > best[1] || (r[1] === best[1] && r[0] > best[0])) best = r;
  }
  Object.assign(w.m, deepest);
  return best;
}

/**
 * Measures an operation and refuses it when it passes a limit: depth 12, 10 entry root fields,
 * first/last 1 to 200, 100 ids, 3 sort values, and the cost budget.
 */
export function measure(
  built: Built,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  m: Measures = emptyMeasures(),
): Measures {
  const w: Walk = { built, fragments, variables, m };
  const query = built.schema.getQueryType()!;
  for (const [, fns] of collectFields(built.schema, fragments, variables, query, op.selectionSet)) {
    const name = fns[0]!.name.value;
    m.fields++;
    if (m.depth < 1) m.depth = 1;
    // Introspection is answered from the schema and costs nothing.
    if (name.startsWith("__")) continue;
    const def = query.getFields()[name]!;
    const info = capaOf<RootInfo>(def)!;
    if (!ENTRY_ROOTS.has(info.kind)) {
      if (info.kind === "me") walkObject(w, getNamedType(def.type) as GraphQLObjectType, fns, 2);
      continue;
    }
    m.rootFields++;
    const args = argsOf(w, def, fns[0]!);
    if (info.kind === "list") {
      m.connections++;
      bound("first", args.first, LIMITS.rootFirstMax);
      bound("last", args.last, LIMITS.rootFirstMax);
      const sort = args.sort as unknown[] | null | undefined;
      if (sort && sort.length > LIMITS.sortValues) {
        fail("invalid_sort", {
          message: `sort takes up to ${LIMITS.sortValues} values; got ${sort.length}.`,
          param: "sort",
          hint: "Example: sort: [publishedAt_DESC, title_ASC]",
        });
      }
      const n = (args.first ?? args.last ?? ROOT_FIRST) as number;
      const t = built.byId.get(info.mn.model.id)!;
      const [r, c] = walkConnection(w, t, t.connection, fns, 2);
      m.requested += n * (1 + r);
      m.counted += n * (1 + c);
    } else if (info.kind === "single") {
      const [r, c] = walkObject(w, built.byId.get(info.mn.model.id)!.object, fns, 2);
      m.requested += 1 + r;
      m.counted += 1 + c;
    } else {
      let count = 1;
      // Past 100 ids the nodes field itself fails (lookups.ts), reading nothing: other root fields keep their data.
      if (info.kind === "nodes") count = (args.ids as unknown[]).length > LIMITS.ids ? 0 : (args.ids as unknown[]).length;
      const [r, c] = walkAbstract(w, fns, 2);
      m.requested += count * (1 + r);
      m.counted += count * (1 + c);
    }
  }
  if (m.depth > LIMITS.depth) {
    fail("query_too_deep", {
      message: `The query nests ${m.depth} selection levels; the limit is ${LIMITS.depth}.`,
      hint: `Flatten the query to at most ${LIMITS.depth} levels.`,
    });
  }
  if (m.rootFields > LIMITS.entryRootFields) {
    fail("too_many_root_fields", { message: `The query has ${m.rootFields} entry root fields; the limit is ${LIMITS.entryRootFields}.` });
  }
  if (m.counted > LIMITS.budget) {
    fail("query_too_costly", {
      message: `The query could return ${m.counted} entries; the budget is ${LIMITS.budget}.`,
      hint: "Lower first or last on connections; a nested connection without first counts 10 for each entry above it.",
    });
  }
  return m;
}
