// TypeBox models of the entry, publishing and preview-token bodies, and of their answers
// (decisions.md 3, 4 and 7). `data` is an object keyed by field namespace: what each value may be
// depends on the project's model (interface.md's field table), so the domain checks it against
// the model, as it checks that models, entries, versions and relations exist.
import { Type } from "@sinclair/typebox";
import { listOf, nullable, record, Time, Uuid } from "../access/schema-kit.ts";

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export const Data = Type.Object(
  {},
  { error: "data must be an object keyed by field namespace", description: "Field values keyed by field namespace, as the model's field kinds allow." },
);
export const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 50,
  error: "tags must be a list of up to 50 texts of 1 to 64 characters",
});
export const Folder = Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 64 })], {
  error: "folder must be a folder id (text up to 64 characters) or null",
});

/** POST /v2/model-instances: a new draft. */
export const CreateEntryBody = Type.Object(
  {
    model: Type.String({ minLength: 1, error: "model must be a model id or namespace" }),
    data: Type.Optional(Type.Union([Type.Null(), Data], { error: Data.error })),
    tags: Type.Optional(Tags),
    folder: Type.Optional(Folder),
  },
  { $id: "CreateEntryBody" },
);

/** PATCH /v2/model-instances/:id: a new draft version (If-Match: <version> guards against lost edits). */
export const UpdateEntryBody = Type.Object(
  { data: Type.Optional(Data), tags: Type.Optional(Tags), folder: Type.Optional(Folder) },
  { $id: "UpdateEntryBody", additionalProperties: false, unknown: "{field} cannot be changed; send data, tags or folder" },
);

/** POST /v2/model-instances/:id/publish: the latest draft, or the version named. */
export const PublishBody = Type.Object(
  { versionId: Type.Optional(Type.Union([Type.Null(), Type.String({ pattern: UUID })], { error: "versionId must be a version id (UUID)" })) },
  { $id: "PublishBody" },
);

/** POST /v2/preview-tokens: which drafts the token shows (entries, a model or both) and for how long. */
export const PreviewTokenBody = Type.Object(
  {
    entryIds: Type.Optional(
      Type.Union([Type.Null(), Type.Array(Type.String({ pattern: UUID }), { maxItems: 100 })], { error: "entryIds must be a list of up to 100 entry ids" }),
    ),
    model: Type.Optional(Type.Union([Type.Null(), Type.String()], { error: "model names no model of this project" })),
    expiresIn: Type.Optional(
      Type.Union([Type.Null(), Type.Integer({ minimum: 60, maximum: 604800 })], {
        error: "expiresIn must be whole seconds from 60 to 604800 (7 days)",
        description: "Seconds; default 3600.",
      }),
    ),
  },
  { $id: "PreviewTokenBody", additionalProperties: false, unknown: "{field} is not a preview-token field" },
);

const Copy = { versionId: Uuid, version: Type.Integer(), data: Type.Object({}, { description: "Values keyed by field namespace." }) };

/** An entry as the management API shows it: draft and published copies. */
export const EntryRecord = record(
  {
    id: Uuid,
    model: Type.String(),
    modelId: Uuid,
    status: Type.String({ enum: ["draft", "published", "changed"] }),
    createdAt: Time,
    updatedAt: Time,
    publishedAt: nullable(Time),
    version: Type.Integer(),
    publishedVersion: nullable(Type.Integer()),
    tags: Type.Array(Type.String()),
    folder: nullable(Type.String()),
    draft: record(Copy),
    published: nullable(record({ ...Copy, updatedAt: nullable(Time), tags: Type.Array(Type.String()), folder: nullable(Type.String()) })),
  },
  { $id: "EntryRecord" },
);

export const EntryPage = listOf(Type.Composite([EntryRecord, Type.Object({ updatedBy: nullable(Type.String()) })]), {
  page: Type.Optional(Type.Integer()),
  limit: Type.Integer(),
  total: Type.Integer(),
  next: nullable(Type.String({ description: "The cursor of the next page (`after=`)." })),
});

export const EntryQuery = Type.Object({
  model: Type.Optional(Type.String({ description: "A model id or namespace." })),
  status: Type.Optional(Type.String({ enum: ["draft", "published", "changed"] })),
  q: Type.Optional(Type.String({ description: "Search text, up to 200 characters." })),
  sort: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: "1 to 200." })),
  page: Type.Optional(Type.String()),
  after: Type.Optional(Type.String({ description: "A cursor; not with page." })),
});

export const VersionList = listOf(
  record({
    id: Uuid,
    number: Type.Integer(),
    createdAt: Time,
    createdBy: nullable(Type.String()),
    published: Type.Boolean(),
    tags: Type.Array(Type.String()),
    folder: nullable(Type.String()),
    data: Type.Object({}),
  }),
);

export const PreviewToken = record({ token: Type.String({ description: "pvw_..." }), expiresAt: Time }, { $id: "PreviewToken" });
