// PATCH /v2/models/:id { fieldOrder }: the order of a model's fields (issue 14 item 1). The order
// is what GET /v2/models/:id lists and what a REST read writes customer fields in
// (decisions.md section 3, "customer fields in model order") and the GraphQL schema's field order.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

describe("PATCH /v2/models/:id fieldOrder", () => {
  let h: Harness;
  let token: string;
  let projectId: string;
  let devKey: string;
  let entryId: string;
  let model: { id: string; version: number; fields: { id: string; namespace: string }[] };
  const ids = (ns: string[]) => ns.map((n) => model.fields.find((f) => f.namespace === n)!.id);
  /** The customer fields of the GraphQL type Post, in the schema's order. */
  const graphqlFields = async () => {
    const r = await h.json("POST", "/api/graphql", {
      headers: { "x-api-key": devKey },
      body: { query: 'query Q { __type(name: "Post") { fields { name } } }', operationName: "Q" },
    });
    const names = (r.body.data.__type.fields as { name: string }[]).map((f) => f.name);
    return names.slice(names.indexOf("_folder") + 1);
  };
  const read = () => h.json("GET", `/api/entries/post/${entryId}`, { headers: { "x-api-key": devKey } });
  const lastPublished = () => {
    const p = h.capa.services.projects.get(projectId);
    const row = p.sqlite.query("SELECT body FROM events WHERE type = 'model.published' ORDER BY seq DESC LIMIT 1").get() as { body: string };
    return JSON.parse(row.body).data;
  };

  beforeAll(async () => {
    h = startApp();
    const owner = await withOwner(h);
    token = owner.token;
    projectId = owner.project.id;
    const m = await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "body", type: "markdown" },
          { namespace: "price", type: "number" },
        ],
      },
    });
    expect(m.status).toBe(201);
    model = m.body;
    const k = await h.json("POST", "/v2/tenants/api-keys", { token, body: { name: "dev", environment: "development", scopes: ["instance:read"] } });
    devKey = k.body.apiKey;
    const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Hello", body: "# Hi", price: 3 } } });
    expect(e.status).toBe(201);
    entryId = e.body.id;
  });
  afterAll(() => h.close());

  test("the REST read lists customer fields in model order before any change", async () => {
    const r = await read();
    expect(r.status).toBe(200);
    const keys = Object.keys(r.body.data);
    expect(keys.slice(keys.indexOf("folder") + 1)).toEqual(["title", "body", "price"]);
  });

  test("a new order is a new model version, listed by GET, used by REST reads and the GraphQL schema, and emits model.published", async () => {
    // Read once so the render cache and the schema hold the old order; the change must drop both.
    await read();
    expect(await graphqlFields()).toEqual(["title", "body", "price"]);
    const order = ids(["price", "title", "body"]);
    const r = await h.json("PATCH", `/v2/models/${model.id}`, { token, body: { fieldOrder: order } });
    expect(r.status).toBe(200);
    expect(r.body.fields.map((f: { id: string }) => f.id)).toEqual(order);
    expect(r.body.version).toBe(model.version + 1);
    const got = await h.json("GET", `/v2/models/${model.id}`, { token });
    expect(got.body.fields.map((f: { namespace: string }) => f.namespace)).toEqual(["price", "title", "body"]);
    expect(got.body.version).toBe(model.version + 1);
    expect(lastPublished()).toEqual({ modelId: model.id, modelNamespace: "post", version: model.version + 1, name: "Post" });
    const rest = await read();
    const keys = Object.keys(rest.body.data);
    expect(keys.slice(keys.indexOf("folder") + 1)).toEqual(["price", "title", "body"]);
    expect(rest.body.data).toMatchObject({ price: 3, title: "Hello", body: "# Hi" });
    expect(await graphqlFields()).toEqual(["price", "title", "body"]);
    model = got.body;
  });

  test("one PATCH can add a field and place it first; the order names it by the id sent", async () => {
    const newId = "0b8f6f0e-1c1a-4b7a-9d55-2a4f1f1f0a01";
    const order = [newId, ...model.fields.map((f) => f.id)];
    const r = await h.json("PATCH", `/v2/models/${model.id}`, {
      token,
      body: { addFields: [{ id: newId, namespace: "subtitle", type: "string" }], fieldOrder: order },
    });
    expect(r.status).toBe(200);
    expect(r.body.fields.map((f: { namespace: string }) => f.namespace)).toEqual(["subtitle", "price", "title", "body"]);
    // Removing a field and ordering the rest in one PATCH.
    const rest = ids(["title", "body"]);
    const r2 = await h.json("PATCH", `/v2/models/${model.id}`, { token, body: { removeIds: [newId], fieldOrder: [...rest, ids(["price"])[0]] } });
    expect(r2.status).toBe(200);
    expect(r2.body.fields.map((f: { namespace: string }) => f.namespace)).toEqual(["title", "body", "price"]);
    model = r2.body;
  });

  const [missing, twice, stranger, notList] = [0, 1, 2, 3];
  test.each([
    ["leaves a field out", missing],
    ["names a field twice", twice],
    ["names a field that is not the model's", stranger],
    ["is not a list", notList],
  ])("an order that %s is 400 invalid_body naming fieldOrder, and nothing changes", async (_what, which) => {
    const before = await h.json("GET", `/v2/models/${model.id}`, { token });
    const all = model.fields.map((f) => f.id);
    const f = model.fields;
    const bodies: unknown[] = [all.slice(0, 2), [all[0], all[0], all[1]], [...all.slice(0, 2), "7d1f6f0e-1c1a-4b7a-9d55-2a4f1f1f0a02"], all.join(",")];
    const messages = [
      `fieldOrder must name every field of the model once; it leaves out ${f[2]!.id}`,
      `fieldOrder names the field ${all[0]} twice`,
      'fieldOrder names "7d1f6f0e-1c1a-4b7a-9d55-2a4f1f1f0a02", which is not a field of this model after this change',
      "fieldOrder must be a list of the model's field ids",
    ];
    const r = await h.json("PATCH", `/v2/models/${model.id}`, { token, body: { name: "Renamed", fieldOrder: bodies[which] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: messages[which], code: "invalid_body", field: "fieldOrder" });
    const after = await h.json("GET", `/v2/models/${model.id}`, { token });
    expect(after.body).toEqual(before.body);
  });

  test("an order naming a field the same PATCH removes is refused and the field stays", async () => {
    const [a, b, c] = model.fields.map((f) => f.id);
    const r = await h.json("PATCH", `/v2/models/${model.id}`, { token, body: { removeIds: [c], fieldOrder: [c, b, a] } });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe("fieldOrder");
    const after = await h.json("GET", `/v2/models/${model.id}`, { token });
    expect(after.body.fields.map((f: { id: string }) => f.id)).toEqual([a, b, c]);
  });
});
