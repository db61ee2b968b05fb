// Models under /v2/models and /v2/projects/resolve (interface.md, Model and Entry layouts;
// decisions.md section 3).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { addMember } from "../api/helpers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A field of every kind, scalar and array, as sent. */
const EVERY_KIND = [
  { namespace: "title", type: "string", label: "Title", required: true },
  { namespace: "body", type: "markdown" },
  { namespace: "rich", type: "html" },
  { namespace: "snippet", type: "code" },
  { namespace: "size", type: "enum", options: { values: ["s", "m", "l"] } },
  { namespace: "tint", type: "color" },
  { namespace: "price", type: "number" },
  { namespace: "onSale", type: "true_false" },
  { namespace: "launch", type: "date" },
  { namespace: "labels", type: "array", arrayType: "string" },
  { namespace: "scores", type: "array", arrayType: "number" },
  { namespace: "flags", type: "array", arrayType: "true_false" },
  { namespace: "days", type: "array", arrayType: "date" },
  { namespace: "sizes", type: "array", arrayType: "enum", options: { values: ["s", "m"] } },
  { namespace: "related", type: "array", arrayType: "relation", relation: "product" },
  { namespace: "gallery", type: "array", arrayType: "image" },
  { namespace: "clips", type: "array", arrayType: "video" },
  { namespace: "files", type: "array", arrayType: "file" },
  { namespace: "extras", type: "array", arrayType: "mixed" },
  { namespace: "maker", type: "relation", relation: "maker" },
  { namespace: "cover", type: "image" },
  { namespace: "clip", type: "video" },
  { namespace: "manual", type: "file" },
  { namespace: "meta", type: "mixed" },
];

