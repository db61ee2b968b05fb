// Keyset cursors on GET /api/entries/{ns}: every page forward (after) and back (before,
// before=end) on several sorts and both key environments, compared with the full list; long text
// sort values carried as digests; cursors refused when the anchor changed, is gone, or the sort
// differs (interface.md, Connections and cursors; decisions.md sections 4 and 9).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { expectError, seed, w, type Seed } from "./seed.ts";

let h: Harness;
let s: Seed;
const LONG = (n: number) => `${"L".repeat(200)}-${n}`;
const L: Record<string, { id: string }> = {};
const CHANGED = "The entry the cursor points at has changed since the page was read.";

beforeAll(async () => {
  h = startApp();
  s = await seed(h);
  // Twenty more items with repeated and missing prices; the odd ones are published.
  const prices = [5, 5, 5, null, 7, null, 10, 10, 2, null, 3.5, 5, 8, null, 1, 9, 9, null, 4, 6];
  for (let i = 0; i < prices.length; i++) {
    const p = prices[i];
    const x = await s.create("item", {
      title: `P${String(i + 1).padStart(2, "0")}`,
      ...(p === null ? {} : { price: p }),
      ...(i % 3 ? { onSale: i % 2 === 0 } : {}),
    });
    if (i % 2 === 0) await s.publish(x.id);
  }
  // Three items saved at the same instant: the default sort breaks their tie by id.
  h.clock.advance(1000);
  for (const t of ["S1", "S2", "S3"]) {
    const r = await h.json("POST", "/v2/model-instances", { token: s.token, body: { model: "item", data: { title: t, price: 5 } } });
    await s.publish(r.body.id);
  }
  // Long text sort values (over 128 bytes).
  for (const n of [1, 2, 3, 4]) {
    L[n] = await s.create("item", { title: `L${n}`, body: LONG(n) });
    await s.publish(L[n]!.id);
  }
});
afterAll(() => h.close());

type Row = { id: string; title: string };
async function full(key: string, params: string): Promise<Row[]> {
  const r = await s.get(`/api/entries/item?limit=200&select=title&${params}`, key);
  expect(r.status).toBe(200);
  expect(r.body.meta.page.next).toBeNull();
  return r.body.data;
}
async function page(key: string, params: string) {
  const r = await s.get(`/api/entries/item?select=title&${params}`, key);
  if (r.status !== 200) throw new Error(`${params}: ${r.status} ${JSON.stringify(r.body)}`);
  return { rows: r.body.data as Row[], next: r.body.meta.page.next as string | null, prev: r.body.meta.page.prev as string | null };
}

/** Walks forward with after and back with before (from before=end), checking each page against the full list. */
async function walkBoth(key: string, params: string, limit: number) {
  const all = await full(key, params);
  expect(all.length).toBeGreaterThan(limit * 2);
  const ids = all.map((x) => x.id);
  // Forward.
  const seen: string[] = [];
  let cur = await page(key, `${params}&limit=${limit}`);
  expect(cur.prev).toBeNull();
  const forwardPages: (typeof cur)[] = [];
  for (;;) {
    forwardPages.push(cur);
    expect(cur.rows.map((x) => x.id)).toEqual(ids.slice(seen.length, seen.length + limit));
    seen.push(...cur.rows.map((x) => x.id));
    if (!cur.next) break;
    expect(cur.next.length).toBeLessThan(300);
    cur = await page(key, `${params}&limit=${limit}&after=${cur.next}`);
  }
  expect(seen).toEqual(ids);
  expect(forwardPages.length).toBe(Math.ceil(ids.length / limit));
  // From each forward page, prev goes back to exactly the page before it.
  for (let i = 1; i < forwardPages.length; i++) {
    const p = forwardPages[i]!;
    expect(p.prev).not.toBeNull();
    const back = await page(key, `${params}&limit=${limit}&before=${p.prev}`);
    expect(back.rows.map((x) => x.id)).toEqual(forwardPages[i - 1]!.rows.map((x) => x.id));
    expect(back.prev === null).toBe(i === 1);
    // ... and that page's next comes forward again to the same page.
    const again = await page(key, `${params}&limit=${limit}&after=${back.next}`);
    expect(again.rows.map((x) => x.id)).toEqual(p.rows.map((x) => x.id));
  }
  // Backward from the end.
  const back: string[] = [];
  cur = await page(key, `${params}&limit=${limit}&before=end`);
  expect(cur.next).toBeNull();
  for (;;) {
    const start = ids.length - back.length - cur.rows.length;
    expect(cur.rows.map((x) => x.id)).toEqual(ids.slice(Math.max(0, start), ids.length - back.length));
    back.unshift(...cur.rows.map((x) => x.id));
    if (!cur.prev) break;
    cur = await page(key, `${params}&limit=${limit}&before=${cur.prev}`);
  }
  expect(back).toEqual(ids);
  return all;
}

