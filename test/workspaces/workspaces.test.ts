// Workspaces: create (templates, a tree), list, rename, duplicate, delete, current, default and
// assign (interface.md, Workspace; Management routes: Workspaces; decisions.md sections 2 and 9).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken, UUID } from "../api/helpers.ts";

let h: Harness;
let owner: { token: string; userId: string };
let projectId: string;
let editor: string;
let editorId: string;
let developer: string;
let viewer: string;

const as = (t: string, body?: unknown) => ({ token: t, headers: { "x-svc-project": projectId }, ...(body === undefined ? {} : { body }) });
const NOW = "2026-11-21T12:00:00.000Z";

async function create(t: string, body: Record<string, unknown>) {
  const r = await h.json("POST", "/v2/workspaces", as(t, body));
  expect(r.status).toBe(201);
  return r.body;
}

async function topNames(t: string, id: string) {
  const r = await h.json("GET", `/v2/workspaces/${id}/tree`, as(t));
  expect(r.status).toBe(200);
  return r.body.data.map((n: any) => [n.type, n.name ?? n.namespace, (n.children ?? []).length]);
}

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  owner = { token: o.token, userId: o.user.id };
  projectId = o.project.id;
  editor = await memberToken(h, o.token, projectId, "editor@example.com", "editor");
  developer = await memberToken(h, o.token, projectId, "dev@example.com", "developer");
  viewer = await memberToken(h, o.token, projectId, "viewer@example.com", "viewer");
  await memberToken(h, o.token, projectId, "admin@example.com", "admin");
  const members = await h.json("GET", `/v2/projects/${projectId}/members`, as(o.token));
  editorId = members.body.data.find((m: any) => m.email === "editor@example.com").userId;
  await h.json("POST", "/v2/models", as(o.token, { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] }));
});
afterAll(() => h.close());

