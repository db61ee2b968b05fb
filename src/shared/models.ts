// The types of the model, layout and field-change routes' answers (src/http/v2/models.ts,
// layouts.ts, field-changes.ts), made from their TypeBox models; their bodies are in bodies.ts.
// Type-only.
import type { Static } from "@sinclair/typebox";
import type {
  FieldChange as FieldChangeModel,
  FieldChangePage as FieldChangePageModel,
  FieldChangeWithFailures,
  Plan as PlanModel,
} from "../domain/field-changes/bodies.ts";
import type { StoredLayout } from "../domain/layouts/bodies.ts";
import type { FieldDefinition, ModelRecord } from "../domain/models/bodies.ts";

/** A model (GET /v2/models). */
export type Model = Static<typeof ModelRecord>;

/** A field of a model, and every kind a field can be. */
export type Field = Static<typeof FieldDefinition>;
export type FieldType = Field["type"];

/** A model's entry layout as stored, its cards and their fields. */
export type Layout = Static<typeof StoredLayout>;
export type LayoutCard = Layout["main"][number];
export type LayoutField = LayoutCard["items"][number];

/** A field-change plan (POST /v2/models/:id/field-changes/plan) and one op of it. */
export type Plan = Static<typeof PlanModel>;
export type PlanOp = Plan["ops"][number];
/** The sides of an op: the field's parts before and after. */
export type ChangeSide = PlanOp["from"];

/** A field change once applied, with one page of its failed values, and the model's list of them. */
export type FieldChange = Static<typeof FieldChangeModel>;
export type ChangeDetail = Static<typeof FieldChangeWithFailures>;
export type ChangeFailure = ChangeDetail["failures"]["data"][number];
export type FieldChangePage = Static<typeof FieldChangePageModel>;
