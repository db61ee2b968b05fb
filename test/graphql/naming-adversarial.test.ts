// Issue 22, item 1: no model namespace can break a project's GraphQL. Namespaces made from every
// name the fixed schema holds (in kebab case, as stems of the shared filters, with -model, -filter
// and -connection endings, with leading digits, and in pairs that normalize to one name): each
// alone builds a valid schema that introspects into graphql's buildClientSchema, and all of them
// in one project answer `{ version }` with 200 through the real server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildClientSchema, getIntrospectionQuery, graphqlSync, type GraphQLObjectType, isIntrospectionType, validateSchema } from "graphql";
import type { Model } from "../../src/domain/models/catalog.ts";
import { derivedNames, FIXED_TYPE_NAMES, nameModels } from "../../src/graphql/naming.ts";
import { buildNamed, buildSchema } from "../../src/graphql/schema.ts";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { fieldDef, modelDef } from "../fixtures/model-defs.ts";

const kebab = (name: string) =>
  name
    .replace(/([A-Z])/g, "-$1")
    .toLowerCase()
    .replace(/^-/, "");

/** The fixed schema's type names that a namespace could spell (not introspection's `__` names). */
const SHARED = [...FIXED_TYPE_NAMES].filter((n) => !n.startsWith("__"));

/** Adversarial namespaces: every shared name as kebab, as a stem before a derived ending, with endings and digits. */
function adversarial(): string[] {
  const out = new Set<string>();
  for (const name of SHARED) {
    const k = kebab(name);
    out.add(k);
    for (const end of ["Filter", "ListFilter", "Connection", "Edge", "Sort"])
      if (name.endsWith(end) && name !== end) out.add(kebab(name.slice(0, -end.length)));
    for (const suffix of ["-model", "-filter", "-connection", "-relation", "-relation-list", "-edge", "-sort"]) out.add(k + suffix);
    out.add(`2-${k}`);
    out.add(k.replace(/-/g, "_"));
  }
  for (const x of ["__schema", "__type", "query", "mutation", "subscription", "node", "entry", "model", "model-model", "key", "key-model", "1", "9-lives"])
    out.add(x);
  return [...out];
}

/** A model with a title, a list of mixed values (it filters with the shared PresenceFilter, so that name is in every schema) and, given one, a relation. */
const model = (namespace: string, relation: string | null = null): Model =>
  modelDef(namespace, [
    fieldDef("title"),
    fieldDef("extras", "array", { arrayType: "mixed" }),
    ...(relation ? [fieldDef("rel", "relation", { relation })] : []),
  ]);

/** Builds, validates and introspects a schema; returns the model type names and the Query description. */
function roundTrip(models: Model[]) {
  const b = buildSchema(models);
  expect(validateSchema(b.schema)).toEqual([]);
  const r = graphqlSync({ schema: b.schema, source: getIntrospectionQuery({ descriptions: true }) });
  expect(r.errors).toBeUndefined();
  const client = buildClientSchema(r.data as never);
  return { b, client };
}

describe("each adversarial namespace alone", () => {
  const list = adversarial();

  test("the list is long and holds the reported names", () => {
    expect(list.length).toBeGreaterThan(300);
    for (const ns of ["presence", "string-list", "relation-i-d", "presence-filter", "page-info-connection", "media-kind-model", "2-media"])
      expect(list).toContain(ns);
  });

  test("builds a valid schema that introspects, exposes the model and brings no fixed name", () => {
    const failures: string[] = [];
    for (const ns of list) {
      const { b, client } = roundTrip([model(ns)]);
      const mn = b.naming.models[0];
      if (!mn) {
        failures.push(`${ns}: left out`);
        continue;
      }
      for (const name of derivedNames(mn.type)) if (FIXED_TYPE_NAMES.has(name)) failures.push(`${ns}: ${name}`);
      // The model's own type is in the client schema, with its title field.
      const t = client.getType(mn.type) as GraphQLObjectType | undefined;
      if (!t?.getFields().title) failures.push(`${ns}: no ${mn.type}.title`);
    }
    expect(failures).toEqual([]);
  });

  test("the reported names get the Model suffix on every derived name", () => {
    const types = (ns: string) => nameModels([model(ns)]).models[0]!.type;
    expect(types("presence")).toBe("PresenceModel");
    expect(types("string-list")).toBe("StringListModel");
    expect(types("relation-i-d")).toBe("RelationIDModel");
    expect(types("media-transform")).toBe("MediaTransformModel");
    expect(types("date-time-list")).toBe("DateTimeListModel");
    // A name that brings no fixed name keeps its own.
    expect(types("presences")).toBe("Presences");
    const { client } = roundTrip([model("presence")]);
    const presenceTypes = Object.keys(client.getTypeMap()).filter((x) => x.startsWith("Presence") && !isIntrospectionType(client.getType(x)!));
    // The relation types appear only when a relation points at the model.
    expect(presenceTypes.sort()).toEqual([
      "PresenceFilter",
      "PresenceModel",
      "PresenceModelConnection",
      "PresenceModelEdge",
      "PresenceModelFilter",
      "PresenceModelSort",
    ]);
  });
});