describe("creating workspaces", () => {
  test("blank by default: the full record, team visibility, no nodes, current for its creator", async () => {
    const r = await h.json("POST", "/v2/workspaces", as(owner.token, { name: "  Editorial " }));
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "Editorial",
      icon: null,
      visibility: "team",
      template: "blank",
      createdBy: { kind: "user", id: owner.userId },
      createdAt: NOW,
      updatedAt: NOW,
      nodes: 0,
      isDefault: false,
      isCurrent: true,
    });
    expect((await h.json("GET", `/v2/workspaces/${r.body.id}/tree`, as(owner.token))).body).toEqual({ data: [] });
  });

  test("website seeds top-level folders only", async () => {
    const w = await create(owner.token, { name: "Site", template: "website", icon: "globe" });
    expect(w).toMatchObject({ template: "website", icon: "globe", nodes: 4 });
    expect(await topNames(owner.token, w.id)).toEqual([
      ["folder", "Pages", 0],
      ["folder", "Blog", 0],
      ["folder", "Navigation", 0],
      ["folder", "Settings", 0],
    ]);
  });

  test("catalog seeds top-level folders only", async () => {
    const w = await create(owner.token, { name: "Shop", template: "catalog" });
    expect(await topNames(owner.token, w.id)).toEqual([
      ["folder", "Products", 0],
      ["folder", "Categories", 0],
      ["folder", "Collections", 0],
      ["folder", "Brands", 0],
    ]);
  });

  test("a tree sent with a template is merged into the template's folders", async () => {
    const covers = (await h.json("POST", "/v2/media-folders", { ...as(owner.token), body: { name: "covers" } })).body.id;
    const w = await create(owner.token, {
      name: "Blog desk",
      template: "website",
      tree: [{ folder: "Blog", children: [{ model: "post" }] }, { folder: "Drafts", icon: "pen" }, { media_folder: covers }],
    });
    const tree = (await h.json("GET", `/v2/workspaces/${w.id}/tree`, as(owner.token))).body.data;
    expect(tree.map((n: any) => n.name ?? n.mediaFolderId)).toEqual(["Pages", "Blog", "Navigation", "Settings", "Drafts", covers]);
    expect(tree[1].children).toEqual([
      { id: expect.stringMatching(UUID), type: "model", modelId: expect.stringMatching(UUID), namespace: "post", name: "Post", missing: false },
    ]);
    expect(tree[4]).toEqual({ id: expect.any(String), type: "folder", name: "Drafts", icon: "pen", children: [] });
    expect(w.nodes).toBe(7);
  });

  test("a private workspace", async () => {
    const w = await create(owner.token, { name: "Mine", visibility: "private" });
    expect(w.visibility).toBe("private");
  });

  const refusals: [string, Record<string, unknown>, string, string][] = [
    ["no name", {}, "name", "name must be 1 to 120 characters"],
    ["a blank name", { name: "   " }, "name", "name must be 1 to 120 characters"],
    ["a name of 121 characters", { name: "n".repeat(121) }, "name", "name must be 1 to 120 characters"],
    ["an unknown template", { name: "W", template: "shop" }, "template", "template must be one of blank, website, catalog"],
    ["an unknown visibility", { name: "W", visibility: "public" }, "visibility", "visibility must be team or private"],
    ["an empty icon", { name: "W", icon: "" }, "icon", "icon must be an icon name of 1 to 64 characters, or null"],
    ["an unknown key", { name: "W", colour: "red" }, "colour", "colour is not a workspace property"],
    ["a tree that is not a list", { name: "W", tree: {} }, "tree", "tree must be a list of nodes"],
    [
      "a node with two kinds",
      { name: "W", tree: [{ folder: "A", model: "post" }] },
      "tree[0]",
      "tree[0] must have exactly one of folder, model, entry, media_folder (it has folder and model)",
    ],
    ["a node with no kind", { name: "W", tree: [{ name: "A" }] }, "tree[0]", "tree[0] must have exactly one of folder, model, entry, media_folder"],
    [
      "an unknown model",
      { name: "W", tree: [{ folder: "A", children: [{ model: "nope" }] }] },
      "tree[0].children[0].model",
      'tree[0].children[0].model names no model of this project: "nope"',
    ],
    ["an entry id that is not a UUID", { name: "W", tree: [{ entry: "12" }] }, "tree[0].entry", "tree[0].entry must be an entry id (UUID)"],
    [
      "an unknown entry",
      { name: "W", tree: [{ entry: "0192f0c1-0000-7000-8000-000000000000" }] },
      "tree[0].entry",
      "tree[0].entry names no entry of this project: 0192f0c1-0000-7000-8000-000000000000",
    ],
    ["children on a model node", { name: "W", tree: [{ model: "post", children: [] }] }, "tree[0].children", "tree[0].children is not allowed on a model node"],
    ["a folder without a name", { name: "W", tree: [{ folder: "" }] }, "tree[0].folder", "tree[0].folder must be a folder name of 1 to 120 characters"],
    [
      "an empty media folder id",
      { name: "W", tree: [{ media_folder: "" }] },
      "tree[0].media_folder",
      "tree[0].media_folder must be a media folder id of 1 to 64 characters",
    ],
    [
      "a node id used twice",
      { name: "W", tree: [{ id: "a", folder: "A", children: [{ id: "a", model: "post" }] }] },
      "tree[0].children[0].id",
      'tree[0].children[0].id "a" is used twice',
    ],
    ["a bad node id", { name: "W", tree: [{ id: "a b", folder: "A" }] }, "tree[0].id", "tree[0].id must be 1 to 64 of a-z A-Z 0-9 _ -"],
  ];
  test.each(refusals)("refused: %s", async (_n, body, field, message) => {
    const before = (await h.json("GET", "/v2/workspaces", as(owner.token))).body.data.length;
    const r = await h.json("POST", "/v2/workspaces", as(owner.token, body));
    expect(r.status).toBe(400);
    // A media folder reference also names its node in `path` (decisions.md 10).
    const node = message.includes("names no media folder") ? { path: field.slice(0, -".media_folder".length) } : {};
    expect(r.body).toEqual({ error: message, code: "invalid_body", field, ...node });
    expect((await h.json("GET", "/v2/workspaces", as(owner.token))).body.data.length).toBe(before);
  });

  test("refused: folders nested more than 10 levels", async () => {
    let node: any = { model: "post" };
    for (let i = 0; i < 10; i++) node = { folder: `L${i}`, children: [node] };
    const r = await h.json("POST", "/v2/workspaces", as(owner.token, { name: "Deep", tree: [node] }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Folders nest at most 10 levels deep", code: "invalid_body", field: `tree[0]${".children[0]".repeat(10)}` });
  });

  test("refused: more than 2,000 nodes", async () => {
    const tree = Array.from({ length: 2001 }, (_, i) => ({ folder: `F${i}` }));
    const r = await h.json("POST", "/v2/workspaces", as(owner.token, { name: "Big", tree }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "A workspace holds at most 2000 nodes", code: "invalid_body", field: "tree[2000]" });
  });
});

