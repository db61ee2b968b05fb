// The arrangement editor's pure edits (admin/src/screens/workspaces/tree-edit.ts): the document
// sent on Save, moves that keep a folder out of itself, removal lifting a folder's children, and
// the node a refusal's `field` names.
import { describe, expect, test } from "bun:test";
import { canDrop, folderChoices, fromShown, indent, moveNode, nodeAtField, outdent, removeNode, shift, toDocument, type EditNode } from "./tree-edit.ts";

const tree: EditNode[] = fromShown([
  {
    id: "blog",
    type: "folder",
    name: "Blog",
    icon: null,
    children: [
      { id: "inner", type: "folder", name: "Drafts", icon: null, children: [] },
      { id: "post", type: "model", modelId: "m1", namespace: "post", name: "Post", missing: false },
    ],
  },
  { id: "entry", type: "entry", entryId: "e1", modelId: "m1", namespace: "post", title: "Hello", missing: false },
  { id: "media", type: "media_folder", mediaFolderId: "f1" },
]);

/** The tree as `key` lines with their depth, for exact comparisons. */
function shape(nodes: EditNode[], depth = 1): string[] {
  return nodes.flatMap((n) => [`${depth}:${n.key}`, ...(n.type === "folder" ? shape(n.children, depth + 1) : [])]);
}

describe("workspace tree edits", () => {
  test("the document keeps saved ids and leaves new nodes without one", () => {
    const next = [...tree, { key: "new-1", type: "folder" as const, name: "Later", icon: null, children: [] }];
    expect(toDocument(next)).toEqual([
      {
        id: "blog",
        folder: "Blog",
        children: [
          { id: "inner", folder: "Drafts", children: [] },
          { id: "post", model: "m1" },
        ],
      },
      { id: "entry", entry: "e1" },
      { id: "media", media_folder: "f1" },
      { folder: "Later", children: [] },
    ]);
  });

  test("moves: before, after, inside; never into itself or a folder inside it", () => {
    expect(shape(moveNode(tree, "media", "blog", "before"))).toEqual(["1:media", "1:blog", "2:inner", "2:post", "1:entry"]);
    expect(shape(moveNode(tree, "entry", "inner", "inside"))).toEqual(["1:blog", "2:inner", "3:entry", "2:post", "1:media"]);
    expect(shape(moveNode(tree, "post", "media", "after"))).toEqual(["1:blog", "2:inner", "1:entry", "1:media", "1:post"]);
    expect(canDrop(tree, "blog", "inner", "inside")).toBe(false);
    expect(canDrop(tree, "blog", "blog", "after")).toBe(false);
    expect(canDrop(tree, "entry", "media", "inside")).toBe(false);
    expect(moveNode(tree, "blog", "inner", "inside")).toBe(tree);
    expect(folderChoices(tree, "blog")).toEqual([]);
    expect(folderChoices(tree, "entry")).toEqual([
      { key: "blog", path: "Blog" },
      { key: "inner", path: "Blog / Drafts" },
    ]);
  });

  test("the keyboard's moves: up, down, indent into the folder above, outdent after the folder", () => {
    expect(shape(shift(tree, "media", -1))).toEqual(["1:blog", "2:inner", "2:post", "1:media", "1:entry"]);
    expect(shift(tree, "blog", -1)).toEqual(tree);
    expect(shape(indent(tree, "entry"))).toEqual(["1:blog", "2:inner", "2:post", "2:entry", "1:media"]);
    expect(indent(tree, "media")).toBe(tree);
    expect(shape(outdent(tree, "post"))).toEqual(["1:blog", "2:inner", "1:post", "1:entry", "1:media"]);
    expect(outdent(tree, "entry")).toBe(tree);
  });

  test("removing a folder lifts what it held into its place", () => {
    expect(shape(removeNode(tree, "blog"))).toEqual(["1:inner", "1:post", "1:entry", "1:media"]);
  });

  test("a refusal's field names a node by its path", () => {
    expect(nodeAtField(tree, "tree[0].children[1].model")).toBe("post");
    expect(nodeAtField(tree, "tree[2].media_folder")).toBe("media");
    expect(nodeAtField(tree, "tree[0].children[0]")).toBe("inner");
    expect(nodeAtField(tree, "tree[9].entry")).toBeNull();
    expect(nodeAtField(tree, "tree")).toBeNull();
    expect(nodeAtField(tree, "name")).toBeNull();
  });
});
