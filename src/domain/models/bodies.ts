// TypeBox models of the model bodies and answers (decisions.md 3). The domain adds what a shape
// cannot say: a relation names a model of the project, enum values are listed and distinct, no
// two fields share a namespace or id, a namespace is free, an edit that changes a field's shape
// on a model with entries needs a field change, a preview URL's placeholders are words.
import { type TSchema, Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid, UUID_PATTERN } from "../access/schema-kit.ts";
import { StoredLayout } from "../layouts/bodies.ts";
import { ARRAY_TYPES, FIELD_TYPES } from "./fields.ts";
import { PATTERN_MAX } from "./patterns.ts";

/** 1 to 64 printable characters, no control characters, no space at either end. */
const FieldNamespace = Type.String({
  pattern: "^(?=\\S)(?![\\s\\S]*\\s$)[^\\u0000-\\u001f\\u007f]{1,64}$",
  error: "{field} must be 1 to 64 printable characters with no leading or trailing space",
});

const FieldType = Type.Union(
  FIELD_TYPES.map((t) => Type.Literal(t)),
  { error: `{field} must be one of ${FIELD_TYPES.join(", ")}` },
);

/** The parts of a field definition besides its id, namespace and type, the same on a new field and an edit. */
const fieldParts = {
  arrayType: Type.Optional(
    Type.Union([Type.Null(), ...ARRAY_TYPES.map((t) => Type.Literal(t))], {
      error: `{field} must be one of ${ARRAY_TYPES.join(", ")}`,
      description: "For array fields: the kind of each item.",
    }),
  ),
  relation: Type.Optional(
    Type.Union([Type.Null(), Type.String({ minLength: 1 })], {
      error: "{field} must name the target model (id or namespace)",
      description: "For relation fields: the target model's id or namespace.",
    }),
  ),
  label: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })], { error: "{field} must be text of at most 200 characters" })),
  required: Type.Optional(Type.Boolean({ error: "{field} must be true or false" })),
  localized: Type.Optional(
    Type.Boolean({
      error: "{field} must be true or false",
      description:
        "One value per locale of the project (any kind, relations and media included); on a model with entries, turning it on or off goes through a field change.",
    }),
  ),
  options: Type.Optional(
    Type.Union(
      [
        Type.Null(),
        Type.Object({
          values: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
              maxItems: 500,
              error: "{field} must be a list of up to 500 texts",
              description: "An enum's values.",
            }),
          ),
        }),
      ],
      { error: "{field} must be an object" },
    ),
  ),
};

const orNull = <T extends TSchema>(t: T, error: string, description: string) => Type.Optional(Type.Union([Type.Null(), t], { error, description }));

/**
 * The editing settings of decisions.md 15 (docs/editing.md). `null` clears a setting on an edit;
 * the domain (settings.ts) checks which kinds each fits and how they relate.
 */
const settingParts = {
  unique: Type.Optional(
    Type.Boolean({ error: "{field} must be true or false", description: "No two entries of the model may hold the same value (checked on every save)." }),
  ),
  min: orNull(Type.Number(), "{field} must be a number or null", "A number field's least value; a list's least item count."),
  max: orNull(Type.Number(), "{field} must be a number or null", "A number field's greatest value; a list's greatest item count."),
  minLength: orNull(
    Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    "{field} must be a whole number from 0 to 1000000, or null",
    "A text field's least length in characters.",
  ),
  maxLength: orNull(
    Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    "{field} must be a whole number from 0 to 1000000, or null",
    "A text field's greatest length in characters.",
  ),
  pattern: orNull(
    Type.String({ minLength: 1, maxLength: PATTERN_MAX }),
    `{field} must be a regular expression of 1 to ${PATTERN_MAX} characters, or null`,
    "An ECMAScript regular expression a text field's value must match (unanchored; write ^...$ for the whole value).",
  ),
  patternMessage: orNull(
    Type.String({ minLength: 1, maxLength: 300 }),
    "{field} must be text of 1 to 300 characters, or null",
    "The message when a value does not match the pattern.",
  ),
  default: Type.Optional(Type.Unknown({ description: "A value of the field's kind, given to a new entry created without the field; null clears it." })),
  help: orNull(Type.String({ maxLength: 300 }), "{field} must be text of at most 300 characters, or null", "A sentence shown under the input."),
  slug: orNull(
    Type.Object(
      { from: Type.String({ minLength: 1, maxLength: 64, error: "{field} must name a text field of the model" }) },
      {
        additionalProperties: false,
        unknown: "{field} is not part of a slug; send { from }",
        error: '{field} must be { from: "<namespace of a text field>" } or null',
      },
    ),
    '{field} must be { from: "<namespace of a text field>" } or null',
    "A string field filled from the text field `from` when empty (lowercase letters, digits, single hyphens), unique in the model.",
  ),
};

const fieldOptions = { error: "{field} must be a field object", additionalProperties: false, unknown: "{field} is not a field property" } as const;

/** A new field (model create, addFields). */
export const NewField = Type.Object(
  {
    namespace: FieldNamespace,
    type: FieldType,
    ...fieldParts,
    ...settingParts,
    id: Type.Optional(Type.String({ pattern: UUID_PATTERN, error: "{field} must be a UUID" })),
  },
  { $id: "NewField", ...fieldOptions },
);

