// The entry list for the app (issue 27, lists): sort by a field in the /api grammar with keyset
// cursors, `where` over the drafts, `q` over the title and text fields only, the total with every
// filter, who saved the latest version by name, and the columns route.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { answerProblems } from "../openapi/answer-check.ts";

let h: Harness;
let token: string;
let userId: string;
const ids: Record<string, string> = {};

const list = (query: string) => h.json("GET", `/v2/model-instances?model=book&${query}`, { token });
const titles = (r: { body: { data: { draft: { data: { title: string } } }[] } }) => r.body.data.map((e) => e.draft.data.title);

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  userId = o.user.id;
  await h.json("PATCH", "/v2/user/me", { token, body: { name: "Olive Owner" } });
  await h.json("POST", "/v2/models", { token, body: { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string" }] } });
  const model = await h.json("POST", "/v2/models", {
    token,
    body: {
      name: "Book",
      namespace: "book",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "pages", type: "number" },
        { namespace: "blurb", type: "markdown" },
        { namespace: "author", type: "relation", relation: "author" },
        { namespace: "code", type: "mixed" },
        { namespace: "keywords", type: "array", arrayType: "string" },
      ],
    },
  });
  expect(model.status).toBe(201);
  const mei = (await h.json("POST", "/v2/model-instances", { token, body: { model: "author", data: { name: "Mei" } } })).body.id;
  const books: [string, number | null, string, string[]][] = [
    ["Dune", 412, "Sand and spice", ["desert"]],
    ["Emma", 474, "A comedy of manners", []],
    ["Ubik", 202, "Time runs backwards", ["time"]],
    ["Solaris", null, "An ocean that thinks", ["ocean", "space"]],
    ["Kindred", 264, "Wandering through time", []],
  ];
  for (const [title, pages, blurb, keywords] of books) {
    h.clock.advance(1000);
    const data: Record<string, unknown> = { title, blurb, keywords, author: mei, code: { note: "time" } };
    if (pages !== null) data.pages = pages;
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "book", data } });
    ids[title] = r.body.id;
  }
  await h.json("POST", `/v2/model-instances/${ids.Dune}/publish`, { token });
});
afterAll(() => h.close());

describe("sort by a field", () => {
  test("ascending and descending, nulls last either way, and the total stays the model's", async () => {
    expect(titles(await list("sort=pages"))).toEqual(["Ubik", "Kindred", "Dune", "Emma", "Solaris"]);
    expect(titles(await list("sort=-pages"))).toEqual(["Emma", "Dune", "Kindred", "Ubik", "Solaris"]);
    expect(titles(await list("sort=title"))).toEqual(["Dune", "Emma", "Kindred", "Solaris", "Ubik"]);
    expect((await list("sort=-title")).body.total).toBe(5);
  });

  test("following next by a field sort walks the same entries as page paging, through the null", async () => {
    const walked: string[] = [];
    let r = await list("sort=-pages&limit=2");
    walked.push(...titles(r));
    while (r.body.next) {
      r = await list(`sort=-pages&limit=2&after=${r.body.next}`);
      expect(Object.keys(r.body).sort()).toEqual(["data", "limit", "next", "total"]);
      walked.push(...titles(r));
    }
    const paged: string[] = [];
    for (const p of [1, 2, 3]) paged.push(...titles(await list(`sort=-pages&limit=2&page=${p}`)));
    expect(walked).toEqual(["Emma", "Dune", "Kindred", "Ubik", "Solaris"]);
    expect(paged).toEqual(walked);
  });

  test("two keys, a system key and a hop into a relation", async () => {
    expect(titles(await list("sort=author.name,-title"))).toEqual(["Ubik", "Solaris", "Kindred", "Emma", "Dune"]);
    expect(titles(await list("sort=$createdAt"))).toEqual(["Dune", "Emma", "Ubik", "Solaris", "Kindred"]);
  });

  test("a field that cannot be sorted by, and a cursor of another sort, are refused naming the parameter", async () => {
    const r = await list("sort=keywords");
    expect([r.status, r.body]).toEqual([
      400,
      { error: '"keywords" cannot be sorted by; sort takes text, number, true_false and date fields.', code: "invalid_sort", field: "sort" },
    ]);
    const first = await list("sort=pages&limit=1");
    const other = await list(`sort=-pages&after=${first.body.next}`);
    expect([other.status, other.body]).toEqual([
      400,
      { error: "after is a cursor of the order pages; send the same sort as the page it came from", code: "invalid_body", field: "after" },
    ]);
  });
});