describe("walking every page", () => {
  for (const [name, key] of [
    ["development", () => s.dev],
    ["production", () => s.prod],
  ] as const) {
    test(`${name}: nullable number sort, both directions`, async () => {
      const asc = await walkBoth(key(), "sort=price", 4);
      const desc = await walkBoth(key(), "sort=-price", 3);
      // Nulls last in both directions.
      const prices = async (params: string) =>
        (await s.get(`/api/entries/item?limit=200&select=price&${params}`, key())).body.data.map((x: { price: number | null }) => x.price);
      const pa = await prices("sort=price");
      const pd = await prices("sort=-price");
      const firstNull = pa.indexOf(null);
      expect(pa.slice(firstNull).every((x: unknown) => x === null)).toBe(true);
      expect(pd.slice(pd.indexOf(null)).every((x: unknown) => x === null)).toBe(true);
      expect(pa.slice(0, firstNull)).toEqual([...pa.slice(0, firstNull)].sort((a: number, b: number) => a - b));
      expect(asc.length).toBe(desc.length);
    });

    test(`${name}: default sort and multi-key sorts`, async () => {
      const def = await walkBoth(key(), "", 5);
      const ss = def.filter((x) => x.title.startsWith("S")).map((x) => x.id);
      expect(ss).toEqual([...ss].sort().reverse());
      await walkBoth(key(), "sort=onSale,-price", 4);
      await walkBoth(key(), "sort=-onSale,price,title", 6);
      await walkBoth(key(), "sort=author.name,-price", 4);
      await walkBoth(key(), "sort=-$publishedAt,-$createdAt", 4);
      await walkBoth(key(), "sort=$publishedAt,-createdAt,id", 5);
      await walkBoth(key(), "sort=-updatedAt", 7);
      await walkBoth(key(), `sort=price&${w({ price: { gte: 5 } })}`, 2);
    });
  }

  test("a text sort over 128 bytes: digests keep the cursor short and work both ways", async () => {
    const all = await walkBoth(s.dev, "sort=body", 2);
    expect(
      all
        .slice(-4)
        .map((x) => x.title)
        .every((t) => !t.startsWith("L")),
    ).toBe(true);
    await walkBoth(s.prod, "sort=-body", 1);
    const p = await page(s.dev, `sort=body&limit=1&${w({ title: { startsWith: "L" } })}`);
    expect(p.rows[0]!.title).toBe("L1");
    expect(p.next!.length).toBeLessThan(150);
    const decoded = JSON.parse(Buffer.from(p.next!, "base64url").toString());
    expect(JSON.stringify(decoded)).not.toContain("LLLL");
  });

  test("an empty list has no cursors", async () => {
    const p = await page(s.dev, `${w({ title: "none" })}&before=end`);
    expect(p).toEqual({ rows: [], next: null, prev: null });
    const f = await page(s.dev, `${w({ title: "none" })}`);
    expect(f).toEqual({ rows: [], next: null, prev: null });
  });
});