describe("listing, visibility and editing", () => {
  let team: any;
  let mine: any;
  beforeAll(async () => {
    team = await create(editor, { name: "Editors" });
    mine = await create(editor, { name: "Editor's own", visibility: "private" });
  });

  test("GET lists team workspaces and the caller's own private ones, oldest first", async () => {
    const r = await h.json("GET", "/v2/workspaces", as(editor));
    expect(r.status).toBe(200);
    const names = r.body.data.map((w: any) => w.name);
    expect(names).toContain("Editors");
    expect(names).toContain("Editor's own");
    expect(names).not.toContain("Mine");
    expect(r.body.data.map((w: any) => w.createdAt)).toEqual([...r.body.data.map((w: any) => w.createdAt)].sort());
    expect(Object.keys(r.body)).toEqual(["data", "current", "default"]);
  });

  test("another person never sees a private workspace: 404 on every route", async () => {
    const list = (await h.json("GET", "/v2/workspaces", as(developer))).body.data.map((w: any) => w.id);
    expect(list).not.toContain(mine.id);
    const missing = { error: "No such workspace.", code: "not_found", field: "id" };
    for (const [method, path, body] of [
      ["GET", `/v2/workspaces/${mine.id}/tree`],
      ["GET", `/v2/workspaces/${mine.id}/document`],
      ["PUT", `/v2/workspaces/${mine.id}`, { name: "X" }],
      ["POST", `/v2/workspaces/${mine.id}/duplicate`, {}],
      ["DELETE", `/v2/workspaces/${mine.id}`],
      ["PUT", `/v2/workspaces/${mine.id}/tree`, { mode: "merge", tree: [] }],
      ["POST", `/v2/workspaces/${mine.id}/nodes`, { node: { folder: "A" } }],
      ["PUT", "/v2/workspaces/current", { workspaceId: mine.id }],
    ] as [string, string, unknown?][]) {
      const r = await h.json(method, path, as(developer, body));
      expect({ path, method, status: r.status, body: r.body }).toEqual({ path, method, status: 404, body: missing });
    }
    const ownerView = await h.json("GET", `/v2/workspaces/${mine.id}/tree`, as(owner.token));
    expect(ownerView.status).toBe(404);
  });

  test("PUT renames and changes the icon; updatedAt moves", async () => {
    h.clock.advance(1000);
    const r = await h.json("PUT", `/v2/workspaces/${team.id}`, as(editor, { name: "Editors' desk", icon: "star" }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: team.id,
      name: "Editors' desk",
      icon: "star",
      updatedAt: new Date(h.clock.now()).toISOString(),
      createdAt: team.createdAt,
    });
    const cleared = await h.json("PUT", `/v2/workspaces/${team.id}`, as(editor, { icon: null }));
    expect(cleared.body).toMatchObject({ name: "Editors' desk", icon: null });
  });

  test("PUT refuses other keys, a bad name and an unknown id", async () => {
    const other = await h.json("PUT", `/v2/workspaces/${team.id}`, as(editor, { template: "website" }));
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: "template cannot be changed here; send name, icon or visibility", code: "invalid_body", field: "template" });
    const bad = await h.json("PUT", `/v2/workspaces/${team.id}`, as(editor, { name: "" }));
    expect(bad.body).toEqual({ error: "name must be 1 to 120 characters", code: "invalid_body", field: "name" });
    const unknown = await h.json("PUT", "/v2/workspaces/0192f0c1-0000-7000-8000-000000000000", as(editor, { name: "X" }));
    expect(unknown.status).toBe(404);
  });

  test("duplicate copies the tree with new node ids", async () => {
    const src = await create(owner.token, { name: "Source", template: "website", tree: [{ folder: "Blog", children: [{ model: "post" }] }] });
    const srcTree = (await h.json("GET", `/v2/workspaces/${src.id}/tree`, as(owner.token))).body.data;
    const r = await h.json("POST", `/v2/workspaces/${src.id}/duplicate`, as(editor, {}));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Source (copy)", visibility: "team", template: "website", nodes: src.nodes, createdBy: { kind: "user" } });
    expect(r.body.id).not.toBe(src.id);
    const copy = (await h.json("GET", `/v2/workspaces/${r.body.id}/tree`, as(editor))).body.data;
    const strip = (t: any[]): any[] => t.map(({ id: _id, children, ...n }) => ({ ...n, ...(children ? { children: strip(children) } : {}) }));
    expect(strip(copy)).toEqual(strip(srcTree));
    const ids = (t: any[]): string[] => t.flatMap((n) => [n.id, ...(n.children ? ids(n.children) : [])]);
    expect(ids(copy).filter((id) => ids(srcTree).includes(id))).toEqual([]);
    const named = await h.json("POST", `/v2/workspaces/${src.id}/duplicate`, as(editor, { name: "Mine now", visibility: "private" }));
    expect(named.body).toMatchObject({ name: "Mine now", visibility: "private" });
    const bad = await h.json("POST", `/v2/workspaces/${src.id}/duplicate`, as(editor, { template: "blank" }));
    expect(bad.body).toEqual({ error: "template is not accepted here; send name or visibility", code: "invalid_body", field: "template" });
  });

  test("DELETE removes the workspace only (records untouched), with 204", async () => {
    const models = (await h.json("GET", "/v2/models", as(owner.token))).body;
    const w = await create(owner.token, { name: "Doomed", tree: [{ model: "post" }] });
    const r = await h.req("DELETE", `/v2/workspaces/${w.id}`, as(owner.token));
    expect(r.status).toBe(204);
    expect((await h.json("GET", `/v2/workspaces/${w.id}/tree`, as(owner.token))).status).toBe(404);
    expect((await h.json("GET", "/v2/models", as(owner.token))).body).toEqual(models);
    expect((await h.json("DELETE", `/v2/workspaces/${w.id}`, as(owner.token))).status).toBe(404);
  });

  test("roles: a viewer reads but does not create, change or delete", async () => {
    expect((await h.json("GET", "/v2/workspaces", as(viewer))).status).toBe(200);
    const want = (scopeRoles: string[]) => ({ error: "Insufficient permissions", required: scopeRoles, current: "viewer" });
    const roles = ["owner", "admin", "developer", "editor"];
    const post = await h.json("POST", "/v2/workspaces", as(viewer, { name: "V" }));
    expect(post.status).toBe(403);
    expect(post.body).toEqual(want(roles));
    expect((await h.json("PUT", `/v2/workspaces/${team.id}`, as(viewer, { name: "V" }))).body).toEqual(want(roles));
    expect((await h.json("DELETE", `/v2/workspaces/${team.id}`, as(viewer))).body).toEqual(want(roles));
    expect((await h.json("POST", `/v2/workspaces/${team.id}/duplicate`, as(viewer, {}))).body).toEqual(want(roles));
    expect((await h.json("PUT", `/v2/workspaces/${team.id}/tree`, as(viewer, { mode: "merge", tree: [] }))).body).toEqual(want(roles));
  });

  test("no token: 401", async () => {
    const r = await h.json("GET", "/v2/workspaces");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Authentication token required" });
  });
});

