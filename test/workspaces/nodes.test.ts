// A workspace's nodes: the tree and the document form, replace and merge, and the node routes
// add, change, move, group and delete (interface.md, Workspace; Management routes: Workspaces).
// Arranging never changes records: models and entries read the same before and after.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
let token: string;
let post: any;
let page: any;
let entry: any;
let ws: string;
/** Media folders the documents name, by the name they were made with (workspace nodes must name existing folders). */
const F: Record<string, string> = {};

const W = () => `/v2/workspaces/${ws}`;
const tree = async () => (await h.json("GET", `${W()}/tree`, { token })).body.data;
const doc = async () => (await h.json("GET", `${W()}/document`, { token })).body;
/** The tree as [label, children] pairs, for compact expectations. */
const shape = (nodes: any[]): any[] =>
  nodes.map((n) =>
    n.type === "folder"
      ? [n.name, shape(n.children)]
      : n.type === "model"
        ? `model:${n.namespace}`
        : n.type === "entry"
          ? `entry:${n.title}`
          : `media:${Object.keys(F).find((k) => F[k] === n.mediaFolderId) ?? n.mediaFolderId}`,
  );
const find = (nodes: any[], label: string): any => {
  for (const n of nodes) {
    if (n.name === label || n.namespace === label || n.title === label || n.mediaFolderId === label) return n;
    const c = n.children && find(n.children, label);
    if (c) return c;
  }
  return undefined;
};
/** Everything a workspace operation must leave alone. */
const records = async () => ({
  models: (await h.json("GET", "/v2/models", { token })).body,
  entries: (await h.json("GET", "/v2/model-instances?limit=200", { token })).body,
});

let before: Awaited<ReturnType<typeof records>>;

beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  post = (await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } })).body;
  page = (await h.json("POST", "/v2/models", { token, body: { name: "Page", namespace: "page", fields: [{ namespace: "title", type: "string" }] } })).body;
  entry = (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Hello" } } })).body;
  await h.json("POST", `/v2/model-instances/${entry.id}/publish`, { token, body: {} });
  for (const name of ["covers", "dup", "hero", "inline", "old", "x"]) F[name] = (await h.json("POST", "/v2/media-folders", { token, body: { name } })).body.id;
  ws = (await h.json("POST", "/v2/workspaces", { token, body: { name: "Rail" } })).body.id;
  before = await records();
});
afterAll(() => h.close());

