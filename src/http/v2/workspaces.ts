// Workspaces under /v2/workspaces, on both mounts (people on /v2, legacy keys on /v2/agent).
// The default and assign routes are for owners and admins only, never a key.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { managementAuth, MOUNTS, type Mount } from "../plugins/management.ts";
import { jsonBody } from "./body.ts";
import {
  assignedMembers,
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

/** Workspaces themselves, on one mount. */
function workspaceGroup(s: Services, mount: Mount): AnyElysia {
  return new Elysia({ prefix: `${mount}/workspaces` })
    .use(managementAuth(s, mount))
    .get(
      "/",
      ({ principal: p, project: h }) => {
        return listWorkspaces(h, p);
      },
      { scope: "workspace:read" },
    )
    .post(
      "/",
      async ({ principal: p, project: h, request, set }) => {
        const w = createWorkspace(s, h, p, await jsonBody(request));
        set.status = 201;
        return w;
      },
      { scope: "workspace:create" },
    )
    .put(
      "/current",
      async ({ principal: p, project: h, request, set }) => {
        const w = setCurrent(s, h, p, await jsonBody(request));
        if (w === null) set.status = 204;
        return w;
      },
      { scope: "workspace:read" },
    )
    .put(
      "/:id",
      async ({ principal: p, project: h, request, params }) => {
        return updateWorkspace(s, h, p, params.id, await jsonBody(request));
      },
      { scope: "workspace:update" },
    )
    .post(
      "/:id/duplicate",
      async ({ principal: p, project: h, request, params, set }) => {
        const w = duplicateWorkspace(s, h, p, params.id, await jsonBody(request));
        set.status = 201;
        return w;
      },
      { scope: "workspace:create" },
    )
    .delete(
      "/:id",
      ({ principal: p, project: h, params, set }) => {
        deleteWorkspace(s, h, p, params.id);
        set.status = 204;
        return null;
      },
      { scope: "workspace:delete" },
    );
}

/** A workspace's tree and nodes, on one mount. */
function nodeGroup(s: Services, mount: Mount): AnyElysia {
  return new Elysia({ prefix: `${mount}/workspaces` })
    .use(managementAuth(s, mount))
    .get(
      "/:id/tree",
      ({ principal: p, project: h, params }) => {
        return getTree(h, p, params.id);
      },
      { scope: "workspace:read" },
    )
    .get(
      "/:id/document",
      ({ principal: p, project: h, params }) => {
        return getDocument(h, p, params.id);
      },
      { scope: "workspace:read" },
    )
    .put(
      "/:id/tree",
      async ({ principal: p, project: h, request, params }) => {
        return putTree(s, h, p, params.id, await jsonBody(request));
      },
      { scope: "workspace:update" },
    )
    .post(
      "/:id/nodes",
      async ({ principal: p, project: h, request, params, set }) => {
        const n = addNode(s, h, p, params.id, await jsonBody(request));
        set.status = 201;
        return n;
      },
      { scope: "workspace:update" },
    )
    .post(
      "/:id/nodes/move",
      async ({ principal: p, project: h, request, params }) => {
        return moveNodes(s, h, p, params.id, await jsonBody(request));
      },
      { scope: "workspace:update" },
    )
    .post(
      "/:id/nodes/group",
      async ({ principal: p, project: h, request, params, set }) => {
        const n = groupNodes(s, h, p, params.id, await jsonBody(request));
        set.status = 201;
        return n;
      },
      { scope: "workspace:update" },
    )
    .put(
      "/:id/nodes/:nodeId",
      async ({ principal: p, project: h, request, params }) => {
        return changeNode(s, h, p, params.id, params.nodeId, await jsonBody(request));
      },
      { scope: "workspace:update" },
    )
    .delete(
      "/:id/nodes/:nodeId",
      ({ principal: p, project: h, params, query, set }) => {
        deleteNode(s, h, p, params.id, params.nodeId, query.withChildren);
        set.status = 204;
        return null;
      },
      { scope: "workspace:update" },
    )
    .put(
      "/:id/default",
      ({ principal: p, project: h, params }) => {
        return setDefault(h, p, params.id);
      },
      { person: "settings:update" },
    )
    .get(
      "/:id/assign",
      ({ principal: p, project: h, params }) => {
        return assignedMembers(s, h, p, params.id);
      },
      { person: "settings:update" },
    )
    .put(
      "/:id/assign",
      async ({ principal: p, project: h, request, params }) => {
        return assignWorkspace(s, h, p, params.id, await jsonBody(request));
      },
      { person: "settings:update" },
    );
}

/** The workspace routes on every mount. */
export function workspaceRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(workspaceGroup(s, m)).use(nodeGroup(s, m));
  return app;
}
