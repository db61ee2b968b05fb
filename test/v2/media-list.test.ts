// GET /v2/media's sorts, count and cursor (issue 27, lists): every sort pages exactly (ties on a
// name without case or on a size go by upload order), `total` counts what the filter matches on
// every page, a bad sort or a cursor of another sort is refused whole, and each sort's page by
// cursor is one search on an index in the sort's order (EXPLAIN QUERY PLAN: no temporary B-tree).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mediaPageStatements } from "../../src/domain/media/list.ts";
import { type Harness, startApp, withOwner } from "../harness.ts";

let h: Harness;
let token: string;
let projectId: string;
let folderId: string;
/** The ids by name, in upload order. */
const id: Record<string, string> = {};

// Names and contents (so sizes) in upload order: b.txt and B.txt tie by name without case, and
// b.txt and B.txt tie by size too (3 bytes), so the tie-break (upload order) shows.
const FILES: [string, string][] = [
  ["b.txt", "xyz"],
  ["A.txt", "hello"],
  ["c.txt", "z"],
  ["B.txt", "abc"],
  ["a2.png.txt", "abcd"],
];

const as = () => ({ token, headers: { "x-svc-project": projectId } });

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  const f = await h.json("POST", "/v2/media-folders", { ...as(), body: { name: "Sorted" } });
  folderId = f.body.id;
  const fd = new FormData();
  for (const [name, text] of FILES) fd.append("file", new Blob([text]), name);
  fd.append("folder", folderId);
  const r = await h.json("POST", "/v2/media?duplicate=true", { raw: fd, ...as() });
  expect(r.status).toBe(201);
  for (const m of r.body.data) id[m.filename] = m.id;
  // One file outside the folder, so the folder's count differs from the library's.
  const out = new FormData();
  out.append("file", new Blob(["outside"]), "outside.txt");
  expect((await h.json("POST", "/v2/media?duplicate=true", { raw: out, ...as() })).status).toBe(201);
});
afterAll(() => h.close());

/** Every page of a query, two at a time: the names in order, and each page's total. */
async function walk(query: string): Promise<{ names: string[]; totals: number[] }> {
  const names: string[] = [];
  const totals: number[] = [];
  let after: string | null = null;
  do {
    const r: { status: number; body: any } = await h.json("GET", `/v2/media?${query}&limit=2${after ? `&after=${encodeURIComponent(after)}` : ""}`, as());
    expect(r.status).toBe(200);
    names.push(...r.body.data.map((m: { filename: string }) => m.filename));
    totals.push(r.body.total);
    after = r.body.next;
  } while (after !== null);
  return { names, totals };
}

describe("sorts page exactly, with the total on every page", () => {
  for (const [sort, names] of [
    ["-createdAt", ["a2.png.txt", "B.txt", "c.txt", "A.txt", "b.txt"]],
    ["createdAt", ["b.txt", "A.txt", "c.txt", "B.txt", "a2.png.txt"]],
    ["name", ["A.txt", "a2.png.txt", "b.txt", "B.txt", "c.txt"]],
    ["-name", ["c.txt", "B.txt", "b.txt", "a2.png.txt", "A.txt"]],
    ["size", ["c.txt", "b.txt", "B.txt", "a2.png.txt", "A.txt"]],
    ["-size", ["A.txt", "a2.png.txt", "B.txt", "b.txt", "c.txt"]],
  ] as const) {
    test(`sort=${sort}`, async () => {
      expect(await walk(`folder=${folderId}&sort=${sort}`)).toEqual({ names: [...names], totals: [5, 5, 5] });
    });
  }

  test("no sort is newest first, as before; total counts the whole library", async () => {
    const r = await h.json("GET", "/v2/media?limit=1", as());
    expect(r.body).toEqual({ data: [expect.objectContaining({ filename: "outside.txt" })], next: expect.any(String), total: 6 });
  });

  test("total follows the filter: q, kind, folder", async () => {
    expect(await walk(`sort=name&q=B.`)).toEqual({ names: ["b.txt", "B.txt"], totals: [2] });
    const none = await h.json("GET", "/v2/media?kind=image", as());
    expect(none.body).toEqual({ data: [], next: null, total: 0 });
    const root = await h.json("GET", "/v2/media?folder=&sort=size", as());
    expect(root.body).toEqual({ data: [expect.objectContaining({ filename: "outside.txt" })], next: null, total: 1 });
  });

  test("thumbnails=true answers the same page and total", async () => {
    const r = await h.json("GET", `/v2/media?folder=${folderId}&sort=-size&limit=2&thumbnails=true`, as());
    expect(r.status).toBe(200);
    expect([r.body.data.map((m: { id: string }) => m.id), r.body.total]).toEqual([[id["A.txt"], id["a2.png.txt"]], 5]);
  });
});