describe("where and q", () => {
  test("where filters the drafts with the /api grammar, and the total counts the filtered entries", async () => {
    const r = await list(`where=${encodeURIComponent(JSON.stringify({ pages: { gt: 250 } }))}&sort=pages`);
    expect([titles(r), r.body.total]).toEqual([["Kindred", "Dune", "Emma"], 3]);
    const live = await list(`where=${encodeURIComponent(JSON.stringify({ $status: "published" }))}`);
    expect([titles(live), live.body.total]).toEqual([["Dune"], 1]);
    const kw = await list(`where=${encodeURIComponent(JSON.stringify({ keywords: { has: "time" } }))}`);
    expect(titles(kw)).toEqual(["Ubik"]);
  });

  test("a where that does not fit the model is refused with the grammar's code, naming where", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["{", { error: "where is not valid JSON.", code: "invalid_where", field: "where" }],
      ['{"price":{"gt":1}}', { error: 'The model book has no field "price".', code: "unknown_field", field: "where" }],
      [
        '{"pages":{"contains":"x"}}',
        {
          error: 'The operator contains does not apply to "pages"; it takes eq, ne, in, nin, lt, lte, gt, gte, exists, null.',
          code: "invalid_where",
          field: "where",
        },
      ],
      ['{"title":null}', { error: 'The filter on "title" is null; leave the key out or use {"null": true}.', code: "invalid_filter_value", field: "where" }],
    ];
    for (const [where, body] of cases) {
      const r = await list(`where=${encodeURIComponent(where)}`);
      expect([where, r.status, r.body]).toEqual([where, 400, body]);
    }
    const noModel = await h.json("GET", `/v2/model-instances?where=${encodeURIComponent('{"title":"Dune"}')}`, { token });
    expect([noModel.status, noModel.body]).toEqual([
      400,
      { error: "where filters the fields of one model: send model as well", code: "invalid_body", field: "where" },
    ]);
  });

  test("q searches the title and text fields (lists of text too), never numbers, relation ids or mixed values", async () => {
    expect(titles(await list("q=time&sort=title"))).toEqual(["Kindred", "Ubik"]);
    expect(titles(await list("q=OCEAN"))).toEqual(["Solaris"]);
    expect((await list("q=412")).body.total).toBe(0);
    const mei = (await h.json("GET", "/v2/model-instances?model=author", { token })).body.data[0].id as string;
    expect((await list(`q=${mei.slice(0, 8)}`)).body.total).toBe(0);
    expect((await list("q=note")).body.total).toBe(0);
    // q, where and sort together.
    const r = await list(`q=time&where=${encodeURIComponent('{"pages":{"lt":250}}')}`);
    expect([titles(r), r.body.total]).toEqual([["Ubik"], 1]);
  });
});

describe("who saved the latest version, and the columns", () => {
  test("lastEditedBy names the person; the answer fits its declared model", async () => {
    const r = await list("limit=1&sort=title");
    expect(r.body.data[0].updatedBy).toBe(`user:${userId}`);
    expect(r.body.data[0].lastEditedBy).toEqual({ kind: "user", id: userId, name: "Olive Owner", email: "owner@example.com" });
    expect(answerProblems(h.capa, "GET", "/v2/model-instances", 200, r.body)).toEqual([]);
  });

  test("GET /v2/model-instances/columns lists the fields and system columns with sorting and operators", async () => {
    const r = await h.json("GET", "/v2/model-instances/columns?model=book", { token });
    expect(r.status).toBe(200);
    const fields = r.body.columns.map((c: { key: string; kind: string; of: string | null; sortable: boolean; operators: string[] }) => [
      c.key,
      c.kind,
      c.of,
      c.sortable,
      c.operators.join(" "),
    ]);
    expect(fields).toEqual([
      ["title", "string", null, true, "eq ne in nin contains startsWith endsWith exists null"],
      ["pages", "number", null, true, "eq ne in nin lt lte gt gte exists null"],
      ["blurb", "markdown", null, true, "eq ne in nin contains startsWith endsWith exists null"],
      ["author", "relation", null, false, "eq ne in nin exists null"],
      ["code", "mixed", null, false, "exists null"],
      ["keywords", "array", "string", false, "has hasAny hasAll exists null"],
      ["$id", "id", null, true, "eq ne in nin"],
      ["$status", "status", null, false, "eq ne in nin contains startsWith endsWith exists null"],
      ["$createdAt", "datetime", null, true, "eq ne lt lte gt gte exists null"],
      ["$updatedAt", "datetime", null, true, "eq ne lt lte gt gte exists null"],
      ["$publishedAt", "datetime", null, true, "eq ne lt lte gt gte exists null"],
      ["$lastEditedBy", "editor", null, false, ""],
      ["$tags", "tags", null, false, "has hasAny hasAll exists null"],
    ]);
    expect(r.body.columns.find((c: { key: string }) => c.key === "$lastEditedBy")).toEqual({
      key: "$lastEditedBy",
      label: "Last edited by",
      kind: "editor",
      of: null,
      system: true,
      sortable: false,
      operators: [],
      fieldId: null,
    });
    expect(answerProblems(h.capa, "GET", "/v2/model-instances/columns", 200, r.body)).toEqual([]);
    const ghost = await h.json("GET", "/v2/model-instances/columns?model=ghost", { token });
    expect([ghost.status, ghost.body]).toEqual([404, { error: 'No model "ghost" in this project.', code: "not_found", field: "model" }]);
  });
});