describe("tree and document", () => {
  test("PUT tree replace makes the workspace exactly the document; GET tree resolves references", async () => {
    const r = await h.json("PUT", `${W()}/tree`, {
      token,
      body: {
        mode: "replace",
        tree: [
          { id: "content", folder: "Content", icon: "book", children: [{ model: "post" }, { entry: entry.id }] },
          { model: page.id },
          { media_folder: F.covers },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        id: "content",
        type: "folder",
        name: "Content",
        icon: "book",
        children: [
          { id: expect.any(String), type: "model", modelId: post.id, namespace: "post", name: "Post", missing: false },
          { id: expect.any(String), type: "entry", entryId: entry.id, modelId: post.id, namespace: "post", title: "Hello", missing: false },
        ],
      },
      { id: expect.any(String), type: "model", modelId: page.id, namespace: "page", name: "Page", missing: false },
      { id: expect.any(String), type: "media_folder", mediaFolderId: F.covers },
    ]);
    expect(await tree()).toEqual(r.body.data);
  });

  test("GET document is the whole arrangement in the form PUT tree takes; a round trip keeps every id", async () => {
    const d = await doc();
    const t = await tree();
    expect(d).toEqual({
      id: ws,
      name: "Rail",
      icon: null,
      visibility: "team",
      tree: [
        {
          id: "content",
          folder: "Content",
          icon: "book",
          children: [
            { id: t[0].children[0].id, model: "post" },
            { id: t[0].children[1].id, entry: entry.id },
          ],
        },
        { id: t[1].id, model: "page" },
        { id: t[2].id, media_folder: F.covers },
      ],
    });
    const r = await h.json("PUT", `${W()}/tree`, { token, body: { mode: "replace", tree: d.tree } });
    expect(r.body.data).toEqual(t);
  });

  test("merge adds what is missing and removes nothing: folders match by id or name, leaves anywhere", async () => {
    const r = await h.json("PUT", `${W()}/tree`, {
      token,
      body: {
        mode: "merge",
        tree: [
          // Matched by name: its model is already in the tree, the media folder is new.
          { folder: "Content", children: [{ model: "post" }, { media_folder: F.inline }] },
          // Matched by id although the name differs.
          { id: "content", folder: "Renamed?", children: [{ entry: entry.id }] },
          // Already present at the top level: not added twice.
          { model: "page" },
          // New.
          { folder: "Archive", children: [{ model: "page" }, { media_folder: F.old }] },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(shape(r.body.data)).toEqual([["Content", ["model:post", "entry:Hello", "media:inline"]], "model:page", "media:covers", ["Archive", ["media:old"]]]);
  });

  test("replace with an empty list empties the workspace", async () => {
    const r = await h.json("PUT", `${W()}/tree`, { token, body: { mode: "replace", tree: [] } });
    expect(r.body).toEqual({ data: [] });
  });

  test("refusals of PUT tree write nothing", async () => {
    await h.json("PUT", `${W()}/tree`, { token, body: { mode: "replace", tree: [{ folder: "Keep" }] } });
    const cases: [unknown, string, string][] = [
      [{ tree: [] }, "mode", "mode must be replace or merge"],
      [{ mode: "append", tree: [] }, "mode", "mode must be replace or merge"],
      [{ mode: "merge" }, "tree", "tree is required: a list of nodes"],
      [{ mode: "merge", tree: [{ model: "nope" }] }, "tree[0].model", 'tree[0].model names no model of this project: "nope"'],
      [{ mode: "merge", tree: [], extra: 1 }, "extra", "extra is not accepted here; send { mode, tree }"],
    ];
    for (const [body, field, error] of cases) {
      const r = await h.json("PUT", `${W()}/tree`, { token, body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error, code: "invalid_body", field });
    }
    expect(shape(await tree())).toEqual([["Keep", []]]);
  });
});

describe("node routes", () => {
  beforeAll(async () => {
    await h.json("PUT", `${W()}/tree`, {
      token,
      body: {
        mode: "replace",
        tree: [
          {
            id: "blog",
            folder: "Blog",
            children: [
              { id: "m-post", model: "post" },
              { id: "e-hello", entry: entry.id },
            ],
          },
          { id: "m-page", model: "page" },
          { id: "media", media_folder: F.covers },
        ],
      },
    });
  });

  test("POST nodes adds at the end of the top level by default, 201 with the node", async () => {
    const r = await h.json("POST", `${W()}/nodes`, { token, body: { node: { folder: "Drafts", icon: "pen" } } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.any(String), type: "folder", name: "Drafts", icon: "pen", children: [] });
    expect(shape(await tree())).toEqual([["Blog", ["model:post", "entry:Hello"]], "model:page", "media:covers", ["Drafts", []]]);
  });

  test("POST nodes into a folder at a position, a folder with children, a given id", async () => {
    const r = await h.json("POST", `${W()}/nodes`, {
      token,
      body: { parentId: "blog", position: 1, node: { id: "sub", folder: "Sub", children: [{ media_folder: F.x }] } },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: "sub",
      type: "folder",
      name: "Sub",
      icon: null,
      children: [{ id: expect.any(String), type: "media_folder", mediaFolderId: F.x }],
    });
    expect(shape(await tree())[0]).toEqual(["Blog", ["model:post", ["Sub", ["media:x"]], "entry:Hello"]]);
  });

  test("an id already taken is replaced by a fresh one", async () => {
    const r = await h.json("POST", `${W()}/nodes`, { token, body: { node: { id: "blog", media_folder: F.dup } } });
    expect(r.status).toBe(201);
    expect(r.body.id).not.toBe("blog");
    await h.req("DELETE", `${W()}/nodes/${r.body.id}`, { token });
  });

  test("POST nodes refusals", async () => {
    const cases: [unknown, string, string][] = [
      [{}, "node", 'node is required, e.g. { folder: "Blog" } or { model: "post" }'],
      [{ node: { model: "post" }, parentId: "m-page" }, "parentId", "parentId must be the id of a folder of this workspace, or null for the top level"],
      [{ node: { model: "post" }, parentId: "nope" }, "parentId", "parentId must be the id of a folder of this workspace, or null for the top level"],
      [{ node: { model: "post" }, position: 99 }, "position", "position must be a whole number from 0 to 4"],
      [{ node: { model: "post" }, position: -1 }, "position", "position must be a whole number from 0 to 4"],
      [{ node: { widget: "x" } }, "node", "node must have exactly one of folder, model, entry, media_folder"],
      [
        { node: { entry: "0192f0c1-0000-7000-8000-000000000000" } },
        "node.entry",
        "node.entry names no entry of this project: 0192f0c1-0000-7000-8000-000000000000",
      ],
      [{ node: { folder: "A" }, after: "blog" }, "after", "after is not accepted here; send { node, parentId?, position? }"],
    ];
    const was = await tree();
    for (const [body, field, error] of cases) {
      const r = await h.json("POST", `${W()}/nodes`, { token, body });
      expect({ body, status: r.status, answer: r.body }).toEqual({ body, status: 400, answer: { error, code: "invalid_body", field } });
    }
    expect(await tree()).toEqual(was);
  });

  test("PUT nodes/:nodeId renames a folder and changes its icon, or repoints a leaf", async () => {
    const f = await h.json("PUT", `${W()}/nodes/blog`, { token, body: { name: "Journal", icon: "book" } });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ id: "blog", type: "folder", name: "Journal", icon: "book" });
    const m = await h.json("PUT", `${W()}/nodes/m-page`, { token, body: { model: "post" } });
    expect(m.body).toEqual({ id: "m-page", type: "model", modelId: post.id, namespace: "post", name: "Post", missing: false });
    await h.json("PUT", `${W()}/nodes/m-page`, { token, body: { model: page.id } });
    const media = await h.json("PUT", `${W()}/nodes/media`, { token, body: { media_folder: F.hero } });
    expect(media.body).toEqual({ id: "media", type: "media_folder", mediaFolderId: F.hero });
  });

  test("PUT nodes/:nodeId refusals and an unknown node", async () => {
    const wrongKind = await h.json("PUT", `${W()}/nodes/m-page`, { token, body: { name: "X" } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body).toEqual({ error: "name cannot be changed on a model node; send model", code: "invalid_body", field: "name" });
    const folderRef = await h.json("PUT", `${W()}/nodes/blog`, { token, body: { model: "post" } });
    expect(folderRef.body).toEqual({ error: "model cannot be changed on a folder node; send name or icon", code: "invalid_body", field: "model" });
    const badModel = await h.json("PUT", `${W()}/nodes/m-page`, { token, body: { model: "nope" } });
    expect(badModel.body).toEqual({ error: 'model names no model of this project: "nope"', code: "invalid_body", field: "model" });
    const unknown = await h.json("PUT", `${W()}/nodes/nope`, { token, body: { name: "X" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "No such node in this workspace.", code: "not_found", field: "nodeId" });
  });

  test("move: several nodes into a folder at a position in one step, in the order given", async () => {
    const r = await h.json("POST", `${W()}/nodes/move`, { token, body: { nodeIds: ["media", "m-page"], parentId: "blog", position: 0 } });
    expect(r.status).toBe(200);
    expect(shape(r.body.data)).toEqual([
      ["Journal", ["media:hero", "model:page", "model:post", ["Sub", ["media:x"]], "entry:Hello"]],
      ["Drafts", []],
    ]);
  });

  test("move to the top level with parentId null (default position: the end)", async () => {
    const r = await h.json("POST", `${W()}/nodes/move`, { token, body: { nodeIds: ["sub"], parentId: null } });
    expect(shape(r.body.data)).toEqual([
      ["Journal", ["media:hero", "model:page", "model:post", "entry:Hello"]],
      ["Drafts", []],
      ["Sub", ["media:x"]],
    ]);
  });

  test("move refusals write nothing", async () => {
    const was = await tree();
    const cases: [unknown, string, string][] = [
      [{ nodeIds: [], parentId: null }, "nodeIds", "nodeIds must be a list of 1 to 1,000 node ids"],
      [{ nodeIds: ["nope"] }, "nodeIds[0]", "nodeIds[0] is not a node of this workspace"],
      [{ nodeIds: ["media", "media"] }, "nodeIds[1]", "nodeIds[1] is listed twice"],
      [{ nodeIds: ["blog", "media"] }, "nodeIds[1]", "nodeIds[1] sits inside another listed node"],
      [{ nodeIds: ["blog"], parentId: "blog" }, "parentId", "parentId cannot be a moved node or a folder inside one"],
      [{ nodeIds: ["sub"], parentId: "m-page" }, "parentId", "parentId must be the id of a folder of this workspace, or null for the top level"],
      [{ nodeIds: ["sub"], parentId: null, position: 5 }, "position", "position must be a whole number from 0 to 2"],
    ];
    for (const [body, field, error] of cases) {
      const r = await h.json("POST", `${W()}/nodes/move`, { token, body });
      expect({ body, status: r.status, answer: r.body }).toEqual({ body, status: 400, answer: { error, code: "invalid_body", field } });
    }
    expect(await tree()).toEqual(was);
  });

  test("move refuses a folder into a folder inside it", async () => {
    await h.json("POST", `${W()}/nodes`, { token, body: { parentId: "sub", node: { id: "inner", folder: "Inner" } } });
    const r = await h.json("POST", `${W()}/nodes/move`, { token, body: { nodeIds: ["sub"], parentId: "inner" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "parentId cannot be a moved node or a folder inside one", code: "invalid_body", field: "parentId" });
  });

  test("group puts nodes in a new folder where the first of them was", async () => {
    const r = await h.json("POST", `${W()}/nodes/group`, { token, body: { nodeIds: ["m-page", "e-hello"], name: "Picked", icon: "pin" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ type: "folder", name: "Picked", icon: "pin" });
    expect(shape(r.body.children)).toEqual(["model:page", "entry:Hello"]);
    expect(shape(await tree())[0]).toEqual(["Journal", ["media:hero", ["Picked", ["model:page", "entry:Hello"]], "model:post"]]);
  });

  test("group refusals", async () => {
    const noName = await h.json("POST", `${W()}/nodes/group`, { token, body: { nodeIds: ["media"] } });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ error: "name must be a folder name of 1 to 120 characters", code: "invalid_body", field: "name" });
    const unknown = await h.json("POST", `${W()}/nodes/group`, { token, body: { nodeIds: ["x1"], name: "G" } });
    expect(unknown.body).toEqual({ error: "nodeIds[0] is not a node of this workspace", code: "invalid_body", field: "nodeIds[0]" });
  });

  test("delete a folder: its children move up a level, in its place", async () => {
    const picked = find(await tree(), "Picked");
    const r = await h.req("DELETE", `${W()}/nodes/${picked.id}`, { token });
    expect(r.status).toBe(204);
    expect(shape(await tree())[0]).toEqual(["Journal", ["media:hero", "model:page", "entry:Hello", "model:post"]]);
  });

  test("delete a folder withChildren=true removes the subtree", async () => {
    const r = await h.req("DELETE", `${W()}/nodes/sub?withChildren=true`, { token });
    expect(r.status).toBe(204);
    expect(shape(await tree())).toEqual([
      ["Journal", ["media:hero", "model:page", "entry:Hello", "model:post"]],
      ["Drafts", []],
    ]);
  });

  test("delete a leaf; withChildren=false is the default; refusals", async () => {
    expect((await h.req("DELETE", `${W()}/nodes/media?withChildren=false`, { token })).status).toBe(204);
    const bad = await h.json("DELETE", `${W()}/nodes/m-post?withChildren=yes`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "withChildren must be true or false", code: "invalid_body", field: "withChildren" });
    const unknown = await h.json("DELETE", `${W()}/nodes/nope`, { token });
    expect(unknown.status).toBe(404);
    expect(shape(await tree())).toEqual([
      ["Journal", ["model:page", "entry:Hello", "model:post"]],
      ["Drafts", []],
    ]);
  });

  test("a node of a deleted record stays, marked missing", async () => {
    const e = (await h.json("POST", "/v2/model-instances", { token, body: { model: "page", data: { title: "Gone soon" } } })).body;
    await h.json("POST", `${W()}/nodes`, { token, body: { node: { id: "gone", entry: e.id } } });
    await h.req("DELETE", `/v2/model-instances/${e.id}`, { token });
    expect(find(await tree(), "gone") ?? (await tree()).find((n: any) => n.id === "gone")).toEqual({
      id: "gone",
      type: "entry",
      entryId: e.id,
      modelId: null,
      namespace: null,
      title: null,
      missing: true,
    });
    await h.req("DELETE", `${W()}/nodes/gone`, { token });
  });

  test("arranging never changed a model or an entry", async () => {
    expect(await records()).toEqual(before);
  });
});
