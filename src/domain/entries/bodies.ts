// TypeBox models of the entry, publishing and preview-token bodies, and of their answers
// (decisions.md 3, 4 and 7). `data` is an object keyed by field namespace: what each value may be
// depends on the project's model (interface.md's field table), so the domain checks it against
// the model, as it checks that models, entries, versions and relations exist.
import { Type } from "@sinclair/typebox";
import { keyed, listOf, nullable, oneOf, record, Time, Uuid, UUID_PATTERN } from "../access/schema-kit.ts";

const DATA_ERROR = "data must be an object keyed by field namespace";
export const Data = keyed({ error: DATA_ERROR, description: "Field values keyed by field namespace, as the model's field kinds allow." });
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
    data: Type.Optional(Type.Union([Type.Null(), Data], { error: DATA_ERROR })),
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

/** POST /v2/model-instances/validate: values to check as a save and a publish would, writing nothing. */
export const ValidateBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1, error: "model must be a model id or namespace", description: "The model of a new entry." })),
    id: Type.Optional(
      Type.String({ pattern: UUID_PATTERN, error: "id must be an entry id (UUID)", description: "An entry whose latest draft the data is merged over." }),
    ),
    data: Type.Optional(Data),
  },
  { $id: "ValidateBody", additionalProperties: false, unknown: "{field} is not checked here; send model or id, and data" },
);

/** The locales a publish or unpublish moves (decisions.md 13): codes of the project, checked by the domain. */
export const Locales = Type.Array(Type.String({ minLength: 1, maxLength: 35, error: "{field} must be a locale code of this project" }), {
  minItems: 1,
  maxItems: 50,
  error: "locales must list 1 to 50 locale codes",
  description:
    "Locale codes of the project. Publish default: every locale whose draft holds a value (the default locale when none does); unpublish default: every published locale. Ignored for a model without localized fields.",
});

/** POST /v2/model-instances/:id/publish: the latest draft, or the version named; `locales` of a localized entry. */
export const PublishBody = Type.Object(
  {
    versionId: Type.Optional(Type.Union([Type.Null(), Type.String({ pattern: UUID_PATTERN })], { error: "versionId must be a version id (UUID)" })),
    locales: Type.Optional(Type.Union([Type.Null(), Locales], { error: Locales.error })),
  },
  { $id: "PublishBody" },
);

/** POST /v2/model-instances/:id/unpublish: `locales` of a localized entry (any other key is ignored, as before). */
export const UnpublishBody = Type.Object(
  { locales: Type.Optional(Type.Union([Type.Null(), Locales], { error: Locales.error })) },
  { $id: "UnpublishBody", description: "Ignored except `locales`, and that a repeated Idempotency-Key must come with the same body." },
);

/** `?locale=` of an entry route (decisions.md 13). */
const LocaleParam = Type.Optional(
  Type.String({
    description: "The locale localized fields are read and written in (default: the project's default); * reads and writes them as objects keyed by code.",
  }),
);

/** The query of an entry route that reads or writes one entry. */
export const LocaleQuery = Type.Object({ locale: LocaleParam });