describe("refusals", () => {
  test("a sort the list does not have names the parameter and every sort it has", async () => {
    const r = await h.json("GET", "/v2/media?sort=date", as());
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error:
        "sort must be one of: -createdAt, createdAt, name, -name, size, -size (newest first, oldest first, name A to Z, name Z to A, smallest first, largest first)",
      code: "invalid_body",
      field: "sort",
    });
  });

  test("a cursor of another sort is refused, not misread", async () => {
    const p1 = await h.json("GET", `/v2/media?folder=${folderId}&sort=name&limit=2`, as());
    for (const [sort, error] of [
      ["-name", "after is the cursor of another sort; send the sort of the page it came from (-name here)"],
      ["size", "after is the cursor of another sort; send the sort of the page it came from (size here)"],
      ["-createdAt", "after must be the next cursor of a previous page"],
    ]) {
      const r = await h.json("GET", `/v2/media?sort=${sort}&after=${p1.body.next}`, as());
      expect([r.status, r.body]).toEqual([400, { error, code: "invalid_body", field: "after" }]);
    }
  });

  test("a cursor that is not one is refused", async () => {
    for (const after of ["abc", Buffer.from('["name",3,1]').toString("base64url"), Buffer.from('["name","x"]').toString("base64url"), "12"]) {
      const r = await h.json("GET", `/v2/media?sort=name&after=${after}`, as());
      expect([r.status, r.body]).toEqual([400, { error: "after must be the next cursor of a previous page", code: "invalid_body", field: "after" }]);
    }
  });
});

describe("each sort's page by cursor is one index search", () => {
  /** The plan of a statement. */
  function plan(st: { toSQL(): { sql: string; params: unknown[] } }): string[] {
    const { sql, params } = st.toSQL();
    const db = h.capa.services.projects.get(projectId).sqlite;
    return (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[]).map((r) => r.detail);
  }

  for (const [sort, all, inFolder] of [
    ["-createdAt", "SEARCH media USING INDEX media_seq (seq<?)", "SEARCH media USING INDEX media_folder_seq (folder_id=? AND seq<?)"],
    ["createdAt", "SEARCH media USING INDEX media_seq (seq>?)", "SEARCH media USING INDEX media_folder_seq (folder_id=? AND seq>?)"],
    ["name", "SEARCH media USING INDEX media_name_seq (filename>?)", "SEARCH media USING INDEX media_folder_name_seq (folder_id=? AND filename>?)"],
    ["-name", "SEARCH media USING INDEX media_name_seq (filename<?)", "SEARCH media USING INDEX media_folder_name_seq (folder_id=? AND filename<?)"],
    ["size", "SEARCH media USING INDEX media_size_seq (size>?)", "SEARCH media USING INDEX media_folder_size_seq (folder_id=? AND size>?)"],
    ["-size", "SEARCH media USING INDEX media_size_seq (size<?)", "SEARCH media USING INDEX media_folder_size_seq (folder_id=? AND size<?)"],
  ] as const) {
    test(`sort=${sort}`, async () => {
      const p1 = await h.json("GET", `/v2/media?folder=${folderId}&sort=${sort}&limit=2`, as());
      const ph = h.capa.services.projects.get(projectId);
      expect(plan(mediaPageStatements(ph, { sort, limit: "2", after: p1.body.next }).page)).toEqual([all]);
      expect(plan(mediaPageStatements(ph, { folder: folderId, sort, limit: "2", after: p1.body.next }).page)).toEqual([inFolder]);
    });
  }
});
