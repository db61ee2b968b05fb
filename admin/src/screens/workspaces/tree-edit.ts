// The workspace tree as the editor holds it before `Save`, and the pure edits on it: add,
// rename, remove, move up and down, indent and outdent, move into a folder, and the drops of drag
// and drop. Every edit returns a new tree; nothing is sent until Save (one PUT .../tree).
import type { DocNode } from "../../api/workspaces.ts";
import type { TreeNode } from "../../api/types.ts";

/** A node in the editor. `key` is the saved node's id, or `new-<n>` for one not saved yet. */
export type EditNode =
  | { key: string; type: "folder"; name: string; icon: string | null; children: EditNode[] }
  | { key: string; type: "model"; ref: string; label: string; missing: boolean }
  | { key: string; type: "entry"; ref: string; label: string; missing: boolean }
  | { key: string; type: "media_folder"; ref: string };

/** Where a dragged node lands relative to the node it is dropped on. */
export type Drop = "before" | "after" | "inside";

let counter = 0;

/** A key for a node not saved yet; the server gives it an id on Save. */
export function newKey(): string {
  counter += 1;
  return `new-${counter}`;
}

/** Whether the node was saved before (its key is the server's id). */
export function isSaved(key: string): boolean {
  return !key.startsWith("new-");
}

/** The editor's form of the tree the server answered. */
export function fromShown(nodes: TreeNode[]): EditNode[] {
  return nodes.map((n): EditNode => {
    switch (n.type) {
      case "folder":
        return { key: n.id, type: "folder", name: n.name, icon: n.icon ?? null, children: fromShown(n.children) };
      case "model":
        return { key: n.id, type: "model", ref: n.modelId, label: n.name ?? n.namespace ?? "Removed model", missing: n.missing };
      case "entry":
        return { key: n.id, type: "entry", ref: n.entryId, label: n.title ?? "Untitled entry", missing: n.missing };
      default:
        return { key: n.id, type: "media_folder", ref: n.mediaFolderId };
    }
  });
}

/** The document `PUT .../tree` takes: saved nodes keep their ids, new ones get theirs from the server. */
export function toDocument(nodes: EditNode[]): DocNode[] {
  return nodes.map((n): DocNode => {
    const id = isSaved(n.key) ? { id: n.key } : {};
    switch (n.type) {
      case "folder":
        return { ...id, folder: n.name, ...(n.icon ? { icon: n.icon } : {}), children: toDocument(n.children) };
      case "model":
        return { ...id, model: n.ref };
      case "entry":
        return { ...id, entry: n.ref };
      default:
        return { ...id, media_folder: n.ref };
    }
  });
}

/** Where a node sits: its list of siblings, its index there, and its parent folder (null at the top). */
export interface Place {
  node: EditNode;
  siblings: EditNode[];
  index: number;
  parent: Extract<EditNode, { type: "folder" }> | null;
}

/** Finds a node by key. */
export function locate(tree: EditNode[], key: string, parent: Place["parent"] = null): Place | null {
  for (let i = 0; i < tree.length; i++) {
    const n = tree[i]!;
    if (n.key === key) return { node: n, siblings: tree, index: i, parent };
    if (n.type === "folder") {
      const found = locate(n.children, key, n);
      if (found) return found;
    }
  }
  return null;
}

/** Every node of a tree, depth first. */
export function* walk(tree: EditNode[]): Generator<EditNode> {
  for (const n of tree) {
    yield n;
    if (n.type === "folder") yield* walk(n.children);
  }
}

/** Whether `inner` is `outer` or sits somewhere inside it. */
export function within(tree: EditNode[], outer: string, inner: string): boolean {
  const at = locate(tree, outer);
  return !!at && [...walk([at.node])].some((n) => n.key === inner);
}

/** Applies a mutation to a copy of the tree. */
function edit(tree: EditNode[], fn: (copy: EditNode[]) => void): EditNode[] {
  const copy = structuredClone(tree);
  fn(copy);
  return copy;
}

/** Adds a node at the end of the top level. */
export function addNode(tree: EditNode[], node: EditNode): EditNode[] {
  return [...tree, node];
}

/** Renames a folder. */
export function renameFolder(tree: EditNode[], key: string, name: string): EditNode[] {
  return edit(tree, (t) => {
    const at = locate(t, key);
    if (at?.node.type === "folder") at.node.name = name;
  });
}

