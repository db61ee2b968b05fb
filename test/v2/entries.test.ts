// Entries under /v2/model-instances: drafts, value validation, versions, publish, unpublish,
// delete and the list (decisions.md section 3; interface.md, Customer field kinds).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { addMember } from "../api/helpers.ts";

const T0 = "2026-11-21T12:00:00.000Z";

const IMAGE = { id: "img_1", url: "https://cdn.example.com/a.png", alt: "A", type: "image", width: 640, height: 480 };

describe("entry values", () => {
  let h: Harness;
  let token: string;
  let maker: { id: string };
  let otherEntry: { id: string };
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
    await h.json("POST", "/v2/models", { token, body: { name: "Maker", namespace: "maker", fields: [{ namespace: "name", type: "string" }] } });
    await h.json("POST", "/v2/models", { token, body: { name: "Other", namespace: "other" } });
    const r = await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Item",
        namespace: "item",
        fields: [
          { namespace: "title", type: "string" },
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
          { namespace: "days", type: "array", arrayType: "date" },
          { namespace: "sizes", type: "array", arrayType: "enum", options: { values: ["s", "m"] } },
          { namespace: "makers", type: "array", arrayType: "relation", relation: "maker" },
          { namespace: "gallery", type: "array", arrayType: "image" },
          { namespace: "extras", type: "array", arrayType: "mixed" },
          { namespace: "maker", type: "relation", relation: "maker" },
          { namespace: "cover", type: "image" },
          { namespace: "clip", type: "video" },
          { namespace: "manual", type: "file" },
          { namespace: "meta", type: "mixed" },
        ],
      },
    });
    expect(r.status).toBe(201);
    maker = (await h.json("POST", "/v2/model-instances", { token, body: { model: "maker", data: { name: "Acme" } } })).body;
    otherEntry = (await h.json("POST", "/v2/model-instances", { token, body: { model: "other", data: {} } })).body;
  });
  afterAll(() => h.close());

  test("a new entry is a draft at version 1 with every field present", async () => {
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "item", data: { title: "Lamp" }, tags: ["new", "new", "home"] } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      model: "item",
      status: "draft",
      createdAt: T0,
      updatedAt: T0,
      publishedAt: null,
      version: 1,
      publishedVersion: null,
      tags: ["new", "home"],
      folder: null,
      published: null,
    });
    expect(r.body.draft.version).toBe(1);
    expect(Object.keys(r.body.draft.data)).toHaveLength(21);
    expect(r.body.draft.data.title).toBe("Lamp");
    expect(r.body.draft.data.price).toBeNull();
  });

  test("a value of every kind is stored and read back", async () => {
    const data = {
      title: "Lamp",
      body: "# Lamp",
      rich: "<p>Lamp</p>",
      snippet: "let x = 1;",
      size: "m",
      tint: "#ff8800",
      price: 19.5,
      onSale: false,
      launch: "2026-12-01",
      labels: ["a", "b"],
      scores: [1, 2.5],
      days: ["2026-01-01", "2026-01-02T10:00:00Z"],
      sizes: ["s"],
      makers: [maker.id],
      gallery: [IMAGE],
      extras: [{ any: "thing" }, 3],
      maker: maker.id.toUpperCase(),
      cover: { url: "https://cdn.example.com/c.png" },
      clip: IMAGE,
      manual: IMAGE,
      meta: { nested: [1, { a: null }] },
    };
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "item", data } });
    expect(r.status).toBe(201);
    expect(r.body.draft.data).toEqual({
      ...data,
      maker: maker.id,
      cover: { id: null, url: "https://cdn.example.com/c.png", alt: null, type: null, width: null, height: null },
    });
  });

  const wrong: [string, unknown, string][] = [
    ["title", 5, "data.title"],
    ["body", ["# x"], "data.body"],
    ["rich", { html: "x" }, "data.rich"],
    ["snippet", true, "data.snippet"],
    ["size", "xl", "data.size"],
    ["size", 1, "data.size"],
    ["tint", 16711680, "data.tint"],
    ["price", "12", "data.price"],
    ["onSale", "yes", "data.onSale"],
    ["onSale", 1, "data.onSale"],
    ["launch", "2026-02-30", "data.launch"],
    ["launch", "2026-12-01T10:00:00", "data.launch"],
    ["launch", "tomorrow", "data.launch"],
    ["labels", "a", "data.labels"],
    ["labels", ["a", 2], "data.labels[1]"],
    ["scores", [1, "2"], "data.scores[1]"],
    ["days", ["2026-13-01"], "data.days[0]"],
    ["sizes", ["l"], "data.sizes[0]"],
    ["makers", ["not-a-uuid"], "data.makers[0]"],
    ["makers", [[]], "data.makers[0]"],
    // Without a url a media value is a library reference, so it needs the id of a file.
    ["gallery", [{ alt: "no url" }], "data.gallery[0].id"],
    ["maker", "acme", "data.maker"],
    ["cover", "https://cdn.example.com/c.png", "data.cover"],
    ["cover", { url: "https://x", colour: "red" }, "data.cover.colour"],
    ["cover", { url: "https://x", width: -1 }, "data.cover.width"],
    ["clip", { url: 5 }, "data.clip.url"],
    ["manual", [IMAGE], "data.manual"],
    ["nope", "x", "data.nope"],
  ];
  for (const [ns, value, field] of wrong) {
    test(`refused: ${ns} = ${JSON.stringify(value)} -> ${field}`, async () => {
      const before = (await h.json("GET", "/v2/model-instances?model=item", { token })).body.total;
      const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "item", data: { [ns]: value } } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field });
      expect((await h.json("GET", "/v2/model-instances?model=item", { token })).body.total).toBe(before);
    });
  }

  test("a relation must name an existing entry of the related model", async () => {
    for (const [data, field] of [
      [{ maker: crypto.randomUUID() }, "data.maker"],
      [{ maker: otherEntry.id }, "data.maker"],
      [{ makers: [maker.id, crypto.randomUUID()] }, "data.makers"],
    ] as const) {
      const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "item", data } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field });
    }
  });

  test("null clears a value; tags and folder are checked", async () => {
    const e = (await h.json("POST", "/v2/model-instances", { token, body: { model: "item", data: { title: "T", price: 3 } } })).body;
    const r = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { price: null }, folder: "fld_1" } });
    expect(r.status).toBe(200);
    expect(r.body.draft.data).toMatchObject({ title: "T", price: null });
    expect(r.body.folder).toBe("fld_1");
    for (const [body, field] of [
      [{ tags: "a" }, "tags"],
      [{ tags: [""] }, "tags"],
      [{ folder: 5 }, "folder"],
      [{ status: "published" }, "status"],
      [{ data: [] }, "data"],
    ] as const) {
      const bad = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "invalid_body", field });
    }
    expect((await h.json("GET", `/v2/model-instances/${e.id}`, { token })).body.version).toBe(2);
  });
});

