// TypeBox models of what the lists around entries take and answer: the trash (its page, query and a
// restore's answer), the columns of an entry list, and the export's body (decisions.md 15).
// The entry's own bodies and record are in bodies.ts.
import { Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid, UUID_PATTERN } from "../access/schema-kit.ts";
import { EntryRecord } from "./bodies.ts";

/** An entry of the trash. */
export const TrashItem = record(
  {
    id: Uuid,
    model: nullable(Type.String()),
    modelId: Uuid,
    title: nullable(Type.String()),
    status: oneOf(["draft", "published", "changed"], { description: "What it was, and will be again when restored." }),
    deletedAt: Time,
    deletedBy: nullable(Type.String({ description: "user:<id> or api_key:<id>" })),
  },
  { $id: "TrashItem" },
);
export const TrashPage = listOf(TrashItem, { limit: Type.Integer(), total: Type.Integer(), next: nullable(Type.String()) });
export const TrashQuery = Type.Object({
  model: Type.Optional(Type.String({ description: "A model id or namespace." })),
  limit: Type.Optional(Type.String({ description: "1 to 200, default 25." })),
  after: Type.Optional(Type.String({ description: "The `next` cursor of the previous page." })),
});

/** A restore's answer: the record, and each slug that was taken meanwhile and got a new value. */
export const Restored = Type.Composite(
  [
    EntryRecord,
    Type.Object({
      slugsChanged: Type.Array(record({ field: Type.String(), copy: oneOf(["draft", "published"]), from: Type.String(), to: Type.String() })),
    }),
  ],
  { $id: "Restored" },
);

/** A column of an entry list (columns.ts): a field by namespace, a system column with a `$`. */
export const ListColumn = record(
  {
    key: Type.String({ description: "A field's namespace, or $id, $status, $createdAt, $updatedAt, $publishedAt, $lastEditedBy, $tags." }),
    label: Type.String(),
    kind: Type.String({ description: "The field's type, or the system column's kind (id, status, datetime, editor, tags)." }),
    of: nullable(Type.String({ description: "An array field's item type." })),
    system: Type.Boolean(),
    sortable: Type.Boolean(),
    operators: Type.Array(Type.String(), { description: "The /api `where` operators the column takes; empty when it cannot be filtered." }),
    fieldId: nullable(Uuid),
  },
  { $id: "ListColumn" },
);
export const ListColumns = record({ model: Type.String(), modelId: Uuid, columns: Type.Array(ListColumn) }, { $id: "ListColumns" });
export const ColumnsQuery = Type.Object({ model: Type.String({ description: "A model id or namespace." }) });

/** POST /v2/model-instances/export: a selection of one model's entries as CSV or JSON, streamed. */
export const ExportBody = Type.Object(
  {
    model: Type.String({ minLength: 1, error: "model must be a model id or namespace" }),
    format: Type.Union([Type.Literal("csv"), Type.Literal("json")], { error: "format must be csv or json" }),
    columns: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 100,
        error: "columns must list 1 to 100 column keys (a field's namespace or a $system column)",
        description: "Column keys (GET /v2/model-instances/columns); default: $id, every field, $status, $updatedAt, $lastEditedBy.",
      }),
    ),
    instanceIds: Type.Optional(
      Type.Array(Type.String({ pattern: UUID_PATTERN, error: "{field} must be an entry id (UUID)" }), {
        minItems: 1,
        maxItems: 10_000,
        error: "instanceIds must list 1 to 10000 entry ids",
      }),
    ),
    where: Type.Optional(Type.Unknown({ description: "A filter in the /api `where` grammar: a JSON object, or its JSON text." })),
    q: Type.Optional(Type.String({ description: "Search text, as the list's q." })),
    status: Type.Optional(Type.String({ description: "draft, published or changed." })),
    sort: Type.Optional(Type.String({ description: "The list's sort (the /api grammar); default newest first." })),
  },
  {
    $id: "ExportBody",
    additionalProperties: false,
    unknown: "{field} is not a field of an export; send model, format, columns, and instanceIds or where, q and status",
  },
);