/** Removes a node; a folder's children move up a level into its place (as the server's delete does). */
export function removeNode(tree: EditNode[], key: string): EditNode[] {
  return edit(tree, (t) => {
    const at = locate(t, key);
    if (!at) return;
    at.siblings.splice(at.index, 1, ...(at.node.type === "folder" ? at.node.children : []));
  });
}

/** Moves a node one place up (-1) or down (+1) among its siblings. */
export function shift(tree: EditNode[], key: string, by: -1 | 1): EditNode[] {
  return edit(tree, (t) => {
    const at = locate(t, key);
    const to = (at?.index ?? -1) + by;
    if (!at || to < 0 || to >= at.siblings.length) return;
    at.siblings.splice(at.index, 1);
    at.siblings.splice(to, 0, at.node);
  });
}

/** The folder a node would be indented into: the sibling just above it, when that is a folder. */
export function indentTarget(tree: EditNode[], key: string): EditNode | null {
  const at = locate(tree, key);
  const above = at && at.index > 0 ? at.siblings[at.index - 1]! : null;
  return above?.type === "folder" ? above : null;
}

/** Moves a node into the folder above it, at that folder's end. */
export function indent(tree: EditNode[], key: string): EditNode[] {
  const target = indentTarget(tree, key);
  return target ? moveNode(tree, key, target.key, "inside") : tree;
}

/** Moves a node out of its folder, to just after that folder. */
export function outdent(tree: EditNode[], key: string): EditNode[] {
  const parent = locate(tree, key)?.parent;
  return parent ? moveNode(tree, key, parent.key, "after") : tree;
}

/** Moves a node to the end of a folder (`null`: the top level). */
export function moveToFolder(tree: EditNode[], key: string, folder: string | null): EditNode[] {
  if (folder !== null) return moveNode(tree, key, folder, "inside");
  return edit(tree, (t) => {
    const at = locate(t, key);
    if (!at) return;
    at.siblings.splice(at.index, 1);
    t.push(at.node);
  });
}

/** Whether `key` may be dropped on `target` there: never into itself or a folder inside it, only folders take `inside`. */
export function canDrop(tree: EditNode[], key: string, target: string, where: Drop): boolean {
  if (key === target || within(tree, key, target)) return false;
  return where !== "inside" || locate(tree, target)?.node.type === "folder";
}

/** Moves `key` before or after `target`, or inside it at the end when it is a folder. */
export function moveNode(tree: EditNode[], key: string, target: string, where: Drop): EditNode[] {
  if (!canDrop(tree, key, target, where)) return tree;
  return edit(tree, (t) => {
    const from = locate(t, key)!;
    from.siblings.splice(from.index, 1);
    const to = locate(t, target)!;
    if (where === "inside" && to.node.type === "folder") to.node.children.push(from.node);
    else to.siblings.splice(to.index + (where === "after" ? 1 : 0), 0, from.node);
  });
}

/** The folders a node can be moved into (not itself nor its own folders), with their paths. */
export function folderChoices(tree: EditNode[], key: string): { key: string; path: string }[] {
  const out: { key: string; path: string }[] = [];
  const visit = (nodes: EditNode[], prefix: string) => {
    for (const n of nodes) {
      if (n.type !== "folder" || n.key === key) continue;
      const path = prefix ? `${prefix} / ${n.name}` : n.name;
      out.push({ key: n.key, path });
      visit(n.children, path);
    }
  };
  visit(tree, "");
  return out;
}

/**
 * The node a refusal's `field` names (`tree[0].children[2].model` is the third child of the
 * first node), so the editor can show the server's sentence beside it; null for the whole tree.
 */
export function nodeAtField(tree: EditNode[], field: string | null): string | null {
  if (!field?.startsWith("tree[")) return null;
  let rest = field.slice("tree".length);
  let list = tree;
  let found: EditNode | null = null;
  for (;;) {
    const m = /^\[(\d+)\]/.exec(rest);
    if (!m) break;
    found = list[Number(m[1])] ?? null;
    if (!found) return null;
    rest = rest.slice(m[0].length);
    if (!rest.startsWith(".children") || found.type !== "folder") break;
    list = found.children;
    rest = rest.slice(".children".length);
  }
  return found?.key ?? null;
}
