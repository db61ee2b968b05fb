// A workspace's arrangement as a tree, and its document form (interface.md, Workspace): a list
// of nodes, each a folder (`folder` name plus `children`), a model (`model`: namespace or id),
// an entry (`entry`: id) or a media folder (`media_folder`: id). These functions are pure: they
// read and reshape trees and never touch storage.
import type { Static } from "@sinclair/typebox";
import type { WorkspaceNode } from "./bodies.ts";
import { badField, fail } from "../../errors.ts";

/** The four kinds of node of a document. */
export type NodeType = "folder" | "model" | "entry" | "media_folder";

/** A stored node. Folders have `name`, `icon` and `children`; the others a `ref` (model id, entry id, media folder id). */
export interface TreeNode {
  id: string;
  type: NodeType;
  name?: string;
  icon?: string | null;
  ref?: string;
  children?: TreeNode[];
}

/** A parsed document node whose id may still be missing (the server assigns one). */
export interface DraftNode extends Omit<TreeNode, "id" | "children"> {
  id?: string;
  children?: DraftNode[];
}

/** Limits of one workspace: nodes and folder nesting (the form of node ids is the WorkspaceNode model's). */
export const MAX_NODES = 2000;
export const MAX_DEPTH = 10;

/** How a document's references are checked: models by namespace or id, entries by id. */
export interface Refs {
  /** The model id for a namespace or id, or null when there is no such model. */
  model(ref: string): string | null;
  /** Whether an entry with this id exists in the project. */
  entry(id: string): boolean;
  /** Whether a media folder with this id exists in the project. */
  mediaFolder(id: string): boolean;
}

/** A node as the WorkspaceNode model admits it (one of folder, model, entry, media_folder). */
export type NodeInput = Static<typeof WorkspaceNode>;

/**
 * Checks a media folder reference: the id of a folder of the project's media library. A refusal
 * names the property in `field` and the node in `path` (decisions.md 10: "path names the node").
 */
export function checkMediaFolder(v: string, field: string, refs: Refs, node = field): string {
  if (!refs.mediaFolder(v))
    fail("invalid_body", { message: `${field} names no media folder of this project: "${v}"`, param: field, extra: { field, path: node } });
  return v;
}

/** Resolves a model reference of a document. */
export function checkModelRef(v: string, path: string, refs: Refs): string {
  const id = refs.model(v);
  if (!id) badField(path, `${path} names no model of this project: "${v}"`);
  return id;
}

/** Checks an entry reference of a document. */
export function checkEntryRef(v: string, path: string, refs: Refs): string {
  if (!refs.entry(v.toLowerCase())) badField(path, `${path} names no entry of this project: ${v}`);
  return v.toLowerCase();
}

/**
 * Reads one document node (and its children), of the shape WorkspaceNode checked: what a shape
 * cannot say is checked here (how many nodes, how deep, what the references name). `counter`
 * counts nodes across the document.
 */
function parseNode(raw: NodeInput, path: string, refs: Refs, depth: number, counter: { n: number }): DraftNode {
  if (++counter.n > MAX_NODES) badField(path, `A workspace holds at most ${MAX_NODES} nodes`);
  if (depth > MAX_DEPTH) badField(path, `Folders nest at most ${MAX_DEPTH} levels deep`);
  const id = raw.id;
  if ("folder" in raw) {
    const children = raw.children ?? [];
    return {
      id,
      type: "folder",
      name: raw.folder,
      icon: raw.icon ?? null,
      children: children.map((c, i) => parseNode(c, `${path}.children[${i}]`, refs, depth + 1, counter)),
    };
  }
  if ("model" in raw) return { id, type: "model", ref: checkModelRef(raw.model, `${path}.model`, refs) };
  if ("entry" in raw) return { id, type: "entry", ref: checkEntryRef(raw.entry, `${path}.entry`, refs) };
  return { id, type: "media_folder", ref: checkMediaFolder(raw.media_folder, `${path}.media_folder`, refs, path) };
}

/** Refuses a node id used twice among `nodes` and their children. */
function uniqueIds(nodes: { node: DraftNode; at: string }[], seen = new Set<string>()): void {
  for (const { node, at } of nodes) {
    if (node.id !== undefined) {
      if (seen.has(node.id)) badField(`${at}.id`, `${at}.id "${node.id}" is used twice`);
      seen.add(node.id);
    }
    if (node.children)
      uniqueIds(
        node.children.map((c, i) => ({ node: c, at: `${at}.children[${i}]` })),
        seen,
      );
  }
}

/** Parses a document (a list of nodes) at `path`. Node ids given must be unique. */
export function parseDocument(raw: readonly NodeInput[], path: string, refs: Refs): DraftNode[] {
  const counter = { n: 0 };
  const nodes = raw.map((n, i) => parseNode(n, `${path}[${i}]`, refs, 1, counter));
  uniqueIds(nodes.map((node, i) => ({ node, at: `${path}[${i}]` })));
  return nodes;
}