/** POST /v2/preview-tokens: which drafts the token shows (entries, a model or both) and for how long. */
export const PreviewTokenBody = Type.Object(
  {
    entryIds: Type.Optional(
      Type.Union([Type.Null(), Type.Array(Type.String({ pattern: UUID_PATTERN }), { maxItems: 100 })], {
        error: "entryIds must be a list of up to 100 entry ids",
      }),
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

/** The rules an entry breaks, as `400 validation_failed`, bulk results and failed scheduled actions list them. */
export const RuleErrors = Type.Array(
  record({
    field: Type.String({ description: "The field as a body names it: data.<namespace>." }),
    rule: oneOf(["required", "minLength", "maxLength", "pattern", "min", "max", "slug", "unique"]),
    message: Type.String({ description: "A sentence naming the field's label." }),
    locale: Type.Optional(Type.String({ description: "A localized field: the locale whose value breaks the rule." })),
  }),
  { $id: "RuleErrors" },
);

const Copy = { versionId: Uuid, version: Type.Integer(), data: keyed({ description: "Values keyed by field namespace." }) };

/** An entry as the management API shows it: draft and published copies. */
export const EntryRecord = record(
  {
    id: Uuid,
    model: Type.String(),
    modelId: Uuid,
    status: oneOf(["draft", "published", "changed"]),
    createdAt: Time,
    updatedAt: Time,
    publishedAt: nullable(Time),
    version: Type.Integer(),
    publishedVersion: nullable(Type.Integer()),
    tags: Type.Array(Type.String()),
    folder: nullable(Type.String()),
    locale: Type.Optional(Type.String({ description: "An entry with localized fields: the locale shown (or *)." })),
    locales: Type.Optional(
      Type.Record(Type.String(), record({ status: oneOf(["draft", "published", "changed"]), publishedAt: nullable(Time) }), {
        description: "An entry with localized fields: each locale that holds a value or is published, with its status and publishedAt.",
      }),
    ),
    draft: record(Copy),
    published: nullable(record({ ...Copy, updatedAt: nullable(Time), tags: Type.Array(Type.String()), folder: nullable(Type.String()) })),
  },
  { $id: "EntryRecord" },
);

/** Who saved a version, named: a person, a key, a scheduled action or the system. */
export const Editor = Type.Union(
  [
    record({ kind: Type.Literal("user"), id: Uuid, name: nullable(Type.String()), email: nullable(Type.String()) }),
    record({ kind: Type.Literal("api_key"), id: Uuid, name: nullable(Type.String()) }),
    record({ kind: Type.Union([Type.Literal("schedule"), Type.Literal("system")]) }),
  ],
  { $id: "Editor" },
);

export const EntryPage = listOf(
  Type.Composite([
    EntryRecord,
    Type.Object({
      updatedBy: nullable(Type.String({ description: "Who saved the latest version: user:<id>, api_key:<id>, schedule or system." })),
      lastEditedBy: nullable(Editor),
    }),
  ]),
  {
    page: Type.Optional(Type.Integer()),
    limit: Type.Integer(),
    total: Type.Integer(),
    next: nullable(Type.String({ description: "The cursor of the next page (`after=`)." })),
  },
);

export const EntryQuery = Type.Object({
  locale: LocaleParam,
  model: Type.Optional(Type.String({ description: "A model id or namespace." })),
  status: Type.Optional(Type.String({ enum: ["draft", "published", "changed"] })),
  q: Type.Optional(Type.String({ description: "Search text, up to 200 characters: the model's text fields (all text values without a model)." })),
  where: Type.Optional(Type.String({ description: "A filter in the /api `where` grammar (JSON), over the drafts; needs model." })),
  sort: Type.Optional(
    Type.String({
      description: "The /api sort grammar (up to 3 keys, - for descending, fields of the model, $system keys); without model: createdAt or updatedAt.",
    }),
  ),
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
    autosave: Type.Boolean({ description: "Saved by an autosave (PATCH ?autosave=true)." }),
    tags: Type.Array(Type.String()),
    folder: nullable(Type.String()),
    data: keyed(),
  }),
);

export const PreviewToken = record({ token: Type.String({ description: "pvw_..." }), expiresAt: Time }, { $id: "PreviewToken" });

/** The answer of POST /v2/model-instances/validate. */
export const Validation = record(
  {
    valid: Type.Boolean(),
    errors: Type.Array(
      record(
        { field: Type.String(), rule: Type.String(), message: Type.String(), entryId: Type.Optional(Uuid) },
        { description: "entryId: for unique, the entry that holds the value." },
      ),
    ),
  },
  { $id: "Validation" },
);

/** A save's answer: the record, and what the save did (`unchanged`: the values were the draft's, no version was added). */
export const SavedEntry = Type.Composite(
  [
    EntryRecord,
    Type.Object({
      save: record({ outcome: oneOf(["created", "replaced", "unchanged"]), versionId: Uuid, version: Type.Integer() }),
    }),
  ],
  { $id: "SavedEntry" },
);

export const SaveQuery = Type.Object({
  locale: LocaleParam,
  autosave: Type.Optional(
    Type.String({ enum: ["true", "false"], description: "true: replace your own autosave of the last 30 minutes instead of adding a version." }),
  ),
});

/** The entry's `GET .../usage`: the live entries that relate to it. */
export const EntryUsage = record({
  entries: Type.Array(
    record({
      id: Uuid,
      modelId: Uuid,
      namespace: Type.String(),
      title: nullable(Type.String()),
      copies: Type.Array(oneOf(["draft", "published"])),
      fields: Type.Array(Type.String()),
    }),
  ),
});
