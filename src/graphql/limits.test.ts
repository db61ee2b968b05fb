// The cost budget and the other limits measured on an operation (decisions.md 5), as a table:
// a schema built from model definitions, a document, and what `measure` counts or refuses. Pure:
// no server, no reads; the server-side refusals are in test/graphql/errors.test.ts.
import { describe, expect, test } from "bun:test";
import { Kind, parse, type OperationDefinitionNode } from "graphql";
import { AppError } from "../errors.ts";
import type { FieldDef } from "../domain/models/fields.ts";
import { emptyMeasures, measure } from "./limits.ts";
import { fragmentsOf } from "./plan.ts";
import { buildSchema } from "./schema.ts";
import { fieldDef, modelDef } from "../../test/fixtures/model-defs.ts";

const field = (namespace: string, type: FieldDef["type"], extra: Partial<FieldDef> = {}) => fieldDef(namespace, type, extra);
const model = (namespace: string, fields: FieldDef[]) => modelDef(namespace, fields);

const author = model("author", [field("name", "string")]);
const post = model("post", [
  field("title", "string"),
  field("author", "relation", { relation: author.id }),
  field("authors", "array", { arrayType: "relation", relation: author.id }),
]);
author.fields.push(field("posts", "array", { arrayType: "relation", relation: post.id }));
const built = buildSchema([author, post]);

/** The measures of a document, or the code and message of its refusal. */
function measured(source: string, variables: Record<string, unknown> = {}) {
  const doc = parse(source);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const m = emptyMeasures();
  try {
    measure(built, op, fragmentsOf(doc), variables, m);
    return { requested: m.requested, counted: m.counted, depth: m.depth, rootFields: m.rootFields, connections: m.connections };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { code: e.code, message: e.message };
  }
}

describe("the cost of a document", () => {
  const cases: [string, string, ReturnType<typeof measured>][] = [
    ["a root list: first defaults to 25", "{ post { nodes { title } } }", { requested: 25, counted: 25, depth: 3, rootFields: 1, connections: 1 }],
    ["first written", "{ post(first: 10) { nodes { title } } }", { requested: 10, counted: 10, depth: 3, rootFields: 1, connections: 1 }],
    [
      "a single relation adds one per entry",
      "{ post(first: 10) { nodes { author { name } } } }",
      { requested: 20, counted: 20, depth: 4, rootFields: 1, connections: 1 },
    ],
    [
      "a nested list without first: 100 requested, 10 counted, per entry above it",
      "{ post(first: 10) { nodes { authors { nodes { name } } } } }",
      { requested: 1010, counted: 110, depth: 5, rootFields: 1, connections: 2 },
    ],
    [
      "a nested list with first written counts it",
      "{ post(first: 10) { nodes { authors(first: 3) { nodes { name } } } } }",
      { requested: 40, counted: 40, depth: 5, rootFields: 1, connections: 2 },
    ],
    ["a single root is one", `{ postById(id: "${post.id}") { title } }`, { requested: 1, counted: 1, depth: 2, rootFields: 1, connections: 0 }],
    ["version and me cost nothing", "{ version me { keyId } }", { requested: 0, counted: 0, depth: 2, rootFields: 0, connections: 0 }],
    ["introspection costs nothing", "{ __schema { types { name } } }", { requested: 0, counted: 0, depth: 1, rootFields: 0, connections: 0 }],
    [
      "over the budget: refused with the measured value and the limit",
      "{ post(first: 200) { nodes { authors(first: 30) { nodes { name } } } } }",
      { code: "query_too_costly", message: "The query could return 6200 entries; the budget is 5000." },
    ],
    [
      "more than 10 entry root fields",
      `{ ${Array.from({ length: 11 }, (_, i) => `r${i}: post(first: 1) { nodes { title } }`).join(" ")} }`,
      { code: "too_many_root_fields", message: "The query has 11 entry root fields; the limit is 10." },
    ],
    [
      "deeper than 12 selection levels",
      "{ post(first: 1) { nodes { author { posts(first: 1) { nodes { author { posts(first: 1) { nodes { author { posts(first: 1) { nodes { author { name } } } } } } } } } } } } }",
      { code: "query_too_deep", message: "The query nests 13 selection levels; the limit is 12." },
    ],
    ["first out of range", "{ post(first: 0) { nodes { title } } }", { code: "invalid_limit", message: "first must be from 1 to 200; got 0." }],
  ];
  for (const [name, source, want] of cases) test(name, () => expect(measured(source)).toEqual(want));

  test("a first bound to a variable counts the variable's value; an unsent one the default", () => {
    const q = "query($n: Int) { post(first: $n) { nodes { title } } }";
    expect(measured(q, { n: 7 })).toMatchObject({ requested: 7, counted: 7 });
    expect(measured(q)).toMatchObject({ requested: 25, counted: 25 });
  });
});
