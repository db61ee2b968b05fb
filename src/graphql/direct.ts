// A planned operation's `data` without graphql-js's general executor. graphql-js completes every
// field through a path, an info object, promise checks and error handling meant for any schema;
// for a 25-entry list that is most of the main thread's work of a GraphQL read (about 90 us of
// 190, docs/performance.md), against about 100 for the same REST read. Our schema's values are
// plain objects the reads made, so the operation is compiled once per plan (plan.ts) into
// functions that call the same resolvers with the same arguments and serialize leaves with the
// same scalars, in the order collectFields gives. Anything such a function does not expect
// (a null where the type says non-null, a thrown error, a promise, a root field that failed, an
// abstract type, introspection) makes it give up, and graphql-js answers instead, errors
// included: the fast path never has to reproduce an error, only a plain answer.
import {
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { collectFields, collectSubfields } from "graphql/execution/collectFields.js";
import { getArgumentValues } from "graphql/execution/values.js";
import type { ExecContext } from "./execute.ts";

type Json = Record<string, unknown>;
type Resolver = (src: unknown, args: Json, ctx: ExecContext, info: unknown) => unknown;
type Complete = (v: unknown, ctx: ExecContext) => unknown;

/** Runs a compiled operation against its root value; null when graphql-js must answer instead. */
export type Direct = (root: Json, ctx: ExecContext) => Json | null;

/** Thrown inside a compiled operation (or its compilation) to hand the work to graphql-js. */
const GIVE_UP = Symbol("give up");
const giveUp = (): never => {
  throw GIVE_UP;
};

interface Step {
  key: string;
  name: string;
  /** `__typename`: the parent type's name, fixed. */
  fixed?: string;
  resolve?: Resolver;
  args: Json;
  /** What resolvers see as `info`: ours read no more than the field's name and response key. */
  info: { fieldName: string; path: { prev: undefined; key: string; typename: string } };
  complete: Complete;
}

interface Compile {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Json;
}

function steps(c: Compile, type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>): Step[] {
  const out: Step[] = [];
  for (const [key, nodes] of fields) {
    const name = nodes[0]!.name.value;
    const info = { fieldName: name, path: { prev: undefined, key, typename: type.name } };
    if (name === "__typename") {
      out.push({ key, name, fixed: type.name, args: {}, info, complete: (v) => v });
      continue;
    }
    const def = type.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
    // Introspection (__schema, __type) and anything validation would not have let through.
    if (!def) giveUp();
    out.push({
      key,
      name,
      resolve: def!.resolve as Resolver | undefined,
      args: getArgumentValues(def!, nodes[0]!, c.variables),
      info,
      complete: completer(c, def!.type, nodes),
    });
  }
  return out;
}

/** Runs the steps of one object: each field resolved as graphql-js would, then completed. */
function runSteps(list: Step[], src: Json, ctx: ExecContext): Json {
  // graphql-js builds `data` objects without a prototype; JSON.stringify prints them alike.
  const out = Object.create(null) as Json;
  for (const s of list) {
    if (s.fixed !== undefined) {
      out[s.key] = s.fixed;
      continue;
    }
    let r: unknown;
    if (s.resolve) r = s.resolve(src, s.args, ctx, s.info);
    else {
      // graphql-js's default resolver: the property, or a method called (none of ours are).
      r = src[s.name];
      if (typeof r === "function") giveUp();
    }
    if (r instanceof Error || (r !== null && typeof r === "object" && typeof (r as { then?: unknown }).then === "function")) giveUp();
    out[s.key] = s.complete(r, ctx);
  }
  return out;
}

function completer(c: Compile, type: GraphQLOutputType, nodes: readonly FieldNode[]): Complete {
  if (isNonNullType(type)) {
    const inner = completer(c, type.ofType, nodes);
    // A null here is a field error that nulls the nearest nullable parent: graphql-js says it.
    return (v, ctx) => (v == null ? giveUp() : inner(v, ctx));
  }
  if (isListType(type)) {
    const inner = completer(c, type.ofType, nodes);
    return (v, ctx) => {
      if (v == null) return null;
      if (!Array.isArray(v)) return giveUp();
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = inner(v[i], ctx);
      return out;
    };
  }
  if (isLeafType(type)) {
    return (v) => {
      if (v == null) return null;
      const out = type.serialize(v);
      return out == null ? giveUp() : out;
    };
  }
  // Node and Entry (entry, node, nodes) pick their type per value: left to graphql-js.
  if (isAbstractType(type)) return giveUp();
  const obj = type as GraphQLObjectType;
  if (obj.isTypeOf) return giveUp();
  const list = steps(c, obj, collectSubfields(c.schema, c.fragments, c.variables, obj, nodes));
  return (v, ctx) => (v == null ? null : runSteps(list, v as Json, ctx));
}

/**
 * Compiles an operation with its coerced variables for the direct path, or null when it uses
 * what only graphql-js does (abstract types, introspection).
 */
export function compileDirect(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Json,
): Direct | null {
  const c: Compile = { schema, fragments, variables };
  const query = schema.getQueryType()!;
  let root: Step[];
  try {
    root = steps(c, query, collectFields(schema, fragments, variables, query, op.selectionSet));
  } catch (e) {
    if (e === GIVE_UP) return null;
    throw e;
  }
  return (value, ctx) => {
    try {
      return runSteps(root, value, ctx);
    } catch {
      // Whatever went wrong, graphql-js runs the operation again and says it in `errors`.
      return null;
    }
  };
}
