// The naming rules (interface.md, "Naming rules"; decisions.md 9) as a table: model namespaces in,
// the SDL of the types and roots out. Pure: the schema is built from model definitions alone.
import { describe, expect, test } from "bun:test";
import { type GraphQLObjectType, printType } from "graphql";
import type { FieldDef } from "../domain/models/fields.ts";
import { buildSchema } from "./schema.ts";
import { nameFields } from "./naming.ts";
import { fieldDef, modelDef } from "../../test/fixtures/model-defs.ts";

const field = (namespace: string, type: FieldDef["type"] = "string") => fieldDef(namespace, type);
const model = (namespace: string, fields?: FieldDef[]) => modelDef(namespace, fields);

/** The model type names and the entry roots of a schema built from these namespaces. */
function names(namespaces: string[]) {
  const b = buildSchema(namespaces.map((ns) => model(ns)));
  const roots = Object.keys(b.schema.getQueryType()!.getFields()).filter((r) => !["entry", "node", "nodes", "version", "me"].includes(r));
  return { types: b.naming.models.map((m) => m.type), roots, leftOut: b.naming.leftOut, query: b.schema.getQueryType()!.description };
}

describe("types and roots", () => {
  const cases: [string[], string[], string[], string[]][] = [
    // namespaces, types, roots (list, single per model), left out
    [["blog-posts"], ["BlogPosts"], ["blogPosts", "blogPost"], []],
    [["2024-reports"], ["_2024Reports"], ["_2024Reports", "_2024Report"], []],
    [["people"], ["People"], ["people", "person"], []],
    [["news"], ["News"], ["news", "newsById"], []],
    [["post", "posts"], ["Post", "Posts"], ["post", "postById", "posts", "postsById"], []],
    [["blog-post", "blogPost"], ["Model_blog_post", "Model_blogPost"], ["model_blog_post", "model_blog_postById", "model_blogPost", "model_blogPostById"], []],
    [["a-b", "a_b", "aB"], ["Model_aB"], ["model_aB", "model_aBById"], ["a-b", "a_b"]],
    [["_", "-"], [], [], ["_", "-"]],
    [
      ["query", "string-filter", "page-info", "user-edge", "tag-relation", "tag-relation-list"],
      ["QueryModel", "StringFilterModel", "PageInfoModel", "UserEdgeModel", "TagRelationModel", "TagRelationListModel"],
      [
        "query",
        "queryById",
        "stringFilter",
        "stringFilterById",
        "pageInfo",
        "pageInfoById",
        "userEdge",
        "userEdgeById",
        "tagRelation",
        "tagRelationById",
        "tagRelationList",
        "tagRelationListById",
      ],
      [],
    ],
    [
      ["entry", "entries", "media", "search", "schema", "contract", "me", "version", "node", "nodes"],
      ["EntryModel", "Entries", "MediaModel", "Search", "Schema", "Contract", "Me", "Version", "NodeModel", "Nodes"],
      [
        "entryList",
        "entryListById",
        "entriesList",
        "entriesListById",
        "mediaList",
        "mediaListById",
        "searchList",
        "searchListById",
        "schemaList",
        "schemaListById",
        "contractList",
        "contractListById",
        "meList",
        "meListById",
        "versionList",
        "versionListById",
        "nodeList",
        "nodeListById",
        "nodesList",
        "nodesListById",
      ],
      [],
    ],
    [["post", "post-model"], ["Post", "PostModel"], ["post", "postById", "postModel", "postModelById"], []],
    // entries gets entriesList, which entries-list derives too: both become Model_<namespace>.
    [
      ["entries", "entries-list"],
      ["Model_entries", "Model_entries_list"],
      ["model_entries", "model_entry", "model_entries_list", "model_entries_listById"],
      [],
    ],
  ];
  for (const [namespaces, types, roots, leftOut] of cases) {
    test(namespaces.join(", "), () => {
      expect(names(namespaces)).toEqual({
        types,
        roots,
        leftOut,
        query: expect.stringMatching(leftOut.length ? new RegExp(`\\n\\nModels not exposed in GraphQL: ${leftOut.join(", ")}$`) : /REST routes\.$/),
      });
    });
  }
});

describe("fields", () => {
  test("system names get _field, unusable characters become _, clashes and $ fields are left out", () => {
    const defs = ["title", "id", "status", "_version", "tags", "version", "odd,name", "2nd", "a-b", "a_b", "$secret", "__x", "émoji", "createdAt_field"].map(
      (x) => field(x),
    );
    const r = nameFields(defs);
    expect(r.fields.map((x) => [x.field.namespace, x.name])).toEqual([
      ["title", "title"],
      ["id", "id_field"],
      ["status", "status_field"],
      ["_version", "_version_field"],
      ["tags", "tags"],
      ["version", "version"],
      ["odd,name", "odd_name"],
      ["2nd", "_nd"],
      ["émoji", "_moji"],
      ["createdAt_field", "createdAt_field"],
    ]);
    expect(r.notExposed).toEqual(["a-b", "a_b", "__x"]);
  });

  test("a clash created by the _field suffix leaves both out", () => {
    const r = nameFields([field("createdAt"), field("createdAt_field"), field("title")]);
    expect(r.fields.map((x) => x.name)).toEqual(["title"]);
    expect(r.notExposed).toEqual(["createdAt", "createdAt_field"]);
  });

  test("the model type in SDL", () => {
    const b = buildSchema([model("note", [field("title"), field("id"), field("$hidden"), field("x-y"), field("x_y")])]);
    expect(
      printType(b.schema.getType("Note") as GraphQLObjectType)
        .split("\n")
        .filter((l) => /^ {2}\w+: /.test(l))
        .map((l) => l.trim()),
    ).toEqual([
      "id: ID!",
      "model: String!",
      "status: EntryStatus!",
      "createdAt: DateTime!",
      "updatedAt: DateTime!",
      "publishedAt: DateTime",
      "_version: Int!",
      "_tags: [String!]!",
      "_folder: ID",
      "title: String",
      "id_field: String",
    ]);
    expect(b.schema.getType("Note")!.description).toBe("note (model note)\nNot exposed: x-y, x_y");
  });
});
