// Workspaces on the agent mount /v2/agent/workspaces for legacy keys (interface.md, Agent mount;
// Workspace: a key only creates team workspaces; a key never sets the default or assigns).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { INSUFFICIENT, INVALID_KEY, legacyKey, scopedKey } from "../agent-keys.ts";

let h: Harness;
let token: string;
let agent: string;
let read: string;
let write: string;
let scoped: string;
let agentId: string;
let teamWs: any;
let privateWs: any;

const key = (k: string, body?: unknown) => ({ headers: { "x-api-key": k }, ...(body === undefined ? {} : { body }) });
const A = "/v2/agent/workspaces";

beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
  agent = await legacyKey(h, token, "agent");
  read = await legacyKey(h, token, "read");
  write = await legacyKey(h, token, "write");
  scoped = await scopedKey(h, token, ["workspace:read", "workspace:create", "workspace:update", "workspace:delete"]);
  agentId = (await h.json("GET", "/v2/tenants/api-keys", { token })).body.data.find((k: any) => k.name === "legacy agent").id;
  teamWs = (await h.json("POST", "/v2/workspaces", { token, body: { name: "Team" } })).body;
  privateWs = (await h.json("POST", "/v2/workspaces", { token, body: { name: "Owner's", visibility: "private" } })).body;
});
afterAll(() => h.close());

describe("an agent key", () => {
  let made: any;

  test("creates a team workspace from a template; the key is its creator", async () => {
    const r = await h.json("POST", A, key(agent, { name: "Agent desk", template: "catalog", tree: [{ folder: "Products", children: [{ model: "post" }] }] }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Agent desk", visibility: "team", template: "catalog", createdBy: { kind: "api_key", id: agentId }, nodes: 5 });
    made = r.body;
    // People see it: it is a team workspace.
    expect((await h.json("GET", "/v2/workspaces", { token })).body.data.map((w: any) => w.id)).toContain(made.id);
  });

  test("cannot create or duplicate into a private workspace: 403 Insufficient permissions", async () => {
    const r = await h.json("POST", A, key(agent, { name: "Secret", visibility: "private" }));
    expect(r.status).toBe(403);
    expect(r.body).toEqual(INSUFFICIENT);
    const d = await h.json("POST", `${A}/${teamWs.id}/duplicate`, key(agent, { visibility: "private" }));
    expect(d.status).toBe(403);
    expect(d.body).toEqual(INSUFFICIENT);
    const ok = await h.json("POST", `${A}/${teamWs.id}/duplicate`, key(agent, {}));
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ name: "Team (copy)", visibility: "team", createdBy: { kind: "api_key", id: agentId } });
  });

  test("sees team workspaces only", async () => {
    const r = await h.json("GET", A, key(agent));
    expect(r.status).toBe(200);
    const ids = r.body.data.map((w: any) => w.id);
    expect(ids).toContain(teamWs.id);
    expect(ids).not.toContain(privateWs.id);
    expect((await h.json("GET", `${A}/${privateWs.id}/tree`, key(agent))).status).toBe(404);
  });

  test("runs every tree and node route", async () => {
    const W = `${A}/${made.id}`;
    expect((await h.json("GET", `${W}/tree`, key(agent))).status).toBe(200);
    const d = await h.json("GET", `${W}/document`, key(agent));
    expect(d.status).toBe(200);
    expect(d.body.tree.map((n: any) => n.folder)).toEqual(["Products", "Categories", "Collections", "Brands"]);
    expect((await h.json("PUT", `${W}/tree`, key(agent, { mode: "merge", tree: [{ folder: "Extra" }] }))).status).toBe(200);
    // Media folder nodes name folders of the library; the agent key makes them (it holds media:create).
    const m = (await h.json("POST", "/v2/agent/media-folders", key(agent, { name: "m" }))).body.id;
    const m2 = (await h.json("POST", "/v2/agent/media-folders", key(agent, { name: "m2" }))).body.id;
    const added = await h.json("POST", `${W}/nodes`, key(agent, { node: { id: "n1", media_folder: m } }));
    expect(added.status).toBe(201);
    expect((await h.json("PUT", `${W}/nodes/n1`, key(agent, { media_folder: m2 }))).status).toBe(200);
    expect((await h.json("POST", `${W}/nodes/move`, key(agent, { nodeIds: ["n1"], parentId: null, position: 0 }))).status).toBe(200);
    const g = await h.json("POST", `${W}/nodes/group`, key(agent, { nodeIds: ["n1"], name: "G" }));
    expect(g.status).toBe(201);
    expect((await h.req("DELETE", `${W}/nodes/${g.body.id}`, key(agent))).status).toBe(204);
    expect((await h.json("PUT", W, key(agent, { name: "Renamed by agent" }))).body.name).toBe("Renamed by agent");
    expect((await h.json("GET", `${W}/tree`, key(agent))).body.data[0]).toMatchObject({ id: "n1", type: "media_folder", mediaFolderId: m2 });
  });

  test("chooses its own current workspace", async () => {
    const r = await h.json("PUT", `${A}/current`, key(agent, { workspaceId: made.id }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.id, isCurrent: true });
    expect((await h.json("GET", A, key(agent))).body.current).toBe(made.id);
    // The owner's current workspace is their own.
    expect((await h.json("GET", "/v2/workspaces", { token })).body.current).not.toBe(made.id);
  });

  test("never sets the default or assigns: 403 Insufficient permissions", async () => {
    const d = await h.json("PUT", `${A}/${made.id}/default`, key(agent));
    expect(d.status).toBe(403);
    expect(d.body).toEqual(INSUFFICIENT);
    const s = await h.json("PUT", `${A}/${made.id}/assign`, key(agent, { userIds: [] }));
    expect(s.status).toBe(403);
    expect(s.body).toEqual(INSUFFICIENT);
  });

  test("deletes a workspace", async () => {
    expect((await h.req("DELETE", `${A}/${made.id}`, key(agent))).status).toBe(204);
    expect((await h.json("GET", `/v2/workspaces/${made.id}/tree`, { token })).status).toBe(404);
  });
});

