// The answers of the workspace routes (interface.md, Workspace).
import { Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { WorkspaceNode } from "./bodies.ts";

export const Workspace = record(
  {
    id: Uuid,
    name: Type.String(),
    icon: nullable(Type.String()),
    visibility: oneOf(["team", "private"]),
    template: Type.String(),
    createdBy: record({ kind: Type.String(), id: Type.Optional(Type.String()) }),
    createdAt: Time,
    updatedAt: Time,
    nodes: Type.Integer(),
    isDefault: Type.Boolean(),
    isCurrent: Type.Boolean(),
  },
  { $id: "Workspace" },
);

export const WorkspaceList = listOf(Workspace, { current: nullable(Uuid), default: nullable(Uuid) });

/** A node as the left rail shows it: references resolved to names, `missing` when gone. */
export const ShownNode = Type.Recursive(
  (Self) =>
    Type.Union([
      record({ id: Type.String(), type: Type.Literal("folder"), name: Type.String(), icon: nullable(Type.String()), children: Type.Array(Self) }),
      record({
        id: Type.String(),
        type: Type.Literal("model"),
        modelId: Uuid,
        namespace: nullable(Type.String()),
        name: nullable(Type.String()),
        missing: Type.Boolean(),
      }),
      record({
        id: Type.String(),
        type: Type.Literal("entry"),
        entryId: Uuid,
        modelId: nullable(Uuid),
        namespace: nullable(Type.String()),
        title: nullable(Type.String()),
        missing: Type.Boolean(),
      }),
      record({ id: Type.String(), type: Type.Literal("media_folder"), mediaFolderId: Type.String() }),
    ]),
  { $id: "ShownNode" },
);

export const Tree = listOf(ShownNode);

export const WorkspaceDocument = record(
  {
    id: Uuid,
    name: Type.String(),
    icon: nullable(Type.String()),
    visibility: Type.String(),
    tree: Type.Array(WorkspaceNode, { description: "The nodes in the form PUT .../tree takes." }),
  },
  { $id: "WorkspaceDocument" },
);

export const Assigned = record({ workspaceId: Uuid, userIds: Type.Array(Uuid) });

export const DeleteNodeQuery = Type.Object({ withChildren: Type.Optional(Type.String({ enum: ["true", "false"] })) });