/** An edit of a field named by id; what it leaves out stays as it is. */
export const FieldEdit = Type.Object(
  {
    id: Type.String({ error: "{field} is not a field of this model" }),
    namespace: Type.Optional(FieldNamespace),
    type: Type.Optional(FieldType),
    ...fieldParts,
    ...settingParts,
  },
  { $id: "FieldEdit", ...fieldOptions },
);

const modelText = (field: string, max: number) =>
  Type.String({ maxLength: max, pattern: "\\S", error: `${field} must be text of at most ${max} characters`, missing: `${field} is required` });
const Description = Type.Union([Type.Null(), Type.String({ maxLength: 2000 })], { error: "description must be text of at most 2000 characters" });
const bool = (field: string) => Type.Boolean({ error: `${field} must be true or false` });
const PreviewUrl = Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 2048 })], {
  error: "previewUrl must be an http(s) URL with {token}, {id}, {model} or {<field>} placeholders, or null",
});

/** POST /v2/models. */
export const CreateModelBody = Type.Object(
  {
    name: modelText("name", 120),
    namespace: Type.String({ pattern: "^[A-Za-z0-9_-]{1,64}$", error: "namespace must be 1 to 64 of a-z A-Z 0-9 _ -" }),
    description: Type.Optional(Description),
    singleEntry: Type.Optional(bool("singleEntry")),
    embedByDefault: Type.Optional(bool("embedByDefault")),
    previewUrl: Type.Optional(PreviewUrl),
    fields: Type.Optional(Type.Union([Type.Null(), Type.Array(NewField)], { error: "fields must be a list" })),
  },
  { $id: "CreateModelBody", additionalProperties: false, unknown: "{field} is not a model property" },
);

/** PATCH /v2/models/:id: removes, then edits, then adds fields, then orders them. */
export const UpdateModelBody = Type.Object(
  {
    name: Type.Optional(modelText("name", 120)),
    description: Type.Optional(Description),
    singleEntry: Type.Optional(bool("singleEntry")),
    embedByDefault: Type.Optional(bool("embedByDefault")),
    previewUrl: Type.Optional(PreviewUrl),
    removeIds: Type.Optional(Type.Array(Type.String({ error: "{field} is not a field of this model" }), { error: "removeIds must be a list of field ids" })),
    editFields: Type.Optional(Type.Array(FieldEdit, { error: "editFields must be a list" })),
    addFields: Type.Optional(Type.Array(NewField, { error: "addFields must be a list" })),
    fieldOrder: Type.Optional(
      Type.Array(Type.String(), { error: "fieldOrder must be a list of the model's field ids", description: "Every field id, once, in the new order." }),
    ),
  },
  { $id: "UpdateModelBody", additionalProperties: false, unknown: "{field} cannot be changed here" },
);

/** DELETE /v2/models/:id: the model's namespace, repeated to confirm. */
export const DeleteModelBody = Type.Object(
  { namespace: Type.String({ error: "Repeat the model's namespace in the body as { namespace } to delete it.", code: "confirmation_mismatch" }) },
  { $id: "DeleteModelBody" },
);

export const FieldDefinition = record(
  {
    id: Uuid,
    namespace: Type.String(),
    label: nullable(Type.String()),
    type: oneOf(FIELD_TYPES),
    arrayType: nullable(oneOf(ARRAY_TYPES)),
    relation: nullable(Uuid),
    required: Type.Boolean(),
    options: nullable(record({ values: Type.Optional(Type.Array(Type.String(), { description: "An enum's values." })) })),
    localized: Type.Optional(Type.Literal(true, { description: "Present when the field keeps one value per locale." })),
    unique: Type.Optional(Type.Literal(true)),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    minLength: Type.Optional(Type.Integer()),
    maxLength: Type.Optional(Type.Integer()),
    pattern: Type.Optional(Type.String()),
    patternMessage: Type.Optional(Type.String()),
    default: Type.Optional(Type.Unknown()),
    help: Type.Optional(Type.String()),
    slug: Type.Optional(Type.Object({ from: Type.String() })),
  },
  { $id: "FieldDefinition", description: "A field; each editing setting (unique ... slug) is present only when set." },
);

export const ModelRecord = record(
  {
    id: Uuid,
    namespace: Type.String(),
    name: Type.String(),
    description: nullable(Type.String()),
    singleEntry: Type.Boolean(),
    version: Type.Integer(),
    fields: Type.Array(FieldDefinition),
    layout: nullable(StoredLayout),
    embedByDefault: Type.Boolean(),
    previewUrl: nullable(Type.String()),
    createdAt: Time,
    updatedAt: Time,
  },
  { $id: "ModelRecord" },
);
export const ModelList = listOf(ModelRecord);
export const ResolveQuery = Type.Object({ model: Type.Optional(Type.String()), entry: Type.Optional(Type.String()) });
export const Resolved = record({ projectId: Uuid, model: record({ id: Uuid, namespace: Type.String() }), entry: nullable(record({ id: Uuid })) });