describe("adversarial namespaces together", () => {
  test("pairs that normalize to one name, and names that derive another's names, leave a valid schema", () => {
    const pairs = [
      ["presence-filter", "presence_filter"],
      ["blog-post", "blogPost"],
      // `Post` brings PostEdge, PostFilter, ...; these get the Model suffix, so nothing is shared.
      ["post", "post-edge", "post-filter", "post-relation", "post-relation-list", "post-sort", "post-connection"],
      // Fallback names that could derive each other's: a, A, aFilter, AFilter.
      ["a", "A", "aFilter", "AFilter"],
    ];
    for (const group of pairs) {
      const models: Model[] = [];
      for (const ns of group) models.push(model(ns, models[0]?.id ?? null));
      const { b } = roundTrip(models);
      const all = new Set([...b.naming.models.map((m) => m.model.namespace), ...b.naming.leftOut]);
      expect(all).toEqual(new Set(group));
    }
  });

  test("every adversarial namespace in one schema", () => {
    const list = adversarial();
    const models: Model[] = [];
    for (const ns of list) models.push(model(ns, models.length % 3 === 1 ? models[models.length - 1]!.id : null));
    const { b } = roundTrip(models);
    expect(b.naming.models.length + b.naming.leftOut.length).toBe(list.length);
    // Only twins that normalize to one name (`page-info`, `page_info`) are left out, both of them.
    const twin = (ns: string) => (ns.includes("-") ? ns.replace(/-/g, "_") : ns.replace(/_/g, "-"));
    expect(b.naming.leftOut.filter((ns) => !b.naming.leftOut.includes(twin(ns)))).toEqual([]);
    expect(b.naming.leftOut).toContain("presence-filter");
    expect(b.naming.leftOut).not.toContain("presence");
  });

  test("last guard: a model whose types cannot be built is left out and named; the rest keeps working", () => {
    const post = model("post");
    const article = model("article", post.id);
    const naming = nameModels([post, article]);
    // Force the failure the naming rules prevent: two models with one type name.
    naming.models[1]!.type = "Post";
    const b = buildNamed([post, article], naming);
    expect(validateSchema(b.schema)).toEqual([]);
    expect(b.naming.models.map((m) => m.model.namespace)).toEqual(["post"]);
    expect(b.naming.leftOut).toEqual(["article"]);
    expect(b.schema.getQueryType()!.description).toEndWith("\n\nModels not exposed in GraphQL: article");
    const r = graphqlSync({ schema: b.schema, source: "{ version }", rootValue: { version: "2026-10-01" } });
    expect(r).toEqual({ data: { version: "2026-10-01" } });
  });
});

describe("through the real server", () => {
  let h: Harness;
  let key: string;
  let token: string;
  beforeAll(async () => {
    h = startApp();
    const o = await withOwner(h);
    token = o.token;
    key = (await h.json("POST", "/v2/tenants/api-keys", { token, body: { scopes: ["instance:read"], environment: "development" } })).body.apiKey;
  });
  afterAll(() => h.close());

  const gql = (query: string) => h.json("POST", "/api/graphql", { headers: { "x-api-key": key }, body: { query } });

  test("a model named presence: { version } is 200 and its list reads", async () => {
    const created = await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Presence",
        namespace: "presence",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "extras", type: "array", arrayType: "mixed" },
        ],
      },
    });
    expect(created.status).toBe(201);
    const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "presence", data: { title: "Here" } } });
    expect(e.status).toBe(201);
    const r = await gql('{ version presence(first: 5, filter: { title: { eq: "Here" } }) { nodes { __typename title } } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ version: "2026-10-01", presence: { nodes: [{ __typename: "PresenceModel", title: "Here" }] } });
  });

  test("every adversarial namespace in one project: { version } is 200 and introspection builds a client schema", async () => {
    const list = adversarial();
    for (const ns of list) {
      if (ns === "presence") continue;
      const r = await h.json("POST", "/v2/models", { token, body: { name: ns, namespace: ns, fields: [{ namespace: "title", type: "string" }] } });
      expect([ns, r.status]).toEqual([ns, 201]);
    }
    const v = await gql("{ version }");
    expect(v.status).toBe(200);
    expect(v.body.data).toEqual({ version: "2026-10-01" });
    const intro = await gql(getIntrospectionQuery({ descriptions: true }));
    expect(intro.status).toBe(200);
    expect(intro.body.errors).toBeUndefined();
    const client = buildClientSchema(intro.body.data);
    expect(client.getType("PresenceModel")).toBeDefined();
    expect(client.getType("PresenceFilter")).toBeDefined();
  });
});
