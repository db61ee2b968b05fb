// Cursors are the REST cursors (interface.md, "Connections and cursors"): while hasNextPage is
// true endCursor equals REST page.next; on the last page it still names the last entry; either
// surface accepts the other's; backward paging with last/before; invalid_cursor cases.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { expectGqlError, fixture, type Fixture } from "./fixture.ts";

let h: Harness;
let f: Fixture;
const LONG = (n: number) => `${"L".repeat(200)}-${n}`;
const longIds: string[] = [];

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
  for (let i = 0; i < 30; i++) {
    const x = await f.create("item", { title: `P${String(i).padStart(2, "0")}`, ...(i % 4 ? { price: i % 7 } : {}) });
    if (i % 3) await f.publish(x.id);
  }
  for (const n of [1, 2, 3]) longIds.push((await f.create("item", { title: `L${n}`, body: LONG(n) })).id);
});
afterAll(() => h.close());

type Page = {
  ids: string[];
  cursors: string[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};

async function gqlPage(key: string, args: string): Promise<Page> {
  const r = await f.gql(key, `{ item(${args}) { edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`);
  if (r.status !== 200 || r.body.errors) throw new Error(`${args}: ${JSON.stringify(r.body)}`);
  const c = r.body.data.item;
  expect(c.nodes.map((x: any) => x.id)).toEqual(c.edges.map((x: any) => x.node.id));
  return { ids: c.nodes.map((x: any) => x.id), cursors: c.edges.map((x: any) => x.cursor), pageInfo: c.pageInfo };
}

async function restPage(key: string, params: string) {
  const r = await h.json("GET", `/api/entries/item?select=title&${params}`, { headers: { "x-api-key": key } });
  if (r.status !== 200) throw new Error(`${params}: ${JSON.stringify(r.body)}`);
  return { ids: r.body.data.map((x: any) => x.id) as string[], next: r.body.meta.page.next as string | null, prev: r.body.meta.page.prev as string | null };
}

const q = (v: string) => JSON.stringify(v);

describe("forward", () => {
  for (const [label, sortArg, sortParam] of [
    ["default order", "", ""],
    ["price ascending", ", sort: [price_ASC]", "&sort=price"],
    ["title descending", ", sort: [title_DESC, price_ASC]", "&sort=-title,price"],
  ]) {
    test(`${label}: endCursor equals REST page.next while hasNextPage; the last page names its last entry`, async () => {
      for (const key of [f.dev, f.prod]) {
        const all = await restPage(key, `limit=200${sortParam}`);
        let after: string | null = null;
        const seen: string[] = [];
        for (let guard = 0; guard < 50; guard++) {
          const g: Page = await gqlPage(key, `first: 4${sortArg}${after ? `, after: ${q(after)}` : ""}`);
          const r = await restPage(key, `limit=4${sortParam}${after ? `&after=${after}` : ""}`);
          expect(g.ids).toEqual(r.ids);
          expect(g.pageInfo.hasNextPage).toBe(r.next !== null);
          expect(g.pageInfo.hasPreviousPage).toBe(after !== null);
          expect(g.pageInfo.startCursor).toBe(g.cursors[0] ?? null);
          seen.push(...g.ids);
          if (!g.pageInfo.hasNextPage) {
            expect(g.pageInfo.endCursor).toBe(g.cursors[g.cursors.length - 1]!);
            break;
          }
          expect(g.pageInfo.endCursor).toBe(r.next);
          expect(g.cursors[g.cursors.length - 1]).toBe(r.next!);
          after = g.pageInfo.endCursor;
        }
        expect(seen).toEqual(all.ids);
      }
    });
  }

  test("each edge cursor continues after its entry, on both surfaces", async () => {
    const g = await gqlPage(f.dev, "first: 10, sort: [price_DESC]");
    for (let i = 0; i < g.cursors.length; i++) {
      const next = await gqlPage(f.dev, `first: 3, sort: [price_DESC], after: ${q(g.cursors[i]!)}`);
      const rest = await restPage(f.dev, `limit=3&sort=-price&after=${g.cursors[i]}`);
      expect(next.ids).toEqual(rest.ids);
      const all = await restPage(f.dev, "limit=200&sort=-price");
      expect(next.ids).toEqual(all.ids.slice(i + 1, i + 4));
    }
  });

  test("a REST cursor is accepted by GraphQL and the other way round", async () => {
    const r = await restPage(f.prod, "limit=5&sort=price");
    const g = await gqlPage(f.prod, `first: 5, sort: [price_ASC], after: ${q(r.next!)}`);
    const r2 = await restPage(f.prod, `limit=5&sort=price&after=${r.next}`);
    expect(g.ids).toEqual(r2.ids);
    const r3 = await restPage(f.prod, `limit=5&sort=price&after=${g.pageInfo.endCursor}`);
    const g3 = await gqlPage(f.prod, `first: 5, sort: [price_ASC], after: ${q(r2.next!)}`);
    expect(r3.ids).toEqual(g3.ids);
  });
});

describe("backward", () => {
  test("last alone reads the end of the list with hasNextPage false (REST before=end)", async () => {
    const all = await restPage(f.dev, "limit=200");
    const g = await gqlPage(f.dev, "last: 3");
    expect(g.ids).toEqual(all.ids.slice(-3));
    expect(g.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const nulled = await gqlPage(f.dev, "last: 3, before: null");
    expect(nulled.ids).toEqual(g.ids);
    const r = await restPage(f.dev, "limit=3&before=end");
    expect(g.ids).toEqual(r.ids);
    // Walking back with before = startCursor reads the entries just before, in list order.
    const back = await gqlPage(f.dev, `last: 3, before: ${q(g.pageInfo.startCursor!)}`);
    expect(back.ids).toEqual(all.ids.slice(-6, -3));
    expect(back.pageInfo.hasNextPage).toBe(true);
    const rb = await restPage(f.dev, `limit=3&before=${g.pageInfo.startCursor}`);
    expect(back.ids).toEqual(rb.ids);
    expect(back.pageInfo.endCursor).toBe(rb.next);
  });

  test("walking back from the end reaches the start", async () => {
    const all = await restPage(f.prod, "limit=200&sort=price");
    const seen: string[] = [];
    let before: string | null = null;
    for (let guard = 0; guard < 50; guard++) {
      const g: Page = await gqlPage(f.prod, `last: 4, sort: [price_ASC]${before ? `, before: ${q(before)}` : ""}`);
      seen.unshift(...g.ids);
      if (!g.pageInfo.hasPreviousPage) break;
      before = g.pageInfo.startCursor;
    }
    expect(seen).toEqual(all.ids);
  });

  test("before alone reads 25", async () => {
    const all = await restPage(f.dev, "limit=200");
    const g = await gqlPage(f.dev, `before: ${q((await gqlPage(f.dev, "last: 1")).cursors[0]!)}`);
    expect(g.ids).toEqual(all.ids.slice(-26, -1));
  });
});

describe("invalid_cursor", () => {
  const one = async (key: string, args: string) => {
    const r = await f.gql(key, `{ item(${args}) { nodes { id } } version }`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ item: null, version: "2026-10-01" });
    expect(r.body.errors).toHaveLength(1);
    return r.body.errors[0];
  };

  test("a cursor that is not one", async () => {
    const e = await one(f.dev, 'after: "not-a-cursor"');
    expectGqlError(e, "invalid_cursor", "invalid_request", { param: "after", path: ["item"] });
    const b = await one(f.dev, 'last: 2, before: "%%%"');
    expectGqlError(b, "invalid_cursor", "invalid_request", { param: "before", path: ["item"] });
  });

  test("a cursor made for another sort order", async () => {
    const g = await gqlPage(f.dev, "first: 2, sort: [price_ASC]");
    const e = await one(f.dev, `first: 2, sort: [title_ASC], after: ${q(g.pageInfo.endCursor!)}`);
    expectGqlError(e, "invalid_cursor", "invalid_request", { param: "after", path: ["item"] });
    expect(e.message).toBe("The cursor was made for another sort order.");
  });

  test("a long sort value is carried as a digest; the entry changing since the page was read refuses the cursor", async () => {
    const g = await gqlPage(f.dev, 'first: 1, sort: [body_DESC], filter: { body: { startsWith: "LLLL" } }');
    expect(g.ids).toEqual([longIds[2]]);
    const next = await gqlPage(f.dev, `first: 1, sort: [body_DESC], filter: { body: { startsWith: "LLLL" } }, after: ${q(g.pageInfo.endCursor!)}`);
    expect(next.ids).toEqual([longIds[1]]);
    await f.patch(longIds[2]!, { data: { body: LONG(9) } });
    const e = await one(f.dev, `first: 1, sort: [body_DESC], after: ${q(g.pageInfo.endCursor!)}`);
    expectGqlError(e, "invalid_cursor", "invalid_request", { param: "after", path: ["item"] });
    expect(e.message).toBe("The entry the cursor points at has changed since the page was read.");
  });
});
