// TypeBox models of the saved-view bodies and answers (decisions.md 15; docs/admin-server.md,
// "Saved views"). The domain adds what a shape cannot say: the model exists, every column, the
// sort and the where fit that model, and only members who may edit entries share a view.
import { Type } from "@sinclair/typebox";
import { keyed, listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";

/** Columns a view may keep: a field's namespace, or a $system column (GET /v2/model-instances/columns). */
export const MAX_VIEW_COLUMNS = 50;

const Name = Type.String({ minLength: 1, maxLength: 120, pattern: "\\S", error: "name must be 1 to 120 characters with more than spaces" });
const Columns = Type.Array(Type.String({ minLength: 1, maxLength: 200, error: "{field} must be a column key" }), {
  maxItems: MAX_VIEW_COLUMNS,
  error: `columns must list up to ${MAX_VIEW_COLUMNS} column keys (a field's namespace or a $system column)`,
});
const Sort = Type.String({ maxLength: 500, error: "sort must be the /api sort grammar as text, up to 500 characters (e.g. -updatedAt,title)" });
const WHERE_ERROR = "where must be a filter object of the /api where grammar";
const Where = keyed({ error: WHERE_ERROR, description: 'The /api where grammar, e.g. {"title":{"contains":"x"}}.' });
const Search = Type.String({ maxLength: 200, error: "search must be a text of up to 200 characters" });
const Shared = Type.Boolean({ error: "shared must be true or false", description: "Seen by every member (not for viewers to set)." });

/** POST /v2/views. */
export const CreateViewBody = Type.Object(
  {
    model: Type.String({ minLength: 1, error: "model must be a model id or namespace" }),
    name: Name,
    shared: Type.Optional(Shared),
    columns: Type.Optional(Columns),
    sort: Type.Optional(Type.Union([Type.Null(), Sort], { error: Sort.error })),
    where: Type.Optional(Type.Union([Type.Null(), Where], { error: WHERE_ERROR })),
    search: Type.Optional(Type.Union([Type.Null(), Search], { error: Search.error })),
  },
  { $id: "CreateViewBody", additionalProperties: false, unknown: "{field} is not a part of a view; send model, name, shared, columns, sort, where, search" },
);

/** PATCH /v2/views/:id: any part but the model; null clears sort, where and search. */
export const UpdateViewBody = Type.Object(
  {
    name: Type.Optional(Name),
    shared: Type.Optional(Shared),
    columns: Type.Optional(Columns),
    sort: Type.Optional(Type.Union([Type.Null(), Sort], { error: Sort.error })),
    where: Type.Optional(Type.Union([Type.Null(), Where], { error: WHERE_ERROR })),
    search: Type.Optional(Type.Union([Type.Null(), Search], { error: Search.error })),
  },
  { $id: "UpdateViewBody", additionalProperties: false, unknown: "{field} cannot be changed; send name, shared, columns, sort, where or search" },
);

export const ViewsQuery = Type.Object({ model: Type.Optional(Type.String({ description: "Only the views of this model (id or namespace)." })) });

/** A part of a saved view that no longer fits its model, left out when the view opens. */
export const Dropped = record(
  {
    part: oneOf(["columns", "sort", "where"]),
    key: Type.String({ description: "The column key, the sort term as written, or the where key." }),
    message: Type.String({ description: "Why, in words." }),
  },
  { $id: "DroppedViewPart" },
);

export const SavedView = record(
  {
    id: Uuid,
    model: Type.String({ description: "The model's namespace." }),
    modelId: Uuid,
    name: Type.String(),
    shared: Type.Boolean(),
    columns: Type.Array(Type.String()),
    sort: nullable(Type.String()),
    where: nullable(keyed({ description: "A filter in the /api `where` grammar." })),
    search: nullable(Type.String()),
    mine: Type.Boolean({ description: "Whether you made it (you may change it; owners and admins may also change shared views)." }),
    createdBy: record({ kind: Type.String(), id: Type.Optional(Type.String()) }),
    createdAt: Time,
    updatedAt: Time,
    dropped: Type.Array(Dropped, {
      description: "Parts that no longer fit the model (a field removed or changed): left out of columns, sort and where above.",
    }),
  },
  { $id: "SavedView" },
);
export const ViewList = listOf(SavedView);