/** Parses a single node with its children (the add-node route), at `path`, nested at `depth`. */
export function parseOne(raw: NodeInput, path: string, refs: Refs, depth = 1): DraftNode {
  const node = parseNode(raw, path, refs, depth, { n: 0 });
  uniqueIds([{ node, at: path }]);
  return node;
}

/** Gives every node without an id (or with one already taken) a fresh id. */
export function assignIds(nodes: DraftNode[], taken: Set<string>, newId: () => string): TreeNode[] {
  return nodes.map((n) => {
    const id = n.id !== undefined && !taken.has(n.id) ? n.id : newId();
    taken.add(id);
    const out: TreeNode = { ...n, id } as TreeNode;
    if (n.children) out.children = assignIds(n.children, taken, newId);
    return out;
  });
}

/** Every node of a tree, depth first. */
export function* walk(tree: TreeNode[]): Generator<TreeNode> {
  for (const n of tree) {
    yield n;
    if (n.children) yield* walk(n.children);
  }
}

/** The ids used in a tree. */
export function idsOf(tree: TreeNode[]): Set<string> {
  return new Set([...walk(tree)].map((n) => n.id));
}

/** How deep a tree nests (a flat list is 1). */
export function depthOf(tree: TreeNode[]): number {
  let max = 0;
  for (const n of tree) max = Math.max(max, 1 + (n.children ? depthOf(n.children) : 0));
  return max;
}

/** Where a node sits: its list of siblings and its index there, and its parent folder (null at the top). */
export function locate(
  tree: TreeNode[],
  id: string,
  parent: TreeNode | null = null,
): { node: TreeNode; siblings: TreeNode[]; index: number; parent: TreeNode | null } | null {
  for (let i = 0; i < tree.length; i++) {
    const n = tree[i]!;
    if (n.id === id) return { node: n, siblings: tree, index: i, parent };
    if (n.children) {
      const found = locate(n.children, id, n);
      if (found) return found;
    }
  }
  return null;
}

/** The key a leaf is matched by in a merge: its type and reference. */
function leafKey(n: { type: NodeType; ref?: string }): string {
  return `${n.type}:${n.ref}`;
}

/**
 * Merges a document into a tree: adds what is missing and removes nothing. A folder matches a
 * sibling folder with the same id, else with the same name, and its children merge into it. A
 * model, entry or media folder already anywhere in the tree is not added a second time.
 */
export function mergeTrees(tree: TreeNode[], incoming: DraftNode[], newId: () => string): TreeNode[] {
  const out = structuredClone(tree);
  const present = new Set([...walk(out)].filter((n) => n.type !== "folder").map(leafKey));
  const taken = idsOf(out);
  const into = (target: TreeNode[], list: DraftNode[]) => {
    for (const n of list) {
      if (n.type === "folder") {
        const match =
          target.find((c) => c.type === "folder" && n.id !== undefined && c.id === n.id) ?? target.find((c) => c.type === "folder" && c.name === n.name);
        if (match) {
          match.children ??= [];
          into(match.children, n.children ?? []);
        } else {
          const folder: TreeNode = {
            id: n.id !== undefined && !taken.has(n.id) ? n.id : newId(),
            type: "folder",
            name: n.name,
            icon: n.icon ?? null,
            children: [],
          };
          taken.add(folder.id);
          target.push(folder);
          into(folder.children!, n.children ?? []);
        }
      } else if (!present.has(leafKey(n))) {
        present.add(leafKey(n));
        const id = n.id !== undefined && !taken.has(n.id) ? n.id : newId();
        taken.add(id);
        target.push({ id, type: n.type, ref: n.ref });
      }
    }
  };
  into(out, incoming);
  return out;
}

/** The document form of a tree; model nodes name their model by namespace (id when it is gone). */
export function toDocument(tree: TreeNode[], namespaceOf: (modelId: string) => string | null): unknown[] {
  return tree.map((n) => {
    switch (n.type) {
      case "folder":
        return { id: n.id, folder: n.name, icon: n.icon ?? null, children: toDocument(n.children ?? [], namespaceOf) };
      case "model":
        return { id: n.id, model: namespaceOf(n.ref!) ?? n.ref };
      case "entry":
        return { id: n.id, entry: n.ref };
      default:
        return { id: n.id, media_folder: n.ref };
    }
  });
}

/** The top-level folders a template seeds (interface.md: templates seed top-level folders only). */
export const TEMPLATES: Record<string, string[]> = {
  blank: [],
  website: ["Pages", "Blog", "Navigation", "Settings"],
  catalog: ["Products", "Categories", "Collections", "Brands"],
};
