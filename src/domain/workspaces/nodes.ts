// A workspace's nodes: the tree as the admin renders it, the document form, replace and merge,
// and the node routes (add, change, move, group, delete). Each edit reads the tree, reshapes it
// and saves it whole in one statement; references are checked, records are never written.
import type { Static } from "@sinclair/typebox";
import type { AddNodeBody, ChangeNodeBody, GroupNodesBody, MoveNodesBody, PutTreeBody } from "./bodies.ts";
import { badField, fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Principal } from "../access/principal.ts";
import { allModels } from "../models/catalog.ts";
import { titleOf } from "../entries/publish.ts";
import {
  assignIds,
  checkEntryRef,
  checkMediaFolder,
  checkModelRef,
  idsOf,
  locate,
  mergeTrees,
  parseDocument,
  parseOne,
  toDocument,
  walk,
  type TreeNode,
} from "./tree.ts";
import { refsOf, saveTree, treeOf, workspaceOrFail } from "./service.ts";

/** A node as `GET /tree` shows it: references resolved, with `missing` when the record is gone. */
export type ShownNode =
  | { id: string; type: "folder"; name: string; icon: string | null; children: ShownNode[] }
  | { id: string; type: "model"; modelId: string; namespace: string | null; name: string | null; missing: boolean }
  | { id: string; type: "entry"; entryId: string; modelId: string | null; namespace: string | null; title: string | null; missing: boolean }
  | { id: string; type: "media_folder"; mediaFolderId: string };

/** Resolves the references of a tree (or subtree) for display, reading every entry it names in one query. */
export function showTree(h: ProjectHandle, tree: TreeNode[]): ShownNode[] {
  const models = allModels(h).byId;
  const entryIds = [...walk(tree)].filter((n) => n.type === "entry").map((n) => n.ref!);
  const rows =
    entryIds.length === 0
      ? []
      : (h.sqlite
          .query("SELECT id, model_id AS modelId, draft_data AS data FROM entries WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))")
          .all(JSON.stringify(entryIds)) as { id: string; modelId: string; data: string }[]);
  const entries = new Map(rows.map((r) => [r.id, r]));
  const show = (n: TreeNode): ShownNode => {
    switch (n.type) {
      case "folder":
        return { id: n.id, type: "folder", name: n.name!, icon: n.icon ?? null, children: (n.children ?? []).map(show) };
      case "model": {
        const m = models.get(n.ref!);
        return { id: n.id, type: "model", modelId: n.ref!, namespace: m?.namespace ?? null, name: m?.name ?? null, missing: !m };
      }
      case "entry": {
        const e = entries.get(n.ref!);
        const m = e ? models.get(e.modelId) : undefined;
        return {
          id: n.id,
          type: "entry",
          entryId: n.ref!,
          modelId: e?.modelId ?? null,
          namespace: m?.namespace ?? null,
          title: m && e ? titleOf(m, JSON.parse(e.data), allModels(h).locales.default) : null,
          missing: !e,
        };
      }
      default:
        return { id: n.id, type: "media_folder", mediaFolderId: n.ref! };
    }
  };
  return tree.map(show);
}

/** `GET /v2/workspaces/:id/tree`. */
export function getTree(h: ProjectHandle, p: Principal, id: string) {
  return { data: showTree(h, treeOf(workspaceOrFail(h, p, id))) };
}

/** `GET /v2/workspaces/:id/document`: the whole arrangement in the form `PUT .../tree` accepts. */
export function getDocument(h: ProjectHandle, p: Principal, id: string) {
  const row = workspaceOrFail(h, p, id);
  const models = allModels(h).byId;
  return { id: row.id, name: row.name, icon: row.icon, visibility: row.visibility, tree: toDocument(treeOf(row), (mid) => models.get(mid)?.namespace ?? null) };
}

/** `PUT /v2/workspaces/:id/tree { mode, tree }`: `replace` makes it exactly the document; `merge` adds what is missing. */
export function putTree(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof PutTreeBody>) {
  const row = workspaceOrFail(h, p, id);
  const doc = parseDocument(body.tree, "tree", refsOf(h));
  const newId = () => s.ids.uuid();
  const tree = body.mode === "replace" ? assignIds(doc, new Set(), newId) : mergeTrees(treeOf(row), doc, newId);
  saveTree(s, h, row, tree);
  return { data: showTree(h, tree) };
}

function nodeOrFail(tree: TreeNode[], nodeId: string) {
  const at = locate(tree, nodeId);
  if (!at) fail("not_found", { message: "No such node in this workspace.", extra: { field: "nodeId" } });
  return at;
}

/** The child list of a folder (`parentId`), or the top level for null/absent. */
function childrenOf(tree: TreeNode[], parentId: unknown, field = "parentId"): { list: TreeNode[]; folder: TreeNode | null } {
  if (parentId === undefined || parentId === null) return { list: tree, folder: null };
  const at = typeof parentId === "string" ? locate(tree, parentId) : null;
  if (at?.node.type !== "folder") badField(field, `${field} must be the id of a folder of this workspace, or null for the top level`);
  at.node.children ??= [];
  return { list: at.node.children, folder: at.node };
}

function checkPosition(v: unknown, length: number): number {
  if (v === undefined || v === null) return length;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > length) badField("position", `position must be a whole number from 0 to ${length}`);
  return v;
}

/** How deep a folder sits (the top level is depth 0). */
function depthOfNode(tree: TreeNode[], id: string | null): number {
  let d = 0;
  let cur = id;
  while (cur !== null) {
    const at = locate(tree, cur)!;
    d++;
    cur = at.parent?.id ?? null;
  }
  return d;
}

