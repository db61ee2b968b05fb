// Saved views (decisions.md 15; issue 27 item 3): a view keeps a model list's columns, sort, where
// and search; shared views are seen by every member, the rest by their creator; viewers use views
// but make no shared ones; a view whose parts no longer fit the model opens without them, saying so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { answerProblems } from "../openapi/answer-check.ts";

let h: Harness;
let owner: string;
let ownerId: string;
let editor: string;
let viewer: string;
let pid: string;
let bookId: string;

const as = (token: string) => ({ token, headers: { "x-svc-project": pid } });
const post = (token: string, body: unknown) => h.json("POST", "/v2/views", { ...as(token), body });

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  owner = o.token;
  ownerId = o.user.id;
  pid = o.project.id;
  editor = await memberToken(h, owner, pid, "editor@example.com", "editor");
  viewer = await memberToken(h, owner, pid, "viewer@example.com", "viewer");
  const m = await h.json("POST", "/v2/models", {
    ...as(owner),
    body: {
      name: "Book",
      namespace: "book",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "pages", type: "number" },
        { namespace: "tags", type: "array", arrayType: "string" },
      ],
    },
  });
  bookId = m.body.id;
});
afterAll(() => h.close());

describe("saving and reading views", () => {
  test("a private view: 201 with the whole view, listed and read back, for its creator only", async () => {
    const r = await post(owner, {
      model: "book",
      name: "  Long books ",
      columns: ["title", "pages", "$status", "$lastEditedBy"],
      sort: "-pages,title",
      where: { pages: { gt: 300 } },
      search: "dune",
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: r.body.id,
      model: "book",
      modelId: bookId,
      name: "Long books",
      shared: false,
      columns: ["title", "pages", "$status", "$lastEditedBy"],
      sort: "-pages,title",
      where: { pages: { gt: 300 } },
      search: "dune",
      mine: true,
      createdBy: { kind: "user", id: ownerId },
      createdAt: "2026-11-21T12:00:00.000Z",
      updatedAt: "2026-11-21T12:00:00.000Z",
      dropped: [],
    });
    expect(answerProblems(h.capa, "POST", "/v2/views", 201, r.body)).toEqual([]);
    expect((await h.json("GET", `/v2/views/${r.body.id}`, as(owner))).body).toEqual(r.body);
    expect((await h.json("GET", "/v2/views?model=book", as(owner))).body.data.map((v: { id: string }) => v.id)).toContain(r.body.id);
    // Nobody else sees it, not even an owner-level list of another member.
    expect((await h.json("GET", "/v2/views", as(editor))).body.data.map((v: { id: string }) => v.id)).not.toContain(r.body.id);
    const other = await h.json("GET", `/v2/views/${r.body.id}`, as(editor));
    expect([other.status, other.body]).toEqual([404, { error: "No such view.", code: "not_found" }]);
    await h.json("DELETE", `/v2/views/${r.body.id}`, as(owner));
  });

  test("a view that does not fit its model is refused, naming the part", async () => {
    const base = { model: "book", name: "V" };
    const cases: [unknown, number, Record<string, unknown>][] = [
      [{ ...base, where: { price: { gt: 1 } } }, 400, { error: 'The model book has no field "price".', code: "unknown_field", field: "where" }],
      [{ ...base, sort: "price" }, 400, { error: 'The model book has no field "price" to sort by.', code: "unknown_field", field: "sort" }],
      [
        { ...base, sort: "tags" },
        400,
        { error: '"tags" cannot be sorted by; sort takes text, number, true_false and date fields.', code: "invalid_sort", field: "sort" },
      ],
      [
        { ...base, columns: ["title", "price"] },
        400,
        { error: "columns[1] names no column of the model book: price", code: "invalid_body", field: "columns[1]" },
      ],
      [{ ...base, columns: ["title", "title"] }, 400, { error: "columns[1] names title a second time", code: "invalid_body", field: "columns[1]" }],
      [{ ...base, name: "   " }, 400, { error: "name must be 1 to 120 characters with more than spaces", code: "invalid_body", field: "name" }],
      [{ ...base, where: "x" }, 400, { error: "where must be a filter object of the /api where grammar", code: "invalid_body", field: "where" }],
      [
        { ...base, colour: "red" },
        400,
        { error: "colour is not a part of a view; send model, name, shared, columns, sort, where, search", code: "invalid_body", field: "colour" },
      ],
      [{ ...base, model: "ghost" }, 404, { error: 'No model "ghost" in this project.', code: "not_found", field: "model" }],
    ];
    for (const [body, status, want] of cases) {
      const r = await post(owner, body);
      expect([JSON.stringify(body), r.status, r.body]).toEqual([JSON.stringify(body), status, want]);
    }
  });
});