describe("entry lifecycle", () => {
  let h: Harness;
  let token: string;
  let e: any;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
    await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string", required: true },
          { namespace: "body", type: "markdown" },
        ],
      },
    });
  });
  afterAll(() => h.close());

  test("a required field is enforced at publish, not at save", async () => {
    e = (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { body: "text" } } })).body;
    expect(e.status).toBe("draft");
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    expect(r.status).toBe(400);
    const rule = { field: "data.title", rule: "required", message: "title is required before the entry can be published" };
    expect(r.body).toEqual({ error: rule.message, code: "validation_failed", field: "data.title", errors: [rule] });
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { title: "" } } });
    expect((await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token })).status).toBe(400);
    expect((await h.json("GET", `/v2/model-instances/${e.id}`, { token })).body.status).toBe("draft");
  });

  test("draft -> published -> changed -> published", async () => {
    h.clock.advance(1000);
    const saved = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { title: "First" } } });
    expect(saved.body).toMatchObject({ status: "draft", version: 3, updatedAt: "2026-11-21T12:00:01.000Z" });
    const v3 = saved.body.draft.versionId;

    h.clock.advance(1000);
    const pub = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({
      status: "published",
      version: 3,
      publishedVersion: 3,
      publishedAt: "2026-11-21T12:00:02.000Z",
      // Publishing is not a save.
      updatedAt: "2026-11-21T12:00:01.000Z",
      published: { versionId: v3, version: 3, updatedAt: "2026-11-21T12:00:01.000Z", data: { title: "First", body: "text" } },
    });

    h.clock.advance(1000);
    const changed = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { title: "Second" } } });
    expect(changed.body).toMatchObject({ status: "changed", version: 4, publishedVersion: 3 });
    expect(changed.body.draft.data.title).toBe("Second");
    expect(changed.body.published.data.title).toBe("First");

    const again = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token, body: {} });
    expect(again.body).toMatchObject({ status: "published", version: 4, publishedVersion: 4 });
    expect(again.body.published.data.title).toBe("Second");
  });

  test("versions are listed newest first, the published one marked", async () => {
    const r = await h.json("GET", `/v2/model-instances/${e.id}/versions`, { token });
    expect(r.status).toBe(200);
    expect(r.body.data.map((v: any) => [v.number, v.published, v.data.title])).toEqual([
      [4, true, "Second"],
      [3, false, "First"],
      [2, false, ""],
      [1, false, null],
    ]);
    expect(r.body.data[0].createdBy).toMatch(/^user:/);
  });

  test("publishing an older version by versionId", async () => {
    const versions = (await h.json("GET", `/v2/model-instances/${e.id}/versions`, { token })).body.data;
    const v3 = versions.find((v: any) => v.number === 3);
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token, body: { versionId: v3.id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "changed", version: 4, publishedVersion: 3, published: { versionId: v3.id, version: 3, data: { title: "First" } } });
    expect(r.body.draft.data.title).toBe("Second");
    // A version of another entry, an unknown one, or a non-id is refused.
    const other = (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Other" } } })).body;
    for (const versionId of [other.draft.versionId, crypto.randomUUID(), "v3"]) {
      const bad = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token, body: { versionId } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "invalid_body", field: "versionId" });
    }
    // An older version without the required value cannot be published.
    const v1 = versions.find((v: any) => v.number === 1);
    const noTitle = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token, body: { versionId: v1.id } });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.field).toBe("data.title");
    expect((await h.json("GET", `/v2/model-instances/${e.id}`, { token })).body.publishedVersion).toBe(3);
  });

  test("unpublish keeps the draft", async () => {
    const r = await h.json("POST", `/v2/model-instances/${e.id}/unpublish`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "draft", version: 4, publishedVersion: null, publishedAt: null, published: null });
    expect(r.body.draft.data.title).toBe("Second");
  });

  test("delete moves the entry to the trash, then every entry route answers 404 entry_in_trash", async () => {
    const r = await h.json("DELETE", `/v2/model-instances/${e.id}`, { token });
    expect(r.status).toBe(204);
    const deletedAt = (await h.json("GET", `/v2/trash/${e.id}`, { token })).body.deletedAt;
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["GET", "/versions"],
      ["POST", "/publish"],
      ["POST", "/unpublish"],
    ] as const) {
      const x = await h.json(method, `/v2/model-instances/${e.id}${path}`, { token, body: method === "PATCH" ? { data: {} } : undefined });
      expect([method, path, x.status, x.body]).toEqual([
        method,
        path,
        404,
        { error: "The entry is in the trash.", code: "entry_in_trash", id: e.id, deletedAt },
      ]);
    }
  });

  test("an editor may write entries; a viewer may only read them", async () => {
    const pid = (await h.json("GET", "/v2/projects", { token })).body.data[0].id;
    for (const [email, role] of [
      ["ed@example.com", "editor"],
      ["vi@example.com", "viewer"],
    ]) {
      await addMember(h, token, pid, email, role, "member-password-1");
    }
    const sign = async (email: string) => (await h.json("POST", "/v2/user/login", { body: { email, password: "member-password-1" } })).body.accessToken;
    const headers = { "x-svc-project": pid };
    const ed = await sign("ed@example.com");
    const made = await h.json("POST", "/v2/model-instances", { token: ed, headers, body: { model: "post", data: { title: "By editor" } } });
    expect(made.status).toBe(201);
    expect((await h.json("POST", `/v2/model-instances/${made.body.id}/publish`, { token: ed, headers })).status).toBe(200);
    const vi = await sign("vi@example.com");
    expect((await h.json("GET", `/v2/model-instances/${made.body.id}`, { token: vi, headers })).status).toBe(200);
    const denied = await h.json("PATCH", `/v2/model-instances/${made.body.id}`, { token: vi, headers, body: { data: { title: "x" } } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "developer", "editor"], current: "viewer" });
  });
});