describe("refused cursors", () => {
  test("a cursor for another sort, and garbage", async () => {
    const p = await page(s.prod, "sort=price&limit=2");
    for (const other of ["sort=-price", "sort=title", "", "sort=price,title"]) {
      const e = expectError(await s.get(`/api/entries/item?${other}&after=${p.next}`, s.prod), 400, "invalid_cursor");
      expect(e.param).toBe("after");
    }
    expectError(await s.get(`/api/entries/item?sort=-price&before=${p.next}`, s.prod), 400, "invalid_cursor");
    const garbage = [
      "abc!",
      "zzzz",
      "%00",
      "end2",
      Buffer.from("[1,2,3]").toString("base64url"),
      Buffer.from('["x",[],"not-a-uuid"]').toString("base64url"),
      Buffer.from(`["x",[1,2,3,4],"${s.e.Alpha.id}"]`).toString("base64url"),
      "a".repeat(3000),
    ];
    for (const g of garbage) {
      expectError(await s.get(`/api/entries/item?after=${encodeURIComponent(g)}`, s.prod), 400, "invalid_cursor");
      expectError(await s.get(`/api/entries/item?before=${encodeURIComponent(g)}`, s.prod), 400, "invalid_cursor");
    }
    expectError(await s.get(`/api/entries/item?after=`, s.prod), 400, "invalid_cursor");
    // A cursor whose values were tampered with but keeps the sort: a valid keyset position.
    const [sig, , id] = JSON.parse(Buffer.from(p.next!, "base64url").toString());
    const forged = Buffer.from(JSON.stringify([sig, [7], id])).toString("base64url");
    const r = await page(s.prod, `sort=price&limit=200&after=${forged}`);
    expect(r.rows.length).toBeGreaterThan(0);
  });

  test("the anchor's long text edited: refused for the copy the key reads", async () => {
    const where = w({ title: { startsWith: "L" } });
    const c: Record<number, string> = {};
    let p = await page(s.dev, `sort=body&limit=1&${where}`);
    for (const n of [1, 2, 3]) {
      expect(p.rows[0]!.title).toBe(`L${n}`);
      c[n] = p.next!;
      p = await page(s.dev, `sort=body&limit=1&${where}&after=${p.next}`);
    }
    // The same sort gives the same cursor to both environments while the copies agree.
    const pp = await page(s.prod, `sort=body&limit=1&${where}`);
    expect(pp.next).toBe(c[1]!);

    // A development key reads drafts: a saved edit breaks the cursor at once.
    await s.patch(L[1]!.id, { data: { body: LONG(11) } });
    const e1 = expectError(await s.get(`/api/entries/item?sort=body&limit=1&${where}&after=${c[1]}`, s.dev), 400, "invalid_cursor");
    expect(e1.message).toBe(CHANGED);
    expect(e1.param).toBe("after");
    expectError(await s.get(`/api/entries/item?sort=body&limit=1&${where}&before=${c[1]}`, s.dev), 400, "invalid_cursor");
    // ... while the production copy is unchanged, so the production key still pages on.
    expect((await page(s.prod, `sort=body&limit=1&${where}&after=${c[1]}`)).rows[0]!.title).toBe("L2");

    // A production key: a draft edit changes nothing; publishing it breaks the cursor.
    await s.patch(L[2]!.id, { data: { body: LONG(22) } });
    expect((await page(s.prod, `sort=body&limit=1&${where}&after=${c[2]}`)).rows[0]!.title).toBe("L3");
    await s.publish(L[2]!.id);
    const e2 = expectError(await s.get(`/api/entries/item?sort=body&limit=1&${where}&after=${c[2]}`, s.prod), 400, "invalid_cursor");
    expect(e2.message).toBe(CHANGED);

    // Deleting the anchor: refused for both.
    expect((await page(s.prod, `sort=body&limit=1&${where}&after=${c[3]}`)).rows[0]!.title).toBe("L4");
    const del = await h.json("DELETE", `/v2/model-instances/${L[3]!.id}`, { token: s.token });
    expect(del.status).toBeLessThan(300);
    for (const key of [s.dev, s.prod]) {
      const e3 = expectError(await s.get(`/api/entries/item?sort=body&limit=1&${where}&after=${c[3]}`, key), 400, "invalid_cursor");
      expect(e3.message).toBe(CHANGED);
    }
  });

  test("an unpublished anchor is gone for production", async () => {
    const where = w({ title: { startsWith: "L" } });
    const p = await page(s.prod, `sort=-body&limit=1&${where}`);
    expect(p.rows[0]!.title).toBe("L4");
    await h.json("POST", `/v2/model-instances/${L[4]!.id}/unpublish`, { token: s.token });
    const e = expectError(await s.get(`/api/entries/item?sort=-body&limit=1&${where}&after=${p.next}`, s.prod), 400, "invalid_cursor");
    expect(e.message).toBe(CHANGED);
    expect((await page(s.dev, `sort=-body&limit=1&${where}&after=${p.next}`)).rows.length).toBe(1);
  });
});
