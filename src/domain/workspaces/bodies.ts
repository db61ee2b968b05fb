// TypeBox models of the workspace bodies (interface.md, Workspace; decisions.md 9): workspaces,
// their documents (a list of nodes, each a folder, a model, an entry or a media folder, told
// apart by the one key it holds) and the node routes. The domain adds what a shape cannot say:
// references name models, entries, media folders, folders, nodes and members of the project,
// at most 2,000 nodes nested at most 10 deep, node ids used once, who may make a workspace private.
import { UUID_PATTERN } from "../access/schema-kit.ts";
import { type TProperties, Type } from "@sinclair/typebox";
import { TEMPLATES } from "./tree.ts";

const NodeId = Type.String({ pattern: "^[A-Za-z0-9_-]{1,64}$", error: "{field} must be 1 to 64 of a-z A-Z 0-9 _ -" });
const FolderName = Type.String({ maxLength: 120, pattern: "\\S", error: "{field} must be a folder name of 1 to 120 characters" });
const Icon = Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 64 })], { error: "{field} must be an icon name of 1 to 64 characters, or null" });
const ModelRef = Type.String({ minLength: 1, error: "{field} must be a model namespace or id" });
const EntryRef = Type.String({ pattern: UUID_PATTERN, error: "{field} must be an entry id (UUID)" });
const MediaFolderRef = Type.String({ minLength: 1, maxLength: 64, error: "{field} must be a media folder id of 1 to 64 characters" });

const node = <P extends TProperties>(kind: string, props: P) =>
  Type.Object({ id: Type.Optional(NodeId), ...props }, { additionalProperties: false, unknown: `{field} is not allowed on a ${kind} node` });

/** A node of a workspace document; a folder holds nodes. */
export const WorkspaceNode = Type.Recursive(
  (Self) =>
    Type.Union(
      [
        node("folder", {
          folder: FolderName,
          icon: Type.Optional(Icon),
          children: Type.Optional(Type.Array(Self, { error: "{field} must be a list of nodes" })),
        }),
        node("model", { model: ModelRef }),
        node("entry", { entry: EntryRef }),
        node("media_folder", { media_folder: MediaFolderRef }),
      ],
      {
        error: "{field} must be a node: { folder, children }, { model }, { entry } or { media_folder }",
        oneOfKeys: ["folder", "model", "entry", "media_folder"],
      },
    ),
  { $id: "WorkspaceNode" },
);

const Document = Type.Array(WorkspaceNode, { error: "{field} must be a list of nodes" });

const Name = Type.String({ maxLength: 120, pattern: "\\S", error: "name must be 1 to 120 characters" });
const Visibility = Type.Union([Type.Null(), Type.Literal("team"), Type.Literal("private")], { error: "visibility must be team or private" });
const only = <P extends TProperties>(props: P, $id: string, unknown: string) => Type.Object(props, { $id, additionalProperties: false, unknown });

/** POST /v2/workspaces. */
export const CreateWorkspaceBody = only(
  {
    name: Name,
    template: Type.Optional(
      Type.Union([Type.Null(), ...Object.keys(TEMPLATES).map((t) => Type.Literal(t))], {
        error: `template must be one of ${Object.keys(TEMPLATES).join(", ")}`,
      }),
    ),
    visibility: Type.Optional(Visibility),
    icon: Type.Optional(Icon),
    tree: Type.Optional(Document),
  },
  "CreateWorkspaceBody",
  "{field} is not a workspace property",
);

/** PUT /v2/workspaces/:id. */
export const UpdateWorkspaceBody = only(
  { name: Type.Optional(Name), icon: Type.Optional(Icon), visibility: Type.Optional(Visibility) },
  "UpdateWorkspaceBody",
  "{field} cannot be changed here; send name, icon or visibility",
);

/** POST /v2/workspaces/:id/duplicate. */
export const DuplicateWorkspaceBody = only(
  { name: Type.Optional(Name), visibility: Type.Optional(Visibility) },
  "DuplicateWorkspaceBody",
  "{field} is not accepted here; send name or visibility",
);

/** PUT /v2/workspaces/current: a workspace id, or null for the default choice. */
export const CurrentWorkspaceBody = only(
  { workspaceId: Type.Unknown({ missing: "workspaceId is required (a workspace id, or null)", description: "A workspace id, or null." }) },
  "CurrentWorkspaceBody",
  "{field} is not accepted here; send { workspaceId }",
);

/** PUT /v2/workspaces/:id/tree: `replace` makes it exactly the document; `merge` adds what is missing. */
export const PutTreeBody = only(
  {
    mode: Type.Union([Type.Literal("replace"), Type.Literal("merge")], { error: "mode must be replace or merge" }),
    tree: Type.Array(WorkspaceNode, { error: "{field} must be a list of nodes", missing: "tree is required: a list of nodes" }),
  },
  "PutTreeBody",
  "{field} is not accepted here; send { mode, tree }",
);

const ParentId = Type.Unknown({ description: "The id of a folder of this workspace, or null (or absent) for the top level." });
const Position = Type.Unknown({ description: "A whole number from 0 to the number of nodes there; default the end." });

/** POST /v2/workspaces/:id/nodes. */
export const AddNodeBody = only(
  {
    node: { ...WorkspaceNode, missing: 'node is required, e.g. { folder: "Blog" } or { model: "post" }' } as typeof WorkspaceNode,
    parentId: Type.Optional(ParentId),
    position: Type.Optional(Position),
  },
  "AddNodeBody",
  "{field} is not accepted here; send { node, parentId?, position? }",
);

const NodeIds = Type.Array(Type.String({ error: "{field} is not a node of this workspace" }), {
  minItems: 1,
  maxItems: 1000,
  error: "nodeIds must be a list of 1 to 1,000 node ids",
});

/** POST /v2/workspaces/:id/nodes/move: nodes in one step, in the order given. */
export const MoveNodesBody = only(
  { nodeIds: NodeIds, parentId: Type.Optional(ParentId), position: Type.Optional(Position) },
  "MoveNodesBody",
  "{field} is not accepted here; send { nodeIds, parentId?, position? }",
);

/** POST /v2/workspaces/:id/nodes/group: nodes into a new folder. */
export const GroupNodesBody = only(
  {
    nodeIds: NodeIds,
    name: Type.String({ maxLength: 120, pattern: "\\S", error: "name must be a folder name of 1 to 120 characters" }),
    icon: Type.Optional(Icon),
  },
  "GroupNodesBody",
  "{field} is not accepted here; send { nodeIds, name, icon? }",
);

/** PUT /v2/workspaces/:id/nodes/:nodeId: a folder's name and icon, or the reference of another node (its own key only). */
export const ChangeNodeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 120, pattern: "\\S", error: "name must be a folder name of 1 to 120 characters" })),
    icon: Type.Optional(Icon),
    model: Type.Optional(ModelRef),
    entry: Type.Optional(EntryRef),
    media_folder: Type.Optional(MediaFolderRef),
  },
  { $id: "ChangeNodeBody" },
);

/** PUT /v2/workspaces/:id/assign: the members whose workspace this is. */
export const AssignBody = only(
  {
    userIds: Type.Array(Type.String({ error: "{field} is not a member of this project" }), {
      maxItems: 1000,
      error: "userIds must be a list of up to 1,000 member ids",
    }),
  },
  "AssignBody",
  "{field} is not accepted here; send { userIds }",
);