describe("creating models", () => {
  let h: Harness;
  let token: string;
  let maker: any;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
    maker = (await h.json("POST", "/v2/models", { token, body: { name: "Maker", namespace: "maker", fields: [{ namespace: "name", type: "string" }] } })).body;
  });
  afterAll(() => h.close());

  test("a model with a field of every kind", async () => {
    const r = await h.json("POST", "/v2/models", {
      token,
      body: { name: "Product", namespace: "product", description: "Things we sell", fields: EVERY_KIND },
    });
    expect(r.status).toBe(201);
    const m = r.body;
    expect(m).toMatchObject({
      namespace: "product",
      name: "Product",
      description: "Things we sell",
      singleEntry: false,
      version: 1,
      layout: null,
      embedByDefault: false,
      createdAt: "2026-11-21T12:00:00.000Z",
      updatedAt: "2026-11-21T12:00:00.000Z",
    });
    expect(m.id).toMatch(UUID);
    expect(m.fields).toHaveLength(EVERY_KIND.length);
    EVERY_KIND.forEach((sent, i) => {
      const f = m.fields[i];
      expect(f.id).toMatch(UUID);
      expect(f).toEqual({
        id: f.id,
        namespace: sent.namespace,
        label: sent.label ?? null,
        type: sent.type,
        arrayType: sent.arrayType ?? null,
        // Relations are stored as the target's id, whether sent as namespace or id.
        relation: sent.relation === "product" ? m.id : sent.relation === "maker" ? maker.id : null,
        required: sent.required ?? false,
        options: sent.options ?? null,
      });
    });
    expect(new Set(m.fields.map((f: any) => f.id)).size).toBe(EVERY_KIND.length);
    const again = await h.json("GET", "/v2/models/product", { token });
    expect(again.body).toEqual(m);
  });

  test("GET /v2/models/:id takes id or namespace and carries layout null and embedByDefault", async () => {
    const byNs = await h.json("GET", "/v2/models/maker", { token });
    expect(byNs.status).toBe(200);
    expect(byNs.body).toMatchObject({ id: maker.id, layout: null, embedByDefault: false });
    expect("layout" in byNs.body && "embedByDefault" in byNs.body).toBe(true);
    const byId = await h.json("GET", `/v2/models/${maker.id.toUpperCase()}`, { token });
    expect(byId.body).toEqual(byNs.body);
    const missing = await h.json("GET", "/v2/models/nothing-here", { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", field: "id" });
  });

  test("embedByDefault and singleEntry are kept", async () => {
    const r = await h.json("POST", "/v2/models", { token, body: { name: "Settings", namespace: "settings", singleEntry: true, embedByDefault: true } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ singleEntry: true, embedByDefault: true, fields: [], layout: null });
  });

  test("relation by model id, and to the model itself by id", async () => {
    const r = await h.json("POST", "/v2/models", {
      token,
      body: { name: "Review", namespace: "review", fields: [{ namespace: "of", type: "relation", relation: maker.id.toUpperCase() }] },
    });
    expect(r.status).toBe(201);
    expect(r.body.fields[0].relation).toBe(maker.id);
  });

  const goodNamespaces = ["a", "x".repeat(64), "A_b-9", "Blog-Posts_2"];
  for (const ns of goodNamespaces) {
    test(`namespace accepted: ${ns.length > 10 ? `${ns.length} characters` : ns}`, async () => {
      const r = await h.json("POST", "/v2/models", { token, body: { name: "N", namespace: ns } });
      expect(r.status).toBe(201);
      expect(r.body.namespace).toBe(ns);
    });
  }

  const badNamespaces: [string, unknown][] = [
    ["empty", ""],
    ["65 characters", "y".repeat(65)],
    ["space", "blog posts"],
    ["dot", "blog.posts"],
    ["slash", "a/b"],
    ["non-ASCII", "café"],
    ["missing", undefined],
    ["not text", 12],
    ["__proto__", "__proto__"],
  ];
  for (const [name, ns] of badNamespaces) {
    test(`namespace refused: ${name}`, async () => {
      const r = await h.json("POST", "/v2/models", { token, body: { name: "N", namespace: ns } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field: "namespace" });
    });
  }

  test("a namespace already used: 409 namespace_taken; case makes it another namespace", async () => {
    const before = (await h.json("GET", "/v2/models", { token })).body.data.length;
    const r = await h.json("POST", "/v2/models", { token, body: { name: "Again", namespace: "maker" } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "A model with that namespace already exists.", code: "namespace_taken", field: "namespace" });
    expect((await h.json("GET", "/v2/models", { token })).body.data.length).toBe(before);
  });

  const ok = { namespace: "first", type: "string" };
  const badFields: [string, unknown, string][] = [
    ["no type", { namespace: "x" }, "fields[1].type"],
    ["unknown type", { namespace: "x", type: "text" }, "fields[1].type"],
    ["array without arrayType", { namespace: "x", type: "array" }, "fields[1].arrayType"],
    ["array of arrays", { namespace: "x", type: "array", arrayType: "array" }, "fields[1].arrayType"],
    ["arrayType on a scalar", { namespace: "x", type: "string", arrayType: "string" }, "fields[1].arrayType"],
    ["relation without target", { namespace: "x", type: "relation" }, "fields[1].relation"],
    ["relation to an unknown model", { namespace: "x", type: "relation", relation: "ghost" }, "fields[1].relation"],
    ["array of relation to an unknown model", { namespace: "x", type: "array", arrayType: "relation", relation: "ghost" }, "fields[1].relation"],
    ["relation on a text field", { namespace: "x", type: "string", relation: "maker" }, "fields[1].relation"],
    ["enum without values", { namespace: "x", type: "enum" }, "fields[1].options.values"],
    ["enum with an empty list", { namespace: "x", type: "enum", options: { values: [] } }, "fields[1].options.values"],
    ["enum value twice", { namespace: "x", type: "enum", options: { values: ["a", "a"] } }, "fields[1].options.values"],
    ["enum value not text", { namespace: "x", type: "enum", options: { values: ["a", 2] } }, "fields[1].options.values"],
    ["array of enum without values", { namespace: "x", type: "array", arrayType: "enum" }, "fields[1].options.values"],
    ["options not an object", { namespace: "x", type: "string", options: "big" }, "fields[1].options"],
    ["no namespace", { type: "string" }, "fields[1].namespace"],
    ["empty namespace", { namespace: "", type: "string" }, "fields[1].namespace"],
    ["namespace of 65 characters", { namespace: "n".repeat(65), type: "string" }, "fields[1].namespace"],
    ["namespace with an edge space", { namespace: " x", type: "string" }, "fields[1].namespace"],
    ["namespace used twice", { namespace: "first", type: "number" }, "fields[1].namespace"],
    ["namespace __proto__ (it would vanish from entry reads)", { namespace: "__proto__", type: "mixed" }, "fields[1].namespace"],
    ["required not boolean", { namespace: "x", type: "string", required: "yes" }, "fields[1].required"],
    ["unknown property", { namespace: "x", type: "string", colour: "red" }, "fields[1].colour"],
    ["id not a UUID", { id: "abc", namespace: "x", type: "string" }, "fields[1].id"],
    ["label too long", { namespace: "x", type: "string", label: "l".repeat(201) }, "fields[1].label"],
    ["not an object", "title", "fields[1]"],
    ["null", null, "fields[1]"],
  ];
  for (const [name, bad, field] of badFields) {
    test(`bad field definition: ${name} -> ${field}`, async () => {
      const r = await h.json("POST", "/v2/models", { token, body: { name: "Bad", namespace: "bad", fields: [ok, bad] } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field });
      expect(typeof r.body.error).toBe("string");
      expect((await h.json("GET", "/v2/models/bad", { token })).status).toBe(404);
    });
  }

  test("an unknown top-level key is refused, not ignored", async () => {
    const r = await h.json("POST", "/v2/models", { token, body: { name: "Typo", namespace: "typo", feilds: [{ namespace: "t", type: "string" }] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field: "feilds" });
    expect((await h.json("GET", "/v2/models/typo", { token })).status).toBe(404);
  });

  test("fields not a list", async () => {
    const r = await h.json("POST", "/v2/models", { token, body: { name: "Bad", namespace: "bad", fields: { title: "string" } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field: "fields" });
  });
});

describe("editing and deleting models", () => {
  let h: Harness;
  let token: string;
  let pid: string;
  let model: any;
  const f = (ns: string) => model.fields.find((x: any) => x.namespace === ns);
  beforeAll(async () => {
    h = startApp();
    const o = await withOwner(h);
    token = o.token;
    pid = o.project.id;
    const r = await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "count", type: "number" },
          { namespace: "old", type: "string" },
        ],
      },
    });
    model = r.body;
  });
  afterAll(() => h.close());

  test("each save is a new version: add, edit, remove fields", async () => {
    h.clock.advance(1000);
    const add = await h.json("PATCH", "/v2/models/post", { token, body: { addFields: [{ namespace: "summary", type: "markdown", label: "Summary" }] } });
    expect(add.status).toBe(200);
    expect(add.body.version).toBe(2);
    expect(add.body.updatedAt).toBe("2026-11-21T12:00:01.000Z");
    expect(add.body.createdAt).toBe("2026-11-21T12:00:00.000Z");
    expect(add.body.fields.map((x: any) => x.namespace)).toEqual(["title", "count", "old", "summary"]);
    model = add.body;

    const edit = await h.json("PATCH", `/v2/models/${model.id}`, {
      token,
      body: {
        name: "Blog post",
        editFields: [
          { id: f("title").id, label: "Headline", required: true },
          { id: f("count").id, type: "string" },
        ],
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.version).toBe(3);
    expect(edit.body.name).toBe("Blog post");
    // An edit keeps what it does not name, and the field's id.
    expect(edit.body.fields[0]).toEqual({ ...f("title"), label: "Headline", required: true });
    expect(edit.body.fields[1]).toMatchObject({ id: f("count").id, namespace: "count", type: "string" });
    model = edit.body;

    const remove = await h.json("PATCH", "/v2/models/post", { token, body: { removeIds: [f("old").id] } });
    expect(remove.status).toBe(200);
    expect(remove.body.version).toBe(4);
    expect(remove.body.fields.map((x: any) => x.namespace)).toEqual(["title", "count", "summary"]);
    model = remove.body;

    const read = await h.json("GET", "/v2/models/post", { token });
    expect(read.body).toEqual(model);
  });

  const badPatches: [string, () => unknown, string][] = [
    ["an unknown key", () => ({ namespace: "renamed" }), "namespace"],
    ["editFields with an unknown id", () => ({ editFields: [{ id: crypto.randomUUID(), label: "x" }] }), "editFields[0].id"],
    ["editFields with no id", () => ({ editFields: [{ label: "x" }] }), "editFields[0].id"],
    ["editFields with a bad type", () => ({ editFields: [{ id: f("title").id, type: "blob" }] }), "editFields[0].type"],
    ["removeIds with an unknown id", () => ({ removeIds: [crypto.randomUUID()] }), "removeIds[0]"],
    ["addFields naming an existing namespace", () => ({ addFields: [{ namespace: "title", type: "string" }] }), "fields[3].namespace"],
    ["addFields not a list", () => ({ addFields: { namespace: "x" } }), "addFields"],
    ["name too long", () => ({ name: "n".repeat(121) }), "name"],
    ["empty name", () => ({ name: " " }), "name"],
  ];
  for (const [name, body, field] of badPatches) {
    test(`PATCH refused: ${name}`, async () => {
      const before = (await h.json("GET", "/v2/models/post", { token })).body;
      const r = await h.json("PATCH", "/v2/models/post", { token, body: body() });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field });
      expect((await h.json("GET", "/v2/models/post", { token })).body).toEqual(before);
    });
  }

  test("changing type, array type, relation or namespace on a model with entries: 409 field_change_required", async () => {
    const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Hello" } } });
    expect(e.status).toBe(201);
    const before = (await h.json("GET", "/v2/models/post", { token })).body;
    for (const edit of [{ type: "markdown" }, { namespace: "headline" }, { type: "array", arrayType: "string" }]) {
      const r = await h.json("PATCH", "/v2/models/post", { token, body: { editFields: [{ id: f("title").id, ...edit }] } });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: "field_change_required", field: "editFields[0]", plan: `/v2/models/${model.id}/field-changes/plan` });
    }
    expect((await h.json("GET", "/v2/models/post", { token })).body).toEqual(before);
    // A label or required change is not a field change.
    const label = await h.json("PATCH", "/v2/models/post", { token, body: { editFields: [{ id: f("title").id, label: "Title again" }] } });
    expect(label.status).toBe(200);
    expect(label.body.version).toBe(before.version + 1);
  });

  test("an editor may read models but not change them", async () => {
    const add = await addMember(h, token, pid, "ed@example.com", "editor", "editor-password-1");
    expect(add.status).toBe(201);
    const ed = (await h.json("POST", "/v2/user/login", { body: { email: "ed@example.com", password: "editor-password-1" } })).body.accessToken;
    const headers = { "x-svc-project": pid };
    expect((await h.json("GET", "/v2/models/post", { token: ed, headers })).status).toBe(200);
    const denied = { error: "Insufficient permissions", required: ["owner", "admin", "developer"], current: "editor" };
    const post = await h.json("POST", "/v2/models", { token: ed, headers, body: { name: "X", namespace: "x" } });
    expect([post.status, post.body]).toEqual([403, denied]);
    const patch = await h.json("PATCH", "/v2/models/post", { token: ed, headers, body: { name: "X" } });
    expect([patch.status, patch.body]).toEqual([403, denied]);
    const del = await h.json("DELETE", "/v2/models/post", { token: ed, headers, body: { namespace: "post" } });
    expect([del.status, del.body]).toEqual([403, denied]);
  });

  test("DELETE requires the namespace repeated, then removes the model and its entries", async () => {
    const target = await h.json("POST", "/v2/models", { token, body: { name: "Doomed", namespace: "doomed", fields: [{ namespace: "t", type: "string" }] } });
    const entry = await h.json("POST", "/v2/model-instances", { token, body: { model: "doomed", data: { t: "x" } } });
    expect(entry.status).toBe(201);
    for (const body of [{}, { namespace: "Doomed" }, { namespace: target.body.id }]) {
      const r = await h.json("DELETE", "/v2/models/doomed", { token, body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "confirmation_mismatch", field: "namespace" });
    }
    expect((await h.json("GET", "/v2/models/doomed", { token })).status).toBe(200);
    const r = await h.json("DELETE", `/v2/models/${target.body.id}`, { token, body: { namespace: "doomed" } });
    expect(r.status).toBe(204);
    expect((await h.json("GET", "/v2/models/doomed", { token })).status).toBe(404);
    expect((await h.json("GET", `/v2/model-instances/${entry.body.id}`, { token })).status).toBe(404);
    expect((await h.json("GET", "/v2/models", { token })).body.data.map((m: any) => m.namespace)).toEqual(["post"]);
    // The namespace is free again.
    expect((await h.json("POST", "/v2/models", { token, body: { name: "Reborn", namespace: "doomed" } })).status).toBe(201);
  });

  test("a model another model relates to cannot be deleted until the relation goes", async () => {
    const target = (await h.json("POST", "/v2/models", { token, body: { name: "Author", namespace: "author" } })).body;
    const holder = (
      await h.json("POST", "/v2/models", {
        token,
        body: { name: "Book", namespace: "book", fields: [{ namespace: "by", type: "array", arrayType: "relation", relation: "author" }] },
      })
    ).body;
    const r = await h.json("DELETE", "/v2/models/author", { token, body: { namespace: "author" } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "conflict", field: "namespace" });
    expect(r.body.error).toContain("book.by");
    expect((await h.json("PATCH", "/v2/models/book", { token, body: { removeIds: [holder.fields[0].id] } })).status).toBe(200);
    expect((await h.json("DELETE", `/v2/models/${target.id}`, { token, body: { namespace: "author" } })).status).toBe(204);
    // A relation to itself does not block a model's own deletion.
    await h.json("POST", "/v2/models", {
      token,
      body: { name: "Node", namespace: "node", fields: [{ namespace: "parent", type: "relation", relation: "node" }] },
    });
    expect((await h.json("DELETE", "/v2/models/node", { token, body: { namespace: "node" } })).status).toBe(204);
  });
});

