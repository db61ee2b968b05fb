// The direct path against graphql-js on one small schema: the same data, the same resolver calls
// (the context's count and missing ids, in order), and a give-up (null) for everything it leaves
// to graphql-js.
import { expect, test } from "bun:test";
import {
  execute,
  type ExecutionResult,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  parse,
  validate,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from "graphql";
import { compileDirect } from "./direct.ts";
import type { ExecContext } from "./execute.ts";

const Kindy = new GraphQLEnumType({ name: "Kindy", values: { NEWS: { value: "news" }, NOTE: { value: "note" } } });
const Named = new GraphQLInterfaceType({ name: "Named", fields: { name: { type: GraphQLString } }, resolveType: () => "Author" });
const Author = new GraphQLObjectType({
  name: "Author",
  interfaces: [Named],
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    name: {
      type: GraphQLString,
      args: { upper: { type: GraphQLString } },
      resolve: (a: Record<string, unknown>, args: { upper?: string | null }, ctx: ExecContext) => {
        ctx.actual++;
        if (a.name === null) ctx.missing.add(String(a.id));
        return args.upper === "yes" && typeof a.name === "string" ? a.name.toUpperCase() : a.name;
      },
    },
    broken: {
      type: GraphQLString,
      resolve: () => {
        throw new Error("broken");
      },
    },
    later: { type: GraphQLString, resolve: () => Promise.resolve("later") },
  },
});
const Post = new GraphQLObjectType({
  name: "Post",
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    title: { type: GraphQLString },
    price: { type: GraphQLFloat },
    kind: { type: Kindy },
    tags: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))) },
    author: { type: Author },
    named: { type: Named, resolve: (p: Record<string, unknown>) => p.author },
  },
});
const fromRoot = (src: Record<string, unknown>, _a: unknown, _c: unknown, info: { path: { key: string | number } }) => src[info.path.key as string];
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: { posts: { type: new GraphQLList(Post), resolve: fromRoot }, version: { type: new GraphQLNonNull(GraphQLString), resolve: fromRoot } },
  }),
});

const posts = [
  { id: 1, title: "One", price: 10, kind: "news", tags: ["a", "b"], author: { id: "u1", name: "Ann" } },
  { id: "2", title: null, price: 2.5, kind: "note", tags: [], author: { id: "u2", name: null } },
  { id: "3", title: "Three", price: null, kind: null, tags: ["c"], author: null },
];

function both(query: string, root: Record<string, unknown>, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const direct = compileDirect(schema, op, fragments, variables);
  const dctx: ExecContext = { actual: 0, missing: new Set() };
  const data = direct?.(root, dctx) ?? null;
  const gctx: ExecContext = { actual: 0, missing: new Set() };
  const result = execute({ schema, document, rootValue: root, contextValue: gctx, variableValues: variables }) as ExecutionResult;
  return { compiled: direct !== null, data, dctx, result, gctx };
}

test("aliases, fragments, @skip and @include, __typename, enums, lists and nulls: the data graphql-js gives, key order included", () => {
  const q = `query Q($up: String, $skip: Boolean!) {
    v: version
    posts { ...P id2: id __typename author @include(if: true) { name(upper: $up) id } t: title @skip(if: $skip) }
  }
  fragment P on Post { id title price kind tags author { id } }`;
  // Root values sit under their response keys, as answer.ts puts them.
  const r = both(q, { posts, v: "2026-01-01" }, { up: "yes", skip: false });
  expect(r.compiled).toBe(true);
  expect(r.result.errors).toBeUndefined();
  expect(JSON.stringify(r.data)).toBe(JSON.stringify(r.result.data));
  // Numbers as IDs become strings, as graphql-js serializes them.
  expect((r.data as { posts: { id: string }[] }).posts[0]!.id).toBe("1");
  expect([r.dctx.actual, [...r.dctx.missing]]).toEqual([r.gctx.actual, [...r.gctx.missing]]);
  expect([r.dctx.actual, [...r.dctx.missing]]).toEqual([2, ["u2"]]);
});

test("gives up (null) where graphql-js reports an error, and graphql-js then says it", () => {
  const cases: [string, Record<string, unknown>, number][] = [
    ["{ posts { id } }", { posts: [{ id: null, tags: [] }] }, 1],
    ["{ posts { tags } }", { posts: [{ id: "1", tags: ["a", null] }] }, 1],
    ["{ posts { author { broken } } }", { posts }, 2],
    ["{ posts { title } version }", { posts }, 1],
    ["{ posts { kind } }", { posts: [{ id: "1", tags: [], kind: "other" }] }, 1],
  ];
  for (const [q, root, errors] of cases) {
    const r = both(q, root);
    expect(r.compiled).toBe(true);
    expect(r.data).toBeNull();
    expect(r.result.errors?.length).toBe(errors);
  }
});

test("gives up on what only graphql-js does: promises, abstract types, introspection", () => {
  const later = both("{ posts { author { later } } }", { posts });
  expect([later.compiled, later.data]).toEqual([true, null]);
  expect(both("{ posts { named { name } } }", { posts }).compiled).toBe(false);
  expect(both("{ __schema { queryType { name } } }", {}).compiled).toBe(false);
});