describe("other keys", () => {
  test("read and write keys read workspaces but change nothing: 403 Insufficient permissions", async () => {
    for (const k of [read, write]) {
      expect((await h.json("GET", A, key(k))).status).toBe(200);
      expect((await h.json("GET", `${A}/${teamWs.id}/tree`, key(k))).status).toBe(200);
      expect((await h.json("PUT", `${A}/current`, key(k, { workspaceId: teamWs.id }))).status).toBe(200);
      for (const [method, path, body] of [
        ["POST", A, { name: "X" }],
        ["PUT", `${A}/${teamWs.id}`, { name: "X" }],
        ["DELETE", `${A}/${teamWs.id}`],
        ["POST", `${A}/${teamWs.id}/duplicate`, {}],
        ["PUT", `${A}/${teamWs.id}/tree`, { mode: "merge", tree: [] }],
        ["POST", `${A}/${teamWs.id}/nodes`, { node: { folder: "A" } }],
        ["POST", `${A}/${teamWs.id}/nodes/move`, { nodeIds: ["x"] }],
        ["POST", `${A}/${teamWs.id}/nodes/group`, { nodeIds: ["x"], name: "G" }],
        ["PUT", `${A}/${teamWs.id}/nodes/x`, {}],
        ["DELETE", `${A}/${teamWs.id}/nodes/x`],
        ["PUT", `${A}/${teamWs.id}/default`],
        ["PUT", `${A}/${teamWs.id}/assign`, { userIds: [] }],
      ] as [string, string, unknown?][]) {
        const r = await h.json(method, path, key(k, body));
        expect({ method, path, status: r.status, body: r.body }).toEqual({ method, path, status: 403, body: INSUFFICIENT });
      }
    }
  });

  test("a scoped key, an unknown key and no key are 401 Invalid API key", async () => {
    for (const opts of [key(scoped), key("sk_unknown"), {}]) {
      for (const [method, path] of [
        ["GET", A],
        ["POST", A],
        ["GET", `${A}/${teamWs.id}/tree`],
      ]) {
        const r = await h.json(method!, path!, { ...opts, body: method === "POST" ? { name: "X" } : undefined });
        expect(r.status).toBe(401);
        expect(r.body).toEqual(INVALID_KEY);
      }
    }
  });

  test("a legacy key on the person mount is refused like an unknown key", async () => {
    const r = await h.json("GET", "/v2/workspaces", key(agent));
    expect(r.status).toBe(401);
    expect(r.body).toEqual(INVALID_KEY);
  });
});
