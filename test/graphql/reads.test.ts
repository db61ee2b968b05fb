// GraphQL reads are the REST reads (interface.md, "GraphQL behaviour"): each root field becomes
// one GET /api/entries/... whose URL extensions.svc.rest shows; the same values, drafts for a
// development key and published copies for production, filters, sorts, single entries, entry,
// node and nodes, nested relation windows and missing references.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { IMG1 } from "../api/seed.ts";
import { expectGqlError, fixture, type Fixture } from "./fixture.ts";

let h: Harness;
let f: Fixture;
let windowed: string;

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
  const { ann, bob, cid, dee } = f.a;
  // dee is a draft: a production key does not see it, so it keeps its place without a node.
  const w = await f.create("item", { title: "Windowed", authors: [ann.id, dee.id, bob.id, cid.id, ann.id] });
  await f.publish(w.id);
  windowed = w.id;
});
afterAll(() => h.close());

const ok = (r: { status: number; body: any }) => {
  if (r.status !== 200 || r.body.errors) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

describe("root list = GET /api/entries/{ns}", () => {
  test("values equal the REST read named in extensions.svc.rest", async () => {
    const q = `{ item(first: 4, sort: [price_DESC]) { nodes { id title price onSale launch labels scores flags days cover { id url alt type width height }
      gallery { url } meta extras tags odd_name _tags _version status model createdAt updatedAt publishedAt _folder author { id name } } } }`;
    for (const key of [f.dev, f.prod]) {
      const body = ok(await f.gql(key, q, undefined, { extensions: { svc: true } }));
      const [rest] = body.extensions.svc.rest;
      expect(rest.field).toBe("item");
      expect(rest.url).toBe(
        "/api/entries/item?select=title,price,onSale,launch,labels,scores,flags,days,cover,gallery,meta,extras,tags,%22odd,name%22,$tags,version,status,model,createdAt,updatedAt,publishedAt,folder,author(name)&sort=-price&limit=4",
      );
      const r = await h.json("GET", rest.url, { headers: { "x-api-key": key } });
      expect(r.status).toBe(200);
      const gql = body.data.item.nodes;
      expect(gql.map((x: any) => x.id)).toEqual(r.body.data.map((x: any) => x.id));
      r.body.data.forEach((e: any, i: number) => {
        const g = gql[i];
        expect(g).toMatchObject({
          title: e.title,
          price: e.price,
          onSale: e.onSale,
          launch: e.launch,
          labels: e.labels,
          scores: e.scores,
          flags: e.flags,
          days: e.days,
          meta: e.meta,
          extras: e.extras,
          tags: e.tags,
          odd_name: e["odd,name"],
          _tags: e.$tags,
          _version: e.version,
          status: e.status,
          model: "item",
          createdAt: e.createdAt,
          updatedAt: e.updatedAt,
          publishedAt: e.publishedAt,
          _folder: e.folder,
        });
        expect(g.author).toEqual(e.author === null ? null : { id: e.author.id, name: e.author.name });
        expect(g.cover).toEqual(e.cover);
      });
    }
  });

  test("a development key reads drafts; a production key published copies", async () => {
    const q = `{ item(first: 50, filter: { title: { startsWith: "Eta" } }) { nodes { title price status _version } } zeta: item(filter: { title: { eq: "Zeta" } }) { nodes { title } } }`;
    const dev = ok(await f.gql(f.dev, q)).data;
    const prod = ok(await f.gql(f.prod, q)).data;
    expect(dev.item.nodes).toEqual([{ title: "Eta v2", price: 1, status: "changed", _version: 2 }]);
    expect(prod.item.nodes).toEqual([{ title: "Eta", price: 40, status: "changed", _version: 1 }]);
    expect(dev.zeta.nodes).toEqual([{ title: "Zeta" }]);
    expect(prod.zeta.nodes).toEqual([]);
  });

  test("filters mirror where: typed keys, and/or/not, one hop into a relation, tags", async () => {
    const cases: [string, unknown][] = [
      ["{ price: { gte: 10 } }", { price: { gte: 10 } }],
      ['{ title: { in: ["Alpha", "Beta"] }, onSale: { eq: true } }', { title: { in: ["Alpha", "Beta"] }, onSale: { eq: true } }],
      ['{ or: [{ price: { lt: 6 } }, { size: { eq: "m" } }] }', { or: [{ price: { lt: 6 } }, { size: { eq: "m" } }] }],
      ["{ not: { price: { exists: true } } }", { not: { price: { exists: true } } }],
      ['{ author: { name: { eq: "Ann" } } }', { "author.name": { eq: "Ann" } }],
      [`{ author: { eq: "${f.a.bob.id}" } }`, { author: { eq: f.a.bob.id } }],
      ['{ authors: { name: { eq: "Bob" } } }', { "authors.name": { eq: "Bob" } }],
      ['{ _tags: { has: "news" } }', { $tags: { has: "news" } }],
      ["{ _tags: { exists: false } }", { $tags: { exists: false } }],
      ['{ tags: { hasAll: ["t1", "t2"] } }', { tags: { hasAll: ["t1", "t2"] } }],
      ['{ launch: { gte: "2026-01-01" } }', { launch: { gte: "2026-01-01" } }],
      ['{ days: { has: "2026-01-01T00:00:00Z" } }', { days: { has: "2026-01-01T00:00:00Z" } }],
      ['{ cover: { id: "img_1" } }', { cover: { id: "img_1" } }],
      ["{ meta: { null: true } }", { meta: { null: true } }],
      ['{ odd_name: { endsWith: "beta" } }', { "odd,name": { endsWith: "beta" } }],
      ["{ status: { eq: changed } }", { $status: { eq: "changed" } }],
    ];
    for (const [filter, where] of cases) {
      for (const key of [f.dev, f.prod]) {
        const body = ok(await f.gql(key, `{ item(first: 200, filter: ${filter}) { nodes { id } } }`));
        const r = await h.json("GET", `/api/entries/item?limit=200&select=title&where=${encodeURIComponent(JSON.stringify(where))}`, {
          headers: { "x-api-key": key },
        });
        expect(r.status).toBe(200);
        expect({ filter, ids: body.data.item.nodes.map((x: any) => x.id) }).toEqual({ filter, ids: r.body.data.map((x: any) => x.id) });
      }
    }
  });

  test("sorts mirror sort: up to three keys, one hop, default newest first", async () => {
    const cases: [string, string][] = [
      ["", ""],
      ["[price_ASC]", "price"],
      ["[onSale_DESC, title_ASC]", "-onSale,title"],
      ["[author__name_ASC, price_DESC, id_ASC]", "author.name,-price,id"],
      ["[odd_name_DESC]", '-"odd,name"'],
      ["[publishedAt_ASC]", "publishedAt"],
    ];
    for (const [sort, rest] of cases) {
      const body = ok(await f.gql(f.dev, `{ item(first: 200${sort ? `, sort: ${sort}` : ""}) { nodes { id } } }`, undefined, { extensions: { svc: true } }));
      const url = `/api/entries/item?select=title${rest ? `&sort=${encodeURIComponent(rest)}` : ""}&limit=200`;
      const r = await h.json("GET", url, { headers: { "x-api-key": f.dev } });
      expect(body.data.item.nodes.map((x: any) => x.id)).toEqual(r.body.data.map((x: any) => x.id));
      if (rest) expect(decodeURIComponent(body.extensions.svc.rest[0].url)).toContain(`sort=${rest}`);
    }
  });

  test("aliases and fragments under a connection all reach the select", async () => {
    const body = ok(
      await f.gql(
        f.dev,
        `{ item(first: 2, sort: [title_ASC]) { a: nodes { title } b: edges { c: node { ...P } } } } fragment P on Item { price author { name } }`,
        undefined,
        { extensions: { svc: true } },
      ),
    );
    expect(body.extensions.svc.rest[0].url).toBe("/api/entries/item?select=title,price,author(name)&sort=title&limit=2");
    expect(body.data.item.a).toEqual([{ title: "Alpha" }, { title: "Beta" }]);
    expect(body.data.item.b.map((e: any) => e.c)).toEqual([
      { price: 10, author: { name: "Ann" } },
      { price: 20, author: { name: "Bob" } },
    ]);
  });

  test("totalCount is counted only when selected", async () => {
    const a = ok(await f.gql(f.prod, "{ item { totalCount nodes { id } } }", undefined, { extensions: { svc: true } }));
    expect(a.extensions.svc.rest[0].url).toEndWith("&count=true");
    const r = await h.json("GET", "/api/entries/item?count=true&select=title", { headers: { "x-api-key": f.prod } });
    expect(a.data.item.totalCount).toBe(r.body.meta.count);
    const b = ok(await f.gql(f.prod, "{ item { nodes { id } } }", undefined, { extensions: { svc: true } }));
    expect(b.extensions.svc.rest[0].url).not.toContain("count=");
  });

  test("a media kind outside MediaKind reads null", async () => {
    const x = await f.create("item", { title: "Odd media", cover: { ...IMG1, type: "spreadsheet" } });
    const body = ok(await f.gql(f.dev, `{ itemById(id: "${x.id}") { cover { id type url } } }`));
    expect(body.data.itemById.cover).toEqual({ id: "img_1", type: null, url: IMG1.url });
  });
});

describe("one entry", () => {
  test("<single>(id:) is GET /api/entries/{ns}/{id}; unknown, unpublished or another model's id is null", async () => {
    const body = ok(
      await f.gql(
        f.prod,
        `{ a: itemById(id: "${f.e.Alpha!.id}") { title } z: itemById(id: "${f.e.Zeta!.id}") { title }
      other: itemById(id: "${f.a.ann.id}") { title } none: itemById(id: "00000000-0000-4000-8000-000000000000") { title } }`,
        undefined,
        { extensions: { svc: true } },
      ),
    );
    expect(body.data).toEqual({ a: { title: "Alpha" }, z: null, other: null, none: null });
    expect(body.extensions.svc.rest[0]).toEqual({ field: "a", url: `/api/entries/item/${f.e.Alpha!.id}?select=title` });
    expect(body.errors).toBeUndefined();
  });

  test("entry(id:) and node(id:) answer any readable model, typed by __typename", async () => {
    const q = `{ e: entry(id: "${f.a.ann.id}") { __typename id model ... on Author { name } } n: node(id: "${f.e.Beta!.id}") { __typename id ... on Item { title } }
      u: entry(id: "00000000-0000-4000-8000-000000000000") { id } }`;
    const body = ok(await f.gql(f.prod, q));
    expect(body.data.e).toEqual({ __typename: "Author", id: f.a.ann.id, model: "author", name: "Ann" });
    expect(body.data.n).toEqual({ __typename: "Item", id: f.e.Beta!.id, title: "Beta" });
    expect(body.data.u).toBeNull();
    // A key limited to the item model reads authors as null, with no error.
    const lim = ok(await f.gql(f.itemOnly, `{ entry(id: "${f.a.ann.id}") { id } node(id: "${f.e.Alpha!.id}") { id } }`));
    expect(lim.data).toEqual({ entry: null, node: { id: f.e.Alpha!.id } });
  });

  test("nodes(ids:) answers in the order sent, twice for an id sent twice, null for what does not resolve", async () => {
    const ids = [f.e.Beta!.id, f.a.bob.id, f.e.Zeta!.id, f.e.Beta!.id, f.a.dee.id];
    const body = ok(
      await f.gql(
        f.prod,
        `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Item { title } ... on Author { name } } }`,
        { ids },
        { extensions: { svc: true } },
      ),
    );
    expect(body.data.nodes).toEqual([
      { __typename: "Item", id: f.e.Beta!.id, title: "Beta" },
      { __typename: "Author", id: f.a.bob.id, name: "Bob" },
      null,
      { __typename: "Item", id: f.e.Beta!.id, title: "Beta" },
      null,
    ]);
    // One read per model; each id read once.
    const urls = body.extensions.svc.rest.map((x: any) => decodeURIComponent(x.url));
    expect(urls).toHaveLength(2);
    expect(urls.every((u: string) => u.includes('where={"$id":{"in":['))).toBe(true);
    expect(body.extensions.svc.rest.every((x: any) => x.field === "nodes")).toBe(true);
  });

  test("a single-entry model's single root without id returns its one entry (REST limit=1)", async () => {
    const body = ok(await f.gql(f.prod, `{ setting { id title } byId: setting(id: "${f.settingsId}") { title } }`, undefined, { extensions: { svc: true } }));
    expect(body.data).toEqual({ setting: { id: f.settingsId, title: "My site" }, byId: { title: "My site" } });
    expect(body.extensions.svc.rest[0].url).toBe("/api/entries/settings?select=title&limit=1");
  });

  test("system keys under a customer field of the same name", async () => {
    const k = await h.json("POST", "/v2/model-instances", {
      token: f.token,
      body: { model: "kitchen", data: { id: "custom", createdAt: "2020-01-01", status: "mine", tags: ["x"], _tags: "t" }, tags: ["sys"] },
    });
    const body = ok(
      await f.gql(
        f.dev,
        `{ kitchenById(id: "${k.body.id}") { id id_field createdAt createdAt_field status status_field tags _tags _tags_field } }`,
        undefined,
        { extensions: { svc: true } },
      ),
    );
    expect(body.data.kitchenById).toMatchObject({
      id: k.body.id,
      id_field: "custom",
      createdAt_field: "2020-01-01",
      status: "draft",
      status_field: "mine",
      tags: ["x"],
      _tags: ["sys"],
      _tags_field: "t",
    });
    expect(body.extensions.svc.rest[0].url).toBe(`/api/entries/kitchen/${k.body.id}?select=id,$createdAt,createdAt,$status,status,tags,$tags,_tags`);
  });
});

describe("nested relation connections", () => {
  const q = (args: string) =>
    `query($id: ID!) { itemById(id: $id) { authors${args} { edges { cursor node { name } } nodes { name } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

  test("a window of the stored ids: an unseen id keeps its place without a node, endCursor passes it", async () => {
    const p1 = ok(await f.gql(f.prod, q("(first: 2)"), { id: windowed }));
    const c1 = p1.data.itemById.authors;
    expect(c1.nodes).toEqual([{ name: "Ann" }]);
    expect(c1.pageInfo.hasNextPage).toBe(true);
    expect(c1.pageInfo.hasPreviousPage).toBe(false);
    const p2 = ok(await f.gql(f.prod, q(`(first: 2, after: "${c1.pageInfo.endCursor}")`), { id: windowed }));
    expect(p2.data.itemById.authors.nodes).toEqual([{ name: "Bob" }, { name: "Cid" }]);
    const p3 = ok(await f.gql(f.prod, q(`(first: 2, after: "${p2.data.itemById.authors.pageInfo.endCursor}")`), { id: windowed }));
    expect(p3.data.itemById.authors.nodes).toEqual([{ name: "Ann" }]);
    expect(p3.data.itemById.authors.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // A window of only unseen ids: no node, but hasNextPage and an endCursor that advances.
    const p4 = ok(await f.gql(f.prod, q(`(first: 1, after: "${c1.edges[0].cursor}")`), { id: windowed }));
    expect(p4.data.itemById.authors).toMatchObject({ edges: [], nodes: [], pageInfo: { hasNextPage: true } });
    const p5 = ok(await f.gql(f.prod, q(`(first: 1, after: "${p4.data.itemById.authors.pageInfo.endCursor}")`), { id: windowed }));
    expect(p5.data.itemById.authors.nodes).toEqual([{ name: "Bob" }]);
    // The development key sees the draft author in its place.
    const dev = ok(await f.gql(f.dev, q("(first: 2)"), { id: windowed }));
    expect(dev.data.itemById.authors.nodes).toEqual([{ name: "Ann" }, { name: "Dee" }]);
  });

  test("first defaults to 100; sort orders the entries that resolve", async () => {
    const all = ok(await f.gql(f.prod, q(""), { id: windowed }));
    expect(all.data.itemById.authors.nodes.map((x: any) => x.name)).toEqual(["Ann", "Bob", "Cid", "Ann"]);
    const sorted = ok(await f.gql(f.prod, q("(sort: name_DESC, first: 2)"), { id: windowed }));
    expect(sorted.data.itemById.authors.nodes.map((x: any) => x.name)).toEqual(["Cid", "Bob"]);
    const next = ok(await f.gql(f.prod, q(`(sort: name_DESC, first: 2, after: "${sorted.data.itemById.authors.pageInfo.endCursor}")`), { id: windowed }));
    expect(next.data.itemById.authors.nodes.map((x: any) => x.name)).toEqual(["Ann", "Ann"]);
    expect(next.data.itemById.authors.pageInfo.hasNextPage).toBe(false);
  });

  test("missingReferences names the ids a nested relation omits", async () => {
    const body = ok(await f.gql(f.prod, q(""), { id: windowed }));
    expect(body.extensions.missingReferences).toEqual([f.a.dee.id]);
    const dev = ok(await f.gql(f.dev, q(""), { id: windowed }));
    expect(dev.extensions.missingReferences).toBeUndefined();
  });

  test("a nested cursor whose id left the parent's list: the root field is null with invalid_cursor", async () => {
    const x = await f.create("item", { title: "Shrinking", authors: [f.a.ann.id, f.a.bob.id, f.a.cid.id] });
    const p1 = ok(await f.gql(f.dev, q("(first: 2)"), { id: x.id }));
    await f.patch(x.id, { data: { authors: [f.a.ann.id, f.a.cid.id] } });
    const r = await f.gql(
      f.dev,
      `query($id: ID!) { itemById(id: $id) { authors(first: 2, after: "${p1.data.itemById.authors.pageInfo.endCursor}") { nodes { name } } } version }`,
      { id: x.id },
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ itemById: null, version: "2026-10-01" });
    expect(r.body.errors).toHaveLength(1);
    expectGqlError(r.body.errors[0], "invalid_cursor", "invalid_request", { param: "after", path: ["itemById", "authors"] });
    expect(r.body.errors[0].message).toBe("The entry the cursor points at is no longer in this relation list.");
  });

  test("nested after under a list root is refused on that root field", async () => {
    const p = ok(await f.gql(f.dev, q("(first: 1)"), { id: windowed }));
    const r = await f.gql(f.dev, `{ item { nodes { authors(after: "${p.data.itemById.authors.pageInfo.endCursor}") { nodes { name } } } } version }`);
    expect(r.body.data).toEqual({ item: null, version: "2026-10-01" });
    expectGqlError(r.body.errors[0], "invalid_parameter", "invalid_request", { param: "after", path: ["item"] });
  });

  test("a single relation expands; a relation into an unreadable model is an id", async () => {
    const full = ok(
      await f.gql(f.prod, `{ itemById(id: "${f.e.Alpha!.id}") { author { name mentor { name mentor { name } } } } }`, undefined, { extensions: { svc: true } }),
    );
    expect(full.data.itemById.author).toEqual({ name: "Ann", mentor: { name: "Bob", mentor: { name: "Cid" } } });
    expect(full.extensions.svc.rest[0].url).toBe(`/api/entries/item/${f.e.Alpha!.id}?select=author(name,mentor(name,mentor(name)))`);
    // Past REST's three levels of expansion the root field fails alone.
    const deep = await f.gql(f.prod, `{ itemById(id: "${f.e.Alpha!.id}") { author { mentor { mentor { mentor { name } } } } } version }`);
    expect(deep.body.data).toEqual({ itemById: null, version: "2026-10-01" });
    expectGqlError(deep.body.errors[0], "invalid_select", "invalid_request", { path: ["itemById"] });
    expect(deep.body.errors[0].message).toBe("Relations expand at most 3 levels below a root field, as REST select does.");
    const lim = ok(await f.gql(f.itemOnly, `{ itemById(id: "${f.e.Alpha!.id}") { author authors } }`));
    expect(lim.data.itemById).toEqual({ author: f.a.ann.id, authors: [f.a.ann.id] });
  });
});

describe("cost and svc extensions", () => {
  test("every answer carries extensions.cost; svc on request only", async () => {
    const body = ok(await f.gql(f.prod, "{ item(first: 3) { nodes { title author { name } authors(first: 2) { nodes { name } } } } }"));
    expect(body.extensions.cost).toEqual({
      requestedQueryCost: 3 * (1 + 1 + 2),
      actualQueryCost: expect.any(Number),
      budget: { counted: 3 * (1 + 1 + 2), limit: 5000 },
    });
    expect(body.extensions.svc).toBeUndefined();
    // An unwritten nested first counts 100 in the worst case and 10 in the budget.
    const c = ok(await f.gql(f.prod, "{ item(first: 3) { nodes { authors { nodes { name } } } } }")).extensions.cost;
    expect([c.requestedQueryCost, c.budget.counted]).toEqual([3 * (1 + 100), 3 * (1 + 10)]);
    const svc = ok(await f.gql(f.prod, "{ item(first: 3) { nodes { title } } version }", undefined, { extensions: { svc: true } })).extensions.svc;
    expect(Object.keys(svc)).toEqual(["requestId", "version", "contract", "environment", "cost", "rest"]);
    expect(svc).toMatchObject({ version: "2026-10-01", contract: 1, environment: "production" });
    expect(Object.keys(svc.cost)).toEqual(["depth", "rootFields", "connections", "nodesBound", "scans", "nodes", "fields"]);
    expect(svc.cost).toMatchObject({ depth: 3, rootFields: 1, connections: 1, nodesBound: 3, scans: 1, nodes: 3 });
  });
});