describe("sharing", () => {
  test("shared views are seen by every member; viewers use them and keep private ones, but share none", async () => {
    const shared = (await post(editor, { model: "book", name: "Team", shared: true, columns: ["title"] })).body;
    const mine = await post(viewer, { model: "book", name: "Mine", sort: "title" });
    expect([mine.status, mine.body.shared, mine.body.mine]).toEqual([201, false, true]);
    const names = async (t: string) => (await h.json("GET", "/v2/views?model=book", as(t))).body.data.map((v: { name: string }) => v.name);
    expect(await names(viewer)).toEqual(["Team", "Mine"]);
    expect(await names(owner)).toEqual(["Team"]);
    const seen = (await h.json("GET", `/v2/views/${shared.id}`, as(viewer))).body;
    expect([seen.mine, seen.shared, seen.columns]).toEqual([false, true, ["title"]]);

    const refused = { error: "Insufficient permissions", required: ["owner", "admin", "developer", "editor"], current: "viewer" };
    const make = await post(viewer, { model: "book", name: "Share it", shared: true });
    expect([make.status, make.body]).toEqual([403, refused]);
    const promote = await h.json("PATCH", `/v2/views/${mine.body.id}`, { ...as(viewer), body: { shared: true } });
    expect([promote.status, promote.body]).toEqual([403, refused]);
    // A viewer cannot change the team's view; owners and admins can, the editor who made it can.
    const edit = await h.json("PATCH", `/v2/views/${shared.id}`, { ...as(viewer), body: { name: "Mine now" } });
    expect([edit.status, edit.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner", "admin"], current: "viewer" }]);
    const byOwner = await h.json("PATCH", `/v2/views/${shared.id}`, { ...as(owner), body: { name: "Team list", sort: "-title" } });
    expect([byOwner.status, byOwner.body.name, byOwner.body.sort, byOwner.body.mine]).toEqual([200, "Team list", "-title", false]);
    const gone = await h.json("DELETE", `/v2/views/${shared.id}`, as(viewer));
    expect(gone.status).toBe(403);
    expect((await h.json("DELETE", `/v2/views/${shared.id}`, as(editor))).status).toBe(204);
    expect((await h.json("GET", `/v2/views/${shared.id}`, as(editor))).status).toBe(404);
  });

  test("PATCH clears sort, where and search with null, and checks what it sets", async () => {
    const v = (await post(owner, { model: "book", name: "Clear me", sort: "title", where: { title: { contains: "a" } }, search: "x" })).body;
    const r = await h.json("PATCH", `/v2/views/${v.id}`, { ...as(owner), body: { sort: null, where: null, search: null } });
    expect([r.body.sort, r.body.where, r.body.search]).toEqual([null, null, null]);
    const bad = await h.json("PATCH", `/v2/views/${v.id}`, { ...as(owner), body: { where: { nope: 1 } } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'The model book has no field "nope".', code: "unknown_field", field: "where" }]);
  });
});

describe("a view whose model changed", () => {
  test("a removed field's filter, sort key and column are left out when the view opens, and the view says so", async () => {
    const m = await h.json("POST", "/v2/models", {
      ...as(owner),
      body: {
        name: "Film",
        namespace: "film",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "minutes", type: "number" },
        ],
      },
    });
    const v = (
      await post(owner, {
        model: "film",
        name: "Short films",
        columns: ["title", "minutes"],
        sort: "minutes,-title",
        where: { minutes: { lt: 40 }, title: { contains: "e" } },
      })
    ).body;
    const minutes = m.body.fields.find((f: { namespace: string }) => f.namespace === "minutes").id;
    expect((await h.json("PATCH", "/v2/models/film", { ...as(owner), body: { removeIds: [minutes] } })).status).toBe(200);
    const opened = (await h.json("GET", `/v2/views/${v.id}`, as(owner))).body;
    expect([opened.columns, opened.sort, opened.where]).toEqual([["title"], "-title", { title: { contains: "e" } }]);
    expect(opened.dropped).toEqual([
      { part: "columns", key: "minutes", message: 'The model film has no field "minutes" any more, so its column is left out.' },
      { part: "sort", key: "minutes", message: 'The model film has no field "minutes" to sort by.' },
      { part: "where", key: "minutes", message: 'The filter on "minutes" is left out: The model film has no field "minutes".' },
    ]);
    // The list and the export take the view's parts as they open: no refusal.
    const list = await h.json("GET", `/v2/model-instances?model=film&sort=${opened.sort}&where=${encodeURIComponent(JSON.stringify(opened.where))}`, as(owner));
    expect(list.status).toBe(200);
    // Saving the view again keeps only what fits; a name change alone leaves the saved parts as they are.
    const renamed = (await h.json("PATCH", `/v2/views/${v.id}`, { ...as(owner), body: { name: "Films" } })).body;
    expect(renamed.dropped).toHaveLength(3);
    const resaved = (await h.json("PATCH", `/v2/views/${v.id}`, { ...as(owner), body: { columns: opened.columns, sort: opened.sort, where: opened.where } }))
      .body;
    expect(resaved.dropped).toEqual([]);
  });

  test("views of a deleted model leave the list; reading one says why", async () => {
    await h.json("POST", "/v2/models", { ...as(owner), body: { name: "Temp", namespace: "temp", fields: [{ namespace: "title", type: "string" }] } });
    const v = (await post(owner, { model: "temp", name: "Temp view" })).body;
    expect((await h.json("DELETE", "/v2/models/temp", { ...as(owner), body: { namespace: "temp" } })).status).toBe(204);
    expect((await h.json("GET", "/v2/views", as(owner))).body.data.map((x: { id: string }) => x.id)).not.toContain(v.id);
    const r = await h.json("GET", `/v2/views/${v.id}`, as(owner));
    expect([r.status, r.body]).toEqual([404, { error: "The model of this view was deleted; delete the view.", code: "not_found" }]);
    expect((await h.json("DELETE", `/v2/views/${v.id}`, as(owner))).status).toBe(204);
  });
});