describe("current, default and assigned workspaces", () => {
  let a: any;
  let b: any;
  let c: any;
  let p: any;
  let fresh: string;
  beforeAll(async () => {
    // A fresh project, so the order of resolution is seen from an empty start.
    const proj = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Second", slug: "second-project" } });
    projectId = proj.body.id;
    fresh = await memberToken(h, owner.token, projectId, "fresh@example.com", "editor");
    await memberToken(h, owner.token, projectId, "editor@example.com", "editor").catch(() => undefined);
    a = await create(owner.token, { name: "A" });
    b = await create(owner.token, { name: "B" });
    c = await create(owner.token, { name: "C" });
    p = await create(owner.token, { name: "P", visibility: "private" });
  });

  const current = async (t: string) => (await h.json("GET", "/v2/workspaces", as(t))).body;

  test("with no choice, default or assignment the current workspace is the first one seen", async () => {
    const r = await current(fresh);
    expect(r.current).toBe(a.id);
    expect(r.default).toBeNull();
    expect(r.data.filter((w: any) => w.isCurrent).map((w: any) => w.id)).toEqual([a.id]);
  });

  test("the project default comes before the first one", async () => {
    const r = await h.json("PUT", `/v2/workspaces/${b.id}/default`, as(owner.token));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: b.id, isDefault: true });
    const seen = await current(fresh);
    expect(seen).toMatchObject({ current: b.id, default: b.id });
    expect(seen.data.find((w: any) => w.id === b.id)).toMatchObject({ isDefault: true, isCurrent: true });
  });

  test("an assignment comes before the default", async () => {
    const freshId = (await h.json("GET", `/v2/projects/${projectId}/members`, as(owner.token))).body.data.find((m: any) => m.email === "fresh@example.com");
    const id = freshId.userId;
    const r = await h.json("PUT", `/v2/workspaces/${c.id}/assign`, as(owner.token, { userIds: [id] }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workspaceId: c.id, userIds: [id] });
    expect((await current(fresh)).current).toBe(c.id);
    // Assigning the list anew replaces it: an empty list clears the assignment.
    const cleared = await h.json("PUT", `/v2/workspaces/${c.id}/assign`, as(owner.token, { userIds: [] }));
    expect(cleared.body).toEqual({ workspaceId: c.id, userIds: [] });
    expect((await current(fresh)).current).toBe(b.id);
    await h.json("PUT", `/v2/workspaces/${c.id}/assign`, as(owner.token, { userIds: [id] }));
    // A member has one assigned workspace: assigning another moves them.
    await h.json("PUT", `/v2/workspaces/${a.id}/assign`, as(owner.token, { userIds: [id] }));
    expect((await current(fresh)).current).toBe(a.id);
    await h.json("PUT", `/v2/workspaces/${c.id}/assign`, as(owner.token, { userIds: [id] }));
    expect((await current(fresh)).current).toBe(c.id);
  });

  test("the person's own choice comes first; null goes back to the assignment", async () => {
    const r = await h.json("PUT", "/v2/workspaces/current", as(fresh, { workspaceId: a.id }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: a.id, isCurrent: true });
    expect((await current(fresh)).current).toBe(a.id);
    // The choice is the person's own: the owner's current is untouched.
    expect((await current(owner.token)).current).not.toBe(undefined);
    const back = await h.req("PUT", "/v2/workspaces/current", as(fresh, { workspaceId: null }));
    expect(back.status).toBe(204);
    expect((await current(fresh)).current).toBe(c.id);
  });

  test("PUT current refuses a missing workspaceId, an unknown id and someone else's private workspace", async () => {
    const none = await h.json("PUT", "/v2/workspaces/current", as(fresh, {}));
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: "workspaceId is required (a workspace id, or null)", code: "invalid_body", field: "workspaceId" });
    const unknown = await h.json("PUT", "/v2/workspaces/current", as(fresh, { workspaceId: "0192f0c1-0000-7000-8000-000000000000" }));
    expect(unknown.status).toBe(404);
    const hidden = await h.json("PUT", "/v2/workspaces/current", as(fresh, { workspaceId: p.id }));
    expect(hidden.body).toEqual({ error: "No such workspace.", code: "not_found", field: "id" });
  });

  test("deleting the default, assigned and current workspace clears every pointer to it", async () => {
    await h.json("PUT", `/v2/workspaces/${c.id}/default`, as(owner.token));
    await h.json("PUT", "/v2/workspaces/current", as(fresh, { workspaceId: c.id }));
    expect((await h.req("DELETE", `/v2/workspaces/${c.id}`, as(owner.token))).status).toBe(204);
    const r = await current(fresh);
    expect(r.default).toBeNull();
    expect(r.current).toBe(a.id);
  });

  test("default and assign: owners and admins only", async () => {
    expect((await h.json("PUT", `/v2/workspaces/${a.id}/default`, as(owner.token))).status).toBe(200);
    const adminToken = await memberToken(h, owner.token, projectId, "admin2@example.com", "admin");
    expect((await h.json("PUT", `/v2/workspaces/${b.id}/default`, as(adminToken))).status).toBe(200);
    expect((await h.json("PUT", `/v2/workspaces/${b.id}/assign`, as(adminToken, { userIds: [] }))).status).toBe(200);
    const dev = await memberToken(h, owner.token, projectId, "dev2@example.com", "developer");
    for (const [t, role] of [
      [fresh, "editor"],
      [dev, "developer"],
    ] as const) {
      const d = await h.json("PUT", `/v2/workspaces/${a.id}/default`, as(t));
      expect(d.status).toBe(403);
      expect(d.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin"], current: role });
      const s = await h.json("PUT", `/v2/workspaces/${a.id}/assign`, as(t, { userIds: [] }));
      expect(s.status).toBe(403);
      expect(s.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin"], current: role });
    }
    expect((await current(fresh)).default).toBe(b.id);
  });

  test("a private workspace can be neither default nor assigned", async () => {
    const d = await h.json("PUT", `/v2/workspaces/${p.id}/default`, as(owner.token));
    expect(d.status).toBe(400);
    expect(d.body).toEqual({ error: "Only a team workspace can be the project's default", code: "invalid_body", field: "id" });
    const s = await h.json("PUT", `/v2/workspaces/${p.id}/assign`, as(owner.token, { userIds: [] }));
    expect(s.body).toEqual({ error: "Only a team workspace can be assigned to members", code: "invalid_body", field: "id" });
  });

  test("assign refuses non-members and a body that is not { userIds }", async () => {
    const r = await h.json("PUT", `/v2/workspaces/${a.id}/assign`, as(owner.token, { userIds: [editorId, "0192f0c1-0000-7000-8000-000000000000"] }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "userIds[1] is not a member of this project", code: "invalid_body", field: "userIds[1]" });
    const notList = await h.json("PUT", `/v2/workspaces/${a.id}/assign`, as(owner.token, { userIds: "all" }));
    expect(notList.body).toEqual({ error: "userIds must be a list of up to 1,000 member ids", code: "invalid_body", field: "userIds" });
    const extra = await h.json("PUT", `/v2/workspaces/${a.id}/assign`, as(owner.token, { userIds: [], roles: ["editor"] }));
    expect(extra.body).toEqual({ error: "roles is not accepted here; send { userIds }", code: "invalid_body", field: "roles" });
  });
});
