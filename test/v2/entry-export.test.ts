// Export of a selection (issue 27, lists): POST /v2/model-instances/export streams the entries the
// list selects (picked ids, or where, q and status), in the list's order, as CSV or JSON with the
// chosen columns and values as the list shows them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { png64 } from "../media/fixtures.ts";

let h: Harness;
let token: string;
const ids: Record<string, string> = {};
let mediaId: string;

const exportOf = (body: unknown) => h.req("POST", "/v2/model-instances/export", { token, body });

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  await h.json("PATCH", "/v2/user/me", { token, body: { name: "Olive Owner" } });
  await h.json("POST", "/v2/models", { token, body: { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string" }] } });
  await h.json("POST", "/v2/models", {
    token,
    body: {
      name: "Book",
      namespace: "book",
      fields: [
        { namespace: "title", type: "string", label: "Title" },
        { namespace: "pages", type: "number" },
        { namespace: "done", type: "true_false" },
        { namespace: "author", type: "relation", relation: "author" },
        { namespace: "cover", type: "image" },
        { namespace: "keywords", type: "array", arrayType: "string" },
        { namespace: "extra", type: "mixed" },
      ],
    },
  });
  const form = new FormData();
  form.append("file", new Blob([await png64()]), "cover.png");
  mediaId = (await h.json("POST", "/v2/media", { token, raw: form })).body.id;
  const mei = (await h.json("POST", "/v2/model-instances", { token, body: { model: "author", data: { name: "Mei" } } })).body.id;
  const rows: [string, Record<string, unknown>][] = [
    ["Dune", { pages: 412, done: true, author: mei, cover: { id: mediaId }, keywords: ["desert", "spice"], extra: { a: 1 } }],
    ['Say "hi", world', { pages: 10, keywords: [] }],
    ["=SUM(A1)", { pages: 5 }],
  ];
  for (const [title, data] of rows) {
    h.clock.advance(1000);
    ids[title] = (await h.json("POST", "/v2/model-instances", { token, body: { model: "book", data: { title, ...data } } })).body.id;
  }
});
afterAll(() => h.close());

describe("POST /v2/model-instances/export", () => {
  test("CSV: a header of labels, the chosen columns, values as the list shows them, in the list's order", async () => {
    const r = await exportOf({
      model: "book",
      format: "csv",
      columns: ["title", "pages", "done", "author", "cover", "keywords", "extra", "$status", "$lastEditedBy"],
      sort: "pages",
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="book-2026-11-21.csv"');
    expect(r.headers.get("x-capa-total")).toBe("3");
    // The BOM is in the bytes (Response.text() would drop it).
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await r.arrayBuffer())).toBe(
      [
        "\uFEFFTitle,pages,done,author,cover,keywords,extra,Status,Last edited by",
        "'=SUM(A1),5,,,,,,draft,Olive Owner",
        '"Say ""hi"", world",10,,,,,,draft,Olive Owner',
        'Dune,412,true,Mei,cover.png,"desert, spice","{""a"":1}",draft,Olive Owner',
        "",
      ].join("\r\n"),
    );
  });

  test("JSON: a list of objects keyed by column, typed, for picked ids", async () => {
    const r = await exportOf({ model: "book", format: "json", columns: ["$id", "title", "keywords", "pages"], instanceIds: [ids.Dune, ids["=SUM(A1)"]] });
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(await r.text())).toEqual([
      { $id: ids["=SUM(A1)"], title: "=SUM(A1)", keywords: null, pages: 5 },
      { $id: ids.Dune, title: "Dune", keywords: ["desert", "spice"], pages: 412 },
    ]);
  });

  test("without columns: the id, every field, status, updated and who; a selection by q", async () => {
    const r = await exportOf({ model: "book", format: "json", q: "dune" });
    const [row] = JSON.parse(await r.text());
    expect(Object.keys(row)).toEqual(["$id", "title", "pages", "done", "author", "cover", "keywords", "extra", "$status", "$updatedAt", "$lastEditedBy"]);
    expect(row.$updatedAt).toBe("2026-11-21T12:00:01.000Z");
  });

  test("more than one chunk streams every entry once", async () => {
    for (let i = 0; i < 520; i++) await h.json("POST", "/v2/model-instances", { token, body: { model: "book", data: { title: `Bulk ${i}`, pages: i } } });
    const r = await exportOf({ model: "book", format: "json", columns: ["pages"], q: "bulk", sort: "-pages" });
    const rows = JSON.parse(await r.text()) as { pages: number }[];
    expect(rows.map((x) => x.pages)).toEqual(Array.from({ length: 520 }, (_, i) => 519 - i));
  });

  test("refusals name what to fix, before anything is streamed", async () => {
    const cases: [unknown, number, Record<string, unknown>][] = [
      [
        { model: "book", format: "csv", columns: ["title", "price"] },
        400,
        { error: "columns[1] names no column of the model book: price", code: "invalid_body", field: "columns[1]" },
      ],
      [{ model: "book", format: "xml" }, 400, { error: "format must be csv or json", code: "invalid_body", field: "format" }],
      [
        { model: "book", format: "csv", instanceIds: [ids.Dune], q: "x" },
        400,
        { error: "Name entries by instanceIds, or by where, q and status, not both", code: "invalid_body", field: "instanceIds" },
      ],
      [
        { model: "book", format: "csv", where: { price: { gt: 1 } } },
        400,
        { error: 'The model book has no field "price".', code: "unknown_field", field: "where" },
      ],
      [{ model: "ghost", format: "csv" }, 404, { error: 'No model "ghost" in this project.', code: "not_found", field: "model" }],
    ];
    for (const [body, status, want] of cases) {
      const r = await exportOf(body);
      expect([r.status, await r.json()]).toEqual([status, want]);
    }
  });
});
