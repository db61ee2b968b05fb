// Changing a workspace's visibility with PUT /v2/workspaces/:id, and reading who is assigned a
// workspace with GET /v2/workspaces/:id/assign (both added for the admin's Workspaces screen;
// docs/admin-structure.md). Private means "its creator's", so only the creator makes a workspace
// private, and never while it is the default or assigned.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { INSUFFICIENT, legacyKey } from "../agent-keys.ts";

let h: Harness;
let owner: string;
let projectId: string;
let editor: string;
let editorId: string;
let viewer: string;

const as = (t: string, body?: unknown) => ({ token: t, headers: { "x-svc-project": projectId }, ...(body === undefined ? {} : { body }) });
const bad = (field: string, error: string) => ({ error, code: "invalid_body", field });

async function create(t: string, body: Record<string, unknown>) {
  const r = await h.json("POST", "/v2/workspaces", as(t, body));
  expect(r.status).toBe(201);
  return r.body;
}

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  owner = o.token;
  projectId = o.project.id;
  editor = await memberToken(h, owner, projectId, "editor@example.com", "editor");
  viewer = await memberToken(h, owner, projectId, "viewer@example.com", "viewer");
  const members = await h.json("GET", `/v2/projects/${projectId}/members`, as(owner));
  editorId = members.body.data.find((m: any) => m.email === "editor@example.com").userId;
});
afterAll(() => h.close());

describe("changing visibility", () => {
  test("the creator makes a team workspace private and back; others stop and start seeing it", async () => {
    const w = await create(editor, { name: "Drafts desk" });
    h.clock.advance(1000);
    const r = await h.json("PUT", `/v2/workspaces/${w.id}`, as(editor, { visibility: "private" }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: w.id, name: "Drafts desk", visibility: "private", updatedAt: new Date(h.clock.now()).toISOString() });
    expect((await h.json("GET", "/v2/workspaces", as(owner))).body.data.map((x: any) => x.id)).not.toContain(w.id);
    const back = await h.json("PUT", `/v2/workspaces/${w.id}`, as(editor, { visibility: "team", name: "Team desk" }));
    expect(back.body).toMatchObject({ name: "Team desk", visibility: "team" });
    expect((await h.json("GET", "/v2/workspaces", as(owner))).body.data.map((x: any) => x.id)).toContain(w.id);
  });

  test("refused: someone other than the creator, the default, an assigned workspace, a bad value; nothing changes", async () => {
    const w = await create(owner, { name: "Shared" });
    const notMine = await h.json("PUT", `/v2/workspaces/${w.id}`, as(editor, { visibility: "private", name: "Renamed" }));
    expect(notMine.status).toBe(400);
    expect(notMine.body).toEqual(bad("visibility", "Only the person who created a workspace can make it private"));

    await h.json("PUT", `/v2/workspaces/${w.id}/default`, as(owner));
    const dflt = await h.json("PUT", `/v2/workspaces/${w.id}`, as(owner, { visibility: "private" }));
    expect(dflt.body).toEqual(bad("visibility", "The project's default workspace stays team; make another workspace the default first"));

    const other = await create(owner, { name: "Other" });
    await h.json("PUT", `/v2/workspaces/${other.id}/default`, as(owner));
    await h.json("PUT", `/v2/workspaces/${w.id}/assign`, as(owner, { userIds: [editorId] }));
    const assigned = await h.json("PUT", `/v2/workspaces/${w.id}`, as(owner, { visibility: "private" }));
    expect(assigned.body).toEqual(bad("visibility", "This workspace is assigned to 1 member; assign them another first"));

    const value = await h.json("PUT", `/v2/workspaces/${w.id}`, as(owner, { visibility: "everyone" }));
    expect(value.body).toEqual(bad("visibility", "visibility must be team or private"));
    const viewed = await h.json("PUT", `/v2/workspaces/${w.id}`, as(viewer, { visibility: "team" }));
    expect(viewed.status).toBe(403);

    const after = (await h.json("GET", "/v2/workspaces", as(owner))).body.data.find((x: any) => x.id === w.id);
    expect([after.name, after.visibility]).toEqual(["Shared", "team"]);
  });

  test("a key cannot make a workspace private (403); team stays allowed", async () => {
    const agent = await legacyKey(h, owner, "agent");
    const made = await h.json("POST", "/v2/agent/workspaces", { headers: { "x-api-key": agent }, body: { name: "Agent desk" } });
    const r = await h.json("PUT", `/v2/agent/workspaces/${made.body.id}`, { headers: { "x-api-key": agent }, body: { visibility: "private" } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(INSUFFICIENT);
    const ok = await h.json("PUT", `/v2/agent/workspaces/${made.body.id}`, { headers: { "x-api-key": agent }, body: { visibility: "team" } });
    expect(ok.body).toMatchObject({ visibility: "team" });
  });
});

describe("reading who is assigned", () => {
  test("GET .../assign answers the members assigned, as PUT does; owners and admins only", async () => {
    const w = await create(owner, { name: "Assigned" });
    expect((await h.json("GET", `/v2/workspaces/${w.id}/assign`, as(owner))).body).toEqual({ workspaceId: w.id, userIds: [] });
    const put = await h.json("PUT", `/v2/workspaces/${w.id}/assign`, as(owner, { userIds: [editorId] }));
    const got = await h.json("GET", `/v2/workspaces/${w.id}/assign`, as(owner));
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ workspaceId: w.id, userIds: [editorId] });
    expect(got.body).toEqual(put.body);
    const refused = await h.json("GET", `/v2/workspaces/${w.id}/assign`, as(editor));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin"], current: "editor" });
    // A member who left the project is not listed.
    await h.json("DELETE", `/v2/projects/${projectId}/members/${editorId}`, as(owner));
    expect((await h.json("GET", `/v2/workspaces/${w.id}/assign`, as(owner))).body).toEqual({ workspaceId: w.id, userIds: [] });
    const unknown = await h.json("GET", "/v2/workspaces/0192f0c1-0000-7000-8000-000000000000/assign", as(owner));
    expect(unknown.body).toEqual({ error: "No such workspace.", code: "not_found", field: "id" });
  });
});