describe("GET /v2/projects/resolve", () => {
  let h: Harness;
  let viewer: string;
  let model: any;
  let entry: any;
  let pid: string;
  beforeAll(async () => {
    h = startApp();
    const o = await withOwner(h);
    pid = o.project.id;
    model = (await h.json("POST", "/v2/models", { token: o.token, body: { name: "Page", namespace: "page", fields: [{ namespace: "t", type: "string" }] } }))
      .body;
    await h.json("POST", "/v2/models", { token: o.token, body: { name: "Other", namespace: "other" } });
    entry = (await h.json("POST", "/v2/model-instances", { token: o.token, body: { model: "page", data: { t: "home" } } })).body;
    await addMember(h, o.token, pid, "v@example.com", "viewer", "viewer-password-1");
    viewer = (await h.json("POST", "/v2/user/login", { body: { email: "v@example.com", password: "viewer-password-1" } })).body.accessToken;
  });
  afterAll(() => h.close());

  const get = (qs: string) => h.json("GET", `/v2/projects/resolve?${qs}`, { token: viewer, headers: { "x-svc-project": pid } });

  test("a viewer resolves a model by namespace and by id", async () => {
    for (const ref of ["page", model.id]) {
      const r = await get(`model=${ref}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ projectId: pid, model: { id: model.id, namespace: "page" }, entry: null });
    }
  });

  test("and an entry of that model", async () => {
    const r = await get(`model=page&entry=${entry.id.toUpperCase()}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ projectId: pid, model: { id: model.id, namespace: "page" }, entry: { id: entry.id } });
  });

  const refused: [string, () => string, number, string][] = [
    ["an unknown model", () => "model=ghost", 404, "model"],
    ["no model", () => "", 400, "model"],
    ["an entry id that is not a UUID", () => "model=page&entry=home", 400, "entry"],
    ["an entry of another model", () => `model=other&entry=${entry.id}`, 404, "entry"],
    ["an unknown entry", () => `model=page&entry=${crypto.randomUUID()}`, 404, "entry"],
  ];
  for (const [name, qs, status, field] of refused) {
    test(`refused: ${name}`, async () => {
      const r = await get(qs());
      expect(r.status).toBe(status);
      expect(r.body.field).toBe(field);
    });
  }

  test("needs a signed-in person", async () => {
    const r = await h.json("GET", "/v2/projects/resolve?model=page");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Authentication token required" });
  });
});