describe("single-entry models, lists, and values after a model edit", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
    await h.json("POST", "/v2/models", {
      token,
      body: { name: "Settings", namespace: "settings", singleEntry: true, fields: [{ namespace: "site", type: "string" }] },
    });
    await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Shirt",
        namespace: "shirt",
        fields: [
          { namespace: "size", type: "enum", required: true, options: { values: ["s", "m", "l"] } },
          { namespace: "n", type: "number" },
        ],
      },
    });
  });
  afterAll(() => h.close());

  test("a single-entry model refuses a second entry", async () => {
    expect((await h.json("POST", "/v2/model-instances", { token, body: { model: "settings", data: { site: "A" } } })).status).toBe(201);
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "settings", data: { site: "B" } } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "conflict", field: "model" });
    expect((await h.json("GET", "/v2/model-instances?model=settings", { token })).body.total).toBe(1);
  });

  test("a model with several entries cannot be made single-entry; with one it can", async () => {
    await h.json("POST", "/v2/models", { token, body: { name: "Page", namespace: "page" } });
    await h.json("POST", "/v2/model-instances", { token, body: { model: "page" } });
    const one = await h.json("PATCH", "/v2/models/page", { token, body: { singleEntry: true } });
    expect([one.status, one.body.singleEntry]).toEqual([200, true]);
    await h.json("PATCH", "/v2/models/page", { token, body: { singleEntry: false } });
    expect((await h.json("POST", "/v2/model-instances", { token, body: { model: "page" } })).status).toBe(201);
    const two = await h.json("PATCH", "/v2/models/page", { token, body: { singleEntry: true } });
    expect(two.status).toBe(409);
    expect(two.body).toMatchObject({ code: "conflict", field: "singleEntry" });
    expect((await h.json("GET", "/v2/models/page", { token })).body.singleEntry).toBe(false);
    await h.json("DELETE", "/v2/models/page", { token, body: { namespace: "page" } });
  });

  test("list with model, status, limit and page", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1000);
      ids.push((await h.json("POST", "/v2/model-instances", { token, body: { model: "shirt", data: { size: "s", n: i } } })).body.id);
    }
    await h.json("POST", `/v2/model-instances/${ids[0]}/publish`, { token });
    await h.json("POST", `/v2/model-instances/${ids[1]}/publish`, { token });
    await h.json("PATCH", `/v2/model-instances/${ids[1]}`, { token, body: { data: { n: 10 } } });

    const all = await h.json("GET", "/v2/model-instances?model=shirt", { token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 25, total: 5 });
    expect(all.body.data.map((e: any) => e.id)).toEqual([...ids].reverse());

    const page2 = await h.json("GET", "/v2/model-instances?model=shirt&limit=2&page=2", { token });
    expect(page2.body).toMatchObject({ page: 2, limit: 2, total: 5 });
    expect(page2.body.data.map((e: any) => e.id)).toEqual([ids[2], ids[1]]);
    const past = await h.json("GET", "/v2/model-instances?model=shirt&limit=2&page=4", { token });
    expect(past.body).toMatchObject({ data: [], total: 5 });

    const byStatus = async (status: string) =>
      (await h.json("GET", `/v2/model-instances?model=${status === "all" ? "shirt" : `shirt&status=${status}`}`, { token })).body;
    expect((await byStatus("published")).data.map((e: any) => e.id)).toEqual([ids[0]]);
    expect((await byStatus("changed")).data.map((e: any) => e.id)).toEqual([ids[1]]);
    expect((await byStatus("draft")).total).toBe(3);

    // Every model together.
    expect((await h.json("GET", "/v2/model-instances", { token })).body.total).toBe(6);
  });

  const badQueries: [string, string, number, string][] = [
    ["status=live", "status", 400, "invalid_body"],
    ["status=constructor", "status", 400, "invalid_body"],
    ["limit=0", "limit", 400, "invalid_body"],
    ["limit=201", "limit", 400, "invalid_body"],
    ["limit=2.5", "limit", 400, "invalid_body"],
    ["page=0", "page", 400, "invalid_body"],
    ["page=x", "page", 400, "invalid_body"],
    ["model=ghost", "model", 404, "not_found"],
  ];
  for (const [qs, field, status, code] of badQueries) {
    test(`list refused: ${qs}`, async () => {
      const r = await h.json("GET", `/v2/model-instances?${qs}`, { token });
      expect(r.status).toBe(status);
      expect(r.body).toMatchObject({ code, field });
    });
  }

  test("a stored value that no longer fits the model reads as null, and a required one blocks publishing", async () => {
    const e = (await h.json("POST", "/v2/model-instances", { token, body: { model: "shirt", data: { size: "l", n: 1 } } })).body;
    expect((await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token })).status).toBe(200);
    const model = (await h.json("GET", "/v2/models/shirt", { token })).body;
    const edit = await h.json("PATCH", "/v2/models/shirt", { token, body: { editFields: [{ id: model.fields[0].id, options: { values: ["s", "m"] } }] } });
    expect(edit.status).toBe(200);

    const read = await h.json("GET", `/v2/model-instances/${e.id}`, { token });
    expect(read.body.draft.data).toEqual({ size: null, n: 1 });
    expect(read.body.published.data).toEqual({ size: null, n: 1 });
    const versions = await h.json("GET", `/v2/model-instances/${e.id}/versions`, { token });
    expect(versions.body.data[0].data).toEqual({ size: null, n: 1 });
    const listed = (await h.json("GET", "/v2/model-instances?model=shirt", { token })).body.data.find((x: any) => x.id === e.id);
    expect(listed.draft.data.size).toBeNull();

    // The required value reads as null, so the entry cannot be published again as it is.
    const pub = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    expect(pub.status).toBe(400);
    expect(pub.body).toMatchObject({ code: "validation_failed", field: "data.size", errors: [{ field: "data.size", rule: "required" }] });

    // Putting the value back makes the stored value fit again.
    await h.json("PATCH", "/v2/models/shirt", { token, body: { editFields: [{ id: model.fields[0].id, options: { values: ["s", "m", "l"] } }] } });
    expect((await h.json("GET", `/v2/model-instances/${e.id}`, { token })).body.draft.data.size).toBe("l");
  });

  test("a removed field disappears from reads; a new field reads as null", async () => {
    const e = (await h.json("POST", "/v2/model-instances", { token, body: { model: "shirt", data: { size: "m", n: 2 } } })).body;
    const model = (await h.json("GET", "/v2/models/shirt", { token })).body;
    await h.json("PATCH", "/v2/models/shirt", { token, body: { removeIds: [model.fields[1].id], addFields: [{ namespace: "colour", type: "color" }] } });
    const read = await h.json("GET", `/v2/model-instances/${e.id}`, { token });
    expect(read.body.draft.data).toEqual({ size: "m", colour: null });
    // And writing the removed namespace is now an unknown field.
    const w = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { n: 3 } } });
    expect(w.status).toBe(400);
    expect(w.body.field).toBe("data.n");
  });
});
