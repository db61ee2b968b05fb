// Workspaces under /v2/workspaces, on both mounts (people on /v2, legacy keys on /v2/agent).
// The default and assign routes are for owners and admins only, never a key.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { mounts, type Mount } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requirePerson, requireScope, type Principal } from "../../domain/access/principal.ts";
import {
  assignWorkspace,
  createWorkspace,
  deleteWorkspace,
  duplicateWorkspace,
  listWorkspaces,
  setCurrent,
  setDefault,
  updateWorkspace,
} from "../../domain/workspaces/service.ts";
import { addNode, changeNode, deleteNode, getDocument, getTree, groupNodes, moveNodes, putTree } from "../../domain/workspaces/nodes.ts";

function workspaceGroup(s: Services, m: Mount) {
  const ctx = async (request: Request, scope: string, personOnly = false) => {
    const p: Principal = await m.auth(request);
    if (personOnly) requirePerson(p, scope);
    else requireScope(p, scope);
    return { p, h: s.projects.get(projectOf(p)) };
  };
  return new Elysia({ prefix: `${m.prefix}/workspaces` })
    .get("/", async ({ request }) => {
      const { p, h } = await ctx(request, "workspace:read");
      return listWorkspaces(h, p);
    })
    .post("/", async ({ request, set }) => {
      const { p, h } = await ctx(request, "workspace:create");
      const w = createWorkspace(s, h, p, await jsonBody(request));
      set.status = 201;
      return w;
    })
    .put("/current", async ({ request, set }) => {
      const { p, h } = await ctx(request, "workspace:read");
      const w = setCurrent(s, h, p, await jsonBody(request));
      if (w === null) set.status = 204;
      return w;
    })
    .put("/:id", async ({ request, params }) => {
      const { p, h } = await ctx(request, "workspace:update");
      return updateWorkspace(s, h, p, params.id, await jsonBody(request));
    })
    .post("/:id/duplicate", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "workspace:create");
      const w = duplicateWorkspace(s, h, p, params.id, await jsonBody(request));
      set.status = 201;
      return w;
    })
    .delete("/:id", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "workspace:delete");
      deleteWorkspace(h, p, params.id);
      set.status = 204;
      return null;
    })
    .get("/:id/tree", async ({ request, params }) => {
      const { p, h } = await ctx(request, "workspace:read");
      return getTree(h, p, params.id);
    })
    .get("/:id/document", async ({ request, params }) => {
      const { p, h } = await ctx(request, "workspace:read");
      return getDocument(h, p, params.id);
    })
    .put("/:id/tree", async ({ request, params }) => {
      const { p, h } = await ctx(request, "workspace:update");
      return putTree(s, h, p, params.id, await jsonBody(request));
    })
    .post("/:id/nodes", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "workspace:update");
      const n = addNode(s, h, p, params.id, await jsonBody(request));
      set.status = 201;
      return n;
    })
    .post("/:id/nodes/move", async ({ request, params }) => {
      const { p, h } = await ctx(request, "workspace:update");
      return moveNodes(s, h, p, params.id, await jsonBody(request));
    })
    .post("/:id/nodes/group", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "workspace:update");
      const n = groupNodes(s, h, p, params.id, await jsonBody(request));
      set.status = 201;
      return n;
    })
    .put("/:id/nodes/:nodeId", async ({ request, params }) => {
      const { p, h } = await ctx(request, "workspace:update");
      return changeNode(s, h, p, params.id, params.nodeId, await jsonBody(request));
    })
    .delete("/:id/nodes/:nodeId", async ({ request, params, query, set }) => {
      const { p, h } = await ctx(request, "workspace:update");
      deleteNode(s, h, p, params.id, params.nodeId, query.withChildren);
      set.status = 204;
      return null;
    })
    .put("/:id/default", async ({ request, params }) => {
      const { p, h } = await ctx(request, "settings:update", true);
      return setDefault(h, p, params.id);
    })
    .put("/:id/assign", async ({ request, params }) => {
      const { p, h } = await ctx(request, "settings:update", true);
      return assignWorkspace(s, h, p, params.id, await jsonBody(request));
    });
}

/** The workspace routes on every mount. */
export function workspaceRoutes(s: Services) {
  const app = new Elysia();
  for (const m of mounts(s)) app.use(workspaceGroup(s, m));
  return app;
}
