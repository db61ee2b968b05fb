// Issue 22, item 7: `extensions.missingReferences` names exactly the ids the answer leaves out:
// those inside a nested page (not the whole stored list), of relation and media fields that were
// selected, on objects the answer holds. REST's meta.missingReferences is unchanged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { png64 } from "../media/fixtures.ts";
import { fixture, type Fixture } from "./fixture.ts";

let h: Harness;
let f: Fixture;
let windowed: string;
let chain: string;
let pictured: string;
let goneFile: string;

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
  const { ann, bob, cid, dee } = f.a;
  // dee is a draft: a production key does not see it. cid's mentor is dee; bob's is cid.
  windowed = (await f.create("item", { title: "Windowed", authors: [ann.id, dee.id, bob.id, cid.id], author: dee.id })).id;
  chain = (await f.create("item", { title: "Chain", authors: [bob.id, cid.id] })).id;
  const upload = async (name: string) => {
    const fd = new FormData();
    fd.append("file", new Blob([(await png64()) as BlobPart]), name);
    // The same picture as two files of the library, on purpose.
    const r = await h.json("POST", "/v2/media?duplicate=true", { token: f.token, raw: fd });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const kept = await upload("kept.png");
  goneFile = await upload("gone.png");
  pictured = (await f.create("item", { title: "Pictured", cover: { id: goneFile }, gallery: [{ id: kept }, { id: goneFile }] })).id;
  for (const id of [windowed, chain, pictured]) await f.publish(id);
  expect((await h.json("DELETE", `/v2/media/${goneFile}?force=true`, { token: f.token })).status).toBe(204);
});
afterAll(() => h.close());

const read = async (query: string, id: string) => {
  const r = await f.gql(f.prod, query, { id });
  expect([r.status, r.body.errors]).toEqual([200, undefined]);
  return r.body.extensions.missingReferences as string[] | undefined;
};
const authors = (args: string, inner = "name") => `query($id: ID!) { itemById(id: $id) { authors${args} { nodes { ${inner} } } } }`;

describe("a nested page names the unresolved ids inside its window", () => {
  test("first: 1 holds none; first: 2 holds dee; the page after it none", async () => {
    expect(await read(authors("(first: 1)"), windowed)).toBeUndefined();
    expect(await read(authors("(first: 2)"), windowed)).toEqual([f.a.dee.id]);
    const p1 = await f.gql(f.prod, `query($id: ID!) { itemById(id: $id) { authors(first: 2) { pageInfo { endCursor } } } }`, { id: windowed });
    expect(await read(authors(`(first: 2, after: "${p1.body.data.itemById.authors.pageInfo.endCursor}")`), windowed)).toBeUndefined();
  });

  test("with a sort an unresolved id has no place in the order, so every page names it", async () => {
    expect(await read(authors("(first: 1, sort: name_ASC)"), windowed)).toEqual([f.a.dee.id]);
  });

  test("a development key sees the draft: nothing is missing", async () => {
    const r = await f.gql(f.dev, authors("(first: 2)"), { id: windowed });
    expect(r.body.extensions.missingReferences).toBeUndefined();
  });
});

describe("only fields that were selected, on objects the answer holds", () => {
  test("a single relation to a draft is named when selected, not when only the title is", async () => {
    expect(await read("query($id: ID!) { itemById(id: $id) { title } }", windowed)).toBeUndefined();
    expect(await read("query($id: ID!) { itemById(id: $id) { author { name } } }", windowed)).toEqual([f.a.dee.id]);
  });

  test("a relation of an entry outside the nested page is not named", async () => {
    // bob (first) has mentor cid; cid (second, outside first: 1) has mentor dee, a draft.
    expect(await read(authors("(first: 1)", "name mentor { name }"), chain)).toBeUndefined();
    expect(await read(authors("(first: 2)", "name mentor { name }"), chain)).toEqual([f.a.dee.id]);
  });

  test("a deleted file is named when its field is selected", async () => {
    expect(await read("query($id: ID!) { itemById(id: $id) { title } }", pictured)).toBeUndefined();
    expect(await read("query($id: ID!) { itemById(id: $id) { cover { id } } }", pictured)).toEqual([goneFile]);
    expect(await read("query($id: ID!) { itemById(id: $id) { gallery { id } } }", pictured)).toEqual([goneFile]);
  });

  test("REST still names every unresolved id its read expanded", async () => {
    const r = await h.json("GET", `/api/entries/item/${chain}?select=authors(mentor(name))`, { headers: { "x-api-key": f.prod } });
    expect(r.status).toBe(200);
    expect(r.body.meta.missingReferences).toEqual([f.a.dee.id]);
  });
});
