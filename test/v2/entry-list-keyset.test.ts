// GET /v2/model-instances by keyset (`after` = the previous page's `next`), text search `q`,
// and `updatedBy` on every item; `page` keeps working for older callers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

describe("entry list paging and search", () => {
  let h: Harness;
  let token: string;
  let userId: string;
  const titles = ["Alpha", "Bravo", "Charlie", "Delta 50%", "Echo", "Foxtrot", "Golf"];
  const ids: string[] = [];

  beforeAll(async () => {
    h = startApp();
    const o = await withOwner(h);
    token = o.token;
    userId = o.user.id;
    await h.json("POST", "/v2/models", { token, body: { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] } });
    // Two entries share each created instant, so the id breaks ties.
    for (const [i, title] of titles.entries()) {
      if (i % 2 === 0) h.clock.advance(1000);
      const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "note", data: { title } } });
      ids.push(r.body.id);
    }
  });
  afterAll(() => h.close());

  const list = (query: string) => h.json("GET", `/v2/model-instances?model=note&${query}`, { token });

  test("following `next` walks every entry once, newest first, in the order of page paging", async () => {
    const walked: string[] = [];
    let r = await list("limit=3");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, limit: 3, total: 7 });
    walked.push(...r.body.data.map((e: { id: string }) => e.id));
    const sizes = [r.body.data.length];
    while (r.body.next) {
      r = await list(`limit=3&after=${r.body.next}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(["data", "limit", "next", "total"]);
      expect(r.body.total).toBe(7);
      sizes.push(r.body.data.length);
      walked.push(...r.body.data.map((e: { id: string }) => e.id));
    }
    expect(sizes).toEqual([3, 3, 1]);
    const byPage = [];
    for (const page of [1, 2, 3]) byPage.push(...(await list(`limit=3&page=${page}`)).body.data.map((e: { id: string }) => e.id));
    expect(walked).toEqual(byPage);
    expect(new Set(walked)).toEqual(new Set(ids));
    // Newest first: the last two created share the newest instant.
    expect(new Set(walked.slice(0, 1))).toEqual(new Set([ids[6]]));
  });

  test("the last page answers next: null", async () => {
    const r = await list("limit=7");
    expect(r.body.next).toBeNull();
    expect(r.body.data).toHaveLength(7);
  });

  test("every item names who saved its draft", async () => {
    const r = await list("limit=1");
    expect(r.body.data[0].updatedBy).toBe(`user:${userId}`);
  });

  test("q keeps entries whose draft holds the text, case-insensitively, with % taken literally", async () => {
    const r = await list("q=CHAR");
    expect(r.body.data.map((e: { draft: { data: { title: string } } }) => e.draft.data.title)).toEqual(["Charlie"]);
    expect(r.body.total).toBe(1);
    const pct = await list(`q=${encodeURIComponent("50%")}`);
    expect(pct.body.data.map((e: { draft: { data: { title: string } } }) => e.draft.data.title)).toEqual(["Delta 50%"]);
    expect((await list(`q=${encodeURIComponent("%")}`)).body.total).toBe(1);
    // A text no value holds finds nothing.
    expect((await list("q=zzz")).body).toMatchObject({ data: [], total: 0, next: null });
  });

  test("after and page together are refused, naming after", async () => {
    const first = await list("limit=2");
    const r = await list(`limit=2&page=2&after=${first.body.next}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "after and page cannot be combined; follow `next` from the previous page",
      code: "invalid_body",
      field: "after",
    });
  });

  test("a cursor that is not one of ours is refused", async () => {
    for (const bad of ["nope", Buffer.from('["x","y"]').toString("base64url"), ""]) {
      const r = await list(`after=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "after must be the `next` cursor of a previous page", code: "invalid_body", field: "after" });
    }
  });

  test("sort orders by createdAt or updatedAt either way, and the cursor follows that order", async () => {
    // Saving the oldest entry makes it the most recently updated.
    h.clock.advance(5000);
    await h.json("PATCH", `/v2/model-instances/${ids[0]}`, { token, body: { data: { title: "Alpha, edited" } } });
    const walk = async (sort: string) => {
      const out: string[] = [];
      let r = await list(`limit=3&sort=${sort}`);
      out.push(...r.body.data.map((e: { id: string }) => e.id));
      while (r.body.next) {
        r = await list(`limit=3&sort=${sort}&after=${r.body.next}`);
        expect(r.status).toBe(200);
        out.push(...r.body.data.map((e: { id: string }) => e.id));
      }
      return out;
    };
    const oldest = await walk("createdAt");
    expect(oldest).toEqual([...(await walk("-createdAt"))].reverse());
    expect(oldest[0]).toBe(ids[0]);
    const updated = await walk("-updatedAt");
    expect(updated[0]).toBe(ids[0]);
    expect(updated).toHaveLength(7);
    expect(await walk("updatedAt")).toEqual([...updated].reverse());
  });

  test("a cursor of one order is refused under another, and an unknown sort is refused, naming sort", async () => {
    const first = await list("limit=2&sort=updatedAt");
    const r = await list(`limit=2&sort=createdAt&after=${first.body.next}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "after is a cursor of the order updatedAt; send the same sort as the page it came from",
      code: "invalid_body",
      field: "after",
    });
    // A field sort needs the model (entry-list-fields.test.ts); across models only the times order.
    const bad = await h.json("GET", "/v2/model-instances?sort=title", { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "sort must be createdAt, -createdAt, updatedAt or -updatedAt", code: "invalid_body", field: "sort" });
    const unknown = await list("sort=nope");
    expect([unknown.status, unknown.body]).toEqual([400, { error: 'The model note has no field "nope" to sort by.', code: "unknown_field", field: "sort" }]);
  });

  test("a q longer than 200 characters is refused", async () => {
    const r = await list(`q=${"a".repeat(201)}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "q must be a text of up to 200 characters", code: "invalid_body", field: "q" });
  });
});
