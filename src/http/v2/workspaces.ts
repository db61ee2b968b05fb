// Workspaces under /v2/workspaces, on both mounts (people on /v2, legacy keys on /v2/agent).
// The default and assign routes are for owners and admins only, never a key.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { managementAuth, MOUNTS, type Mount } from "../plugins/management.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  AddNodeBody,
  AssignBody,
  ChangeNodeBody,
  CreateWorkspaceBody,
  CurrentWorkspaceBody,
  DuplicateWorkspaceBody,
  GroupNodesBody,
  MoveNodesBody,
  PutTreeBody,
  UpdateWorkspaceBody,
} from "../../domain/workspaces/bodies.ts";
import { Assigned, DeleteNodeQuery, ShownNode, Tree, Workspace, WorkspaceDocument, WorkspaceList } from "../../domain/workspaces/answers.ts";
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
      { scope: "workspace:read", detail: doc({ summary: "The workspaces you can see, with the current and default ids", answers: { 200: WorkspaceList } }) },
    )
    .post(
      "/",
      async ({ principal: p, project: h, request, set }) => {
        const w = createWorkspace(s, h, p, await typedBody(request, CreateWorkspaceBody));
        set.status = 201;
        return w;
      },
      {
        scope: "workspace:create",
        detail: doc({ summary: "Create a workspace (a template seeds top-level folders)", body: CreateWorkspaceBody, answers: { 201: Workspace } }),
      },
    )
    .put(
      "/current",
      async ({ principal: p, project: h, request, set }) => {
        const w = setCurrent(s, h, p, await typedBody(request, CurrentWorkspaceBody));
        if (w === null) set.status = 204;
        return w;
      },
      {
        scope: "workspace:read",
        detail: doc({
          summary: "Choose your current workspace (null: back to the default)",
          body: CurrentWorkspaceBody,
          answers: { 200: Workspace, 204: null },
        }),
      },
    )
    .put(
      "/:id",
      async ({ principal: p, project: h, request, params }) => {
        return updateWorkspace(s, h, p, params.id, await typedBody(request, UpdateWorkspaceBody));
      },
      {
        scope: "workspace:update",
        detail: doc({ summary: "Rename a workspace, change its icon or visibility", body: UpdateWorkspaceBody, answers: { 200: Workspace } }),
      },
    )
    .post(
      "/:id/duplicate",
      async ({ principal: p, project: h, request, params, set }) => {
        const w = duplicateWorkspace(s, h, p, params.id, await typedBody(request, DuplicateWorkspaceBody));
        set.status = 201;
        return w;
      },
      { scope: "workspace:create", detail: doc({ summary: "Copy a workspace", body: DuplicateWorkspaceBody, answers: { 201: Workspace } }) },
    )
    .delete(
      "/:id",
      ({ principal: p, project: h, params, set }) => {
        deleteWorkspace(s, h, p, params.id);
        set.status = 204;
        return null;
      },
      { scope: "workspace:delete", detail: doc({ summary: "Delete a workspace; records are untouched", answers: { 204: null } }) },
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
      { scope: "workspace:read", detail: doc({ summary: "The workspace's nodes, as the left rail shows them", answers: { 200: Tree } }) },
    )
    .get(
      "/:id/document",
      ({ principal: p, project: h, params }) => {
        return getDocument(h, p, params.id);
      },
      {
        scope: "workspace:read",
        detail: doc({ summary: "The whole arrangement as one document (the form PUT .../tree takes)", answers: { 200: WorkspaceDocument } }),
      },
    )
    .put(
      "/:id/tree",
      async ({ principal: p, project: h, request, params }) => {
        return putTree(s, h, p, params.id, await typedBody(request, PutTreeBody));
      },
      { scope: "workspace:update", detail: doc({ summary: "Replace or merge the workspace's document", body: PutTreeBody, answers: { 200: Tree } }) },
    )
    .post(
      "/:id/nodes",
      async ({ principal: p, project: h, request, params, set }) => {
        const n = addNode(s, h, p, params.id, await typedBody(request, AddNodeBody));
        set.status = 201;
        return n;
      },
      { scope: "workspace:update", detail: doc({ summary: "Add a node (with its children)", body: AddNodeBody, answers: { 201: ShownNode } }) },
    )
    .post(
      "/:id/nodes/move",
      async ({ principal: p, project: h, request, params }) => {
        return moveNodes(s, h, p, params.id, await typedBody(request, MoveNodesBody));
      },
      { scope: "workspace:update", detail: doc({ summary: "Move nodes in one step", body: MoveNodesBody, answers: { 200: Tree } }) },
    )
    .post(
      "/:id/nodes/group",
      async ({ principal: p, project: h, request, params, set }) => {
        const n = groupNodes(s, h, p, params.id, await typedBody(request, GroupNodesBody));
        set.status = 201;
        return n;
      },
      { scope: "workspace:update", detail: doc({ summary: "Put nodes in a new folder", body: GroupNodesBody, answers: { 201: ShownNode } }) },
    )
    .put(
      "/:id/nodes/:nodeId",
      async ({ principal: p, project: h, request, params }) => {
        return changeNode(s, h, p, params.id, params.nodeId, await typedBody(request, ChangeNodeBody));
      },
      {
        scope: "workspace:update",
        detail: doc({ summary: "Change a node: a folder's name or icon, another node's reference", body: ChangeNodeBody, answers: { 200: ShownNode } }),
      },
    )
    .delete(
      "/:id/nodes/:nodeId",
      ({ principal: p, project: h, params, query, set }) => {
        deleteNode(s, h, p, params.id, params.nodeId, query.withChildren);
        set.status = 204;
        return null;
      },
      {
        scope: "workspace:update",
        detail: doc({ summary: "Remove a node; a folder's children move up unless withChildren=true", query: DeleteNodeQuery, answers: { 204: null } }),
      },
    )
    .put(
      "/:id/default",
      ({ principal: p, project: h, params }) => {
        return setDefault(h, p, params.id);
      },
      { person: "settings:update", detail: doc({ summary: "Make a team workspace the project's default", answers: { 200: Workspace } }) },
    )
    .get(
      "/:id/assign",
      ({ principal: p, project: h, params }) => {
        return assignedMembers(s, h, p, params.id);
      },
      { person: "settings:update", detail: doc({ summary: "The members this workspace is assigned to", answers: { 200: Assigned } }) },
    )
    .put(
      "/:id/assign",
      async ({ principal: p, project: h, request, params }) => {
        return assignWorkspace(s, h, p, params.id, await typedBody(request, AssignBody));
      },
      { person: "settings:update", detail: doc({ summary: "Assign a team workspace to members", body: AssignBody, answers: { 200: Assigned } }) },
    );
}

/** The workspace routes on every mount. */
export function workspaceRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(workspaceGroup(s, m)).use(nodeGroup(s, m));
  return app;
}