/** `POST /v2/workspaces/:id/nodes { node, parentId?, position? }`: adds a node (a folder may bring children). */
export function addNode(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof AddNodeBody>) {
  const row = workspaceOrFail(h, p, id);
  const tree = treeOf(row);
  const { list, folder } = childrenOf(tree, body.parentId);
  const draft = parseOne(body.node, "node", refsOf(h), depthOfNode(tree, folder?.id ?? null) + 1);
  const position = checkPosition(body.position, list.length);
  const [node] = assignIds([draft], idsOf(tree), () => s.ids.uuid());
  list.splice(position, 0, node!);
  saveTree(s, h, row, tree, "node");
  return showTree(h, [node!])[0]!;
}

/** `PUT /v2/workspaces/:id/nodes/:nodeId`: a folder's name or icon, or a leaf's reference (same kind). */
export function changeNode(s: Services, h: ProjectHandle, p: Principal, id: string, nodeId: string, body: Static<typeof ChangeNodeBody>) {
  const row = workspaceOrFail(h, p, id);
  const tree = treeOf(row);
  const { node } = nodeOrFail(tree, nodeId);
  const allowed = node.type === "folder" ? ["name", "icon"] : [node.type];
  for (const k of Object.keys(body)) if (!allowed.includes(k)) badField(k, `${k} cannot be changed on a ${node.type} node; send ${allowed.join(" or ")}`);
  const refs = refsOf(h);
  if (node.type === "folder") {
    if (body.name !== undefined) node.name = body.name;
    if (body.icon !== undefined) node.icon = body.icon;
  } else if (body[node.type] !== undefined) {
    const v = body[node.type]!;
    node.ref =
      node.type === "model"
        ? checkModelRef(v, "model", refs)
        : node.type === "entry"
          ? checkEntryRef(v, "entry", refs)
          : checkMediaFolder(v, "media_folder", refs);
  }
  saveTree(s, h, row, tree);
  return showTree(h, [node])[0]!;
}

/** Checks a list of node ids to move or group: present, once each, none inside another of the list. */
function checkNodeIds(tree: TreeNode[], v: readonly string[]): TreeNode[] {
  const nodes = v.map((x, i) => {
    const at = locate(tree, x);
    if (!at) badField(`nodeIds[${i}]`, `nodeIds[${i}] is not a node of this workspace`);
    return at.node;
  });
  const ids = new Set<string>();
  nodes.forEach((n, i) => {
    if (ids.has(n.id)) badField(`nodeIds[${i}]`, `nodeIds[${i}] is listed twice`);
    ids.add(n.id);
  });
  nodes.forEach((n, i) => {
    // A node inside another moved node travels with it; listing both is ambiguous.
    for (const other of nodes) {
      if (other !== n && other.children && idsOf(other.children).has(n.id)) badField(`nodeIds[${i}]`, `nodeIds[${i}] sits inside another listed node`);
    }
  });
  return nodes;
}

function detach(tree: TreeNode[], id: string): TreeNode {
  const at = locate(tree, id)!;
  at.siblings.splice(at.index, 1);
  return at.node;
}

/** `POST /v2/workspaces/:id/nodes/move { nodeIds, parentId?, position? }`: moves nodes in one step, in the order given. */
export function moveNodes(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof MoveNodesBody>) {
  const row = workspaceOrFail(h, p, id);
  const tree = treeOf(row);
  const nodes = checkNodeIds(tree, body.nodeIds);
  if (typeof body.parentId === "string") {
    for (const n of nodes) {
      if (n.id === body.parentId || (n.children && idsOf(n.children).has(body.parentId)))
        badField("parentId", "parentId cannot be a moved node or a folder inside one");
    }
  }
  for (const n of nodes) detach(tree, n.id);
  const { list } = childrenOf(tree, body.parentId);
  const position = checkPosition(body.position, list.length);
  list.splice(position, 0, ...nodes);
  saveTree(s, h, row, tree);
  return { data: showTree(h, tree) };
}

/** `POST /v2/workspaces/:id/nodes/group { nodeIds, name, icon? }`: a new folder where the first node was, holding the nodes. */
export function groupNodes(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof GroupNodesBody>) {
  const row = workspaceOrFail(h, p, id);
  const tree = treeOf(row);
  const nodes = checkNodeIds(tree, body.nodeIds);
  const name = body.name;
  const icon = body.icon ?? null;
  const first = locate(tree, nodes[0]!.id)!;
  const folder: TreeNode = { id: s.ids.uuid(), type: "folder", name, icon, children: [] };
  first.siblings.splice(first.index, 0, folder);
  for (const n of nodes) detach(tree, n.id);
  folder.children = nodes;
  saveTree(s, h, row, tree);
  return showTree(h, [folder])[0]!;
}

/** `DELETE /v2/workspaces/:id/nodes/:nodeId[?withChildren=true]`: a folder's children move up a level unless withChildren. */
export function deleteNode(s: Services, h: ProjectHandle, p: Principal, id: string, nodeId: string, withChildren: unknown): void {
  const row = workspaceOrFail(h, p, id);
  if (withChildren !== undefined && withChildren !== "true" && withChildren !== "false") badField("withChildren", "withChildren must be true or false");
  const tree = treeOf(row);
  const at = nodeOrFail(tree, nodeId);
  const lifted = withChildren === "true" ? [] : (at.node.children ?? []);
  at.siblings.splice(at.index, 1, ...lifted);
  saveTree(s, h, row, tree);
}
