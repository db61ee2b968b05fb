// TypeBox models of the field-change bodies and answers (interface.md, Field change; decisions.md
// 7 and 9). The domain adds what a shape cannot say: ids name fields of the model (once), the plan
// is still current, each op is decided once with a choice it offers.
import { Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { FieldEdit } from "../models/bodies.ts";
import { ARRAY_TYPES, FIELD_TYPES } from "../models/fields.ts";

const UNKNOWN = "{field} is not part of a field change; send editFields and removeIds";
const RemoveIds = Type.Array(Type.String({ error: "{field} is not a field of this model" }), { error: "removeIds must be a list of field ids" });
const EditFields = Type.Array(FieldEdit, { error: "editFields must be a list" });
const OnFailure = Type.Union([Type.Literal("clear"), Type.Literal("stop")], { error: "{field} must be clear or stop" });

/** POST /v2/models/:id/field-changes/plan: the diff, as a model edit sends it; writes nothing. */
export const PlanBody = Type.Object(
  { removeIds: Type.Optional(RemoveIds), editFields: Type.Optional(EditFields) },
  { $id: "FieldChangePlanBody", additionalProperties: false, unknown: UNKNOWN },
);

const Decision = Type.Object(
  {
    opId: Type.String({ error: "{field} is not an op of this plan" }),
    choice: Type.Union(
      ["convert", "clear", "keep_both", "delete", "keep"].map((c) => Type.Literal(c)),
      {
        error: "{field} must be one of convert, clear, keep_both, delete, keep",
        description: "One of the op's own choices (keep: a rule op's values stay as they are).",
      },
    ),
    onFailure: Type.Optional(
      Type.Union([Type.Null(), OnFailure], { error: "{field} must be clear or stop", description: "For convert on a change of type; default clear." }),
    ),
  },
  { error: "{field} must be { opId, choice, onFailure? }", additionalProperties: false, unknown: "{field} is not part of a decision" },
);

/** POST /v2/models/:id/field-changes: the planned diff, its hash and one decision per op. */
export const ApplyBody = Type.Object(
  {
    planHash: Type.String({ minLength: 1, error: "planHash is required: make a plan first with POST .../field-changes/plan" }),
    removeIds: Type.Optional(RemoveIds),
    editFields: Type.Optional(EditFields),
    decisions: Type.Array(Decision, { error: "decisions must be a list of { opId, choice, onFailure? }, one per op of the plan" }),
  },
  { $id: "FieldChangeApplyBody", additionalProperties: false, unknown: UNKNOWN },
);

/** POST /v2/field-changes/:id/resume: optionally a new onFailure for its convert decisions. */
export const ResumeBody = Type.Object(
  { onFailure: Type.Optional(Type.Union([Type.Literal("clear"), Type.Literal("stop")], { error: "onFailure must be clear or stop" })) },
  { $id: "FieldChangeResumeBody", additionalProperties: false, unknown: "{field} is not accepted here; send { onFailure? }" },
);

/** The parts of a field an op changes (diff.ts Shape). */
const Shape = record({
  namespace: Type.String(),
  type: oneOf(FIELD_TYPES),
  arrayType: nullable(oneOf(ARRAY_TYPES)),
  relation: nullable(Type.String()),
});

/** One op per changed field (diff.ts Op), with its counts and examples once counted and, once applied, its decision. */
const Op = record(
  {
    id: Type.String({ description: "The field's id; a rule op's is <fieldId>.rules, a localize op's <fieldId>.localized." }),
    kind: oneOf(["change", "rename", "remove", "rule", "localize"]),
    fieldId: Uuid,
    namespace: Type.String({ description: "The field's namespace before the change." }),
    from: Shape,
    to: nullable(Shape),
    choices: Type.Array(oneOf(["convert", "clear", "keep_both", "delete", "keep"])),
    keepBothNamespace: nullable(Type.String()),
    rules: Type.Optional(Type.Array(Type.String(), { description: "A rule op: the settings whose rules changed." })),
    localized: Type.Optional(Type.Boolean({ description: "A localize op: whether the field becomes localized." })),
    counts: nullable(
      record({
        values: Type.Integer(),
        convert: Type.Integer(),
        loseDetail: Type.Integer(),
        fail: Type.Integer(),
        kept: Type.Optional(Type.Integer()),
        dropped: Type.Optional(Type.Integer()),
      }),
    ),
    examples: Type.Array(
      record({
        entryId: Uuid,
        copy: oneOf(["draft", "published"]),
        value: Type.Unknown({ description: "The stored value." }),
        outcome: oneOf(["loseDetail", "fail"]),
        reason: Type.String(),
      }),
    ),
    decision: Type.Optional(
      nullable(
        record(
          { choice: oneOf(["convert", "clear", "keep_both", "delete", "keep"]), onFailure: nullable(oneOf(["clear", "stop"])) },
          { description: "An applied change: the decision taken for this op." },
        ),
      ),
    ),
  },
  { $id: "FieldChangeOp" },
);
const Totals = nullable(record({ values: Type.Integer(), convert: Type.Integer(), loseDetail: Type.Integer(), fail: Type.Integer() }));

/** A plan counted inside the request. */
export const Plan = record(
  { modelId: Uuid, model: Type.String(), modelVersion: Type.Integer(), planHash: Type.String(), entries: Type.Integer(), ops: Type.Array(Op), counts: Totals },
  { $id: "FieldChangePlan" },
);

/** A field change (planned in the background, queued, running or finished). */
export const FieldChange = record(
  {
    id: Uuid,
    modelId: Uuid,
    model: nullable(Type.String()),
    state: oneOf(["planned", "queued", "converting", "moving", "done", "failed", "cancelled"]),
    planHash: Type.String(),
    baseVersion: Type.Integer(),
    resultVersion: nullable(Type.Integer()),
    ops: Type.Array(Op),
    counts: Totals,
    countsReady: Type.Boolean(),
    progress: record({ total: Type.Integer(), done: Type.Integer(), failed: Type.Integer() }),
    error: nullable(record({ code: Type.String(), message: Type.String() }, { description: "Why a failed change stopped." })),
    createdBy: record({ kind: Type.String(), id: Type.Optional(Type.String()) }),
    createdAt: Time,
    updatedAt: Time,
    startedAt: nullable(Time),
    finishedAt: nullable(Time),
    poll: Type.String(),
  },
  { $id: "FieldChange" },
);
export const FieldChangeWithFailures = Type.Composite([
  FieldChange,
  Type.Object({
    failures: record(
      {
        total: Type.Integer(),
        page: Type.Integer(),
        limit: Type.Integer(),
        data: Type.Array(
          record({
            entryId: Uuid,
            fieldId: Uuid,
            namespace: nullable(Type.String()),
            copy: oneOf(["draft", "published"]),
            value: Type.Unknown({ description: "The value that did not convert." }),
            reason: Type.String(),
          }),
        ),
      },
      { description: "Values that failed to convert, 1,000 a page." },
    ),
  }),
]);
export const FieldChangePage = listOf(FieldChange, { page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() });
export const ChangeListQuery = Type.Object({ limit: Type.Optional(Type.String()), page: Type.Optional(Type.String()) });
export const FailuresQuery = Type.Object({ failuresPage: Type.Optional(Type.String()) });
