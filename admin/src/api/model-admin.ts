// The model administration routes of /v2 (create, edit, field-change plan and apply), used only
// by the lazily loaded Models screens. The model list itself is api.models.list in client.ts.
import type { ApplyBody, CreateModelBody, NewField, PlanBody, ResumeBody, UpdateModelBody } from "../../../src/shared/bodies.ts";
import type { ChangeDetail, FieldChange, FieldChangePage, Plan } from "../../../src/shared/models.ts";
import { call } from "./client.ts";
import type { FieldType, Model } from "./types.ts";

export type { FieldEdit, UpdateModelBody as ModelPatch } from "../../../src/shared/bodies.ts";
export type { ChangeDetail, ChangeFailure, ChangeSide, FieldChange, Plan, PlanOp } from "../../../src/shared/models.ts";

/** A field as the add and edit forms send it: a new field, or an edit naming the field's id. */
export type FieldInput = NewField;

/** The routes, one function per documented route. */
export const modelApi = {
  get: (id: string) => call<Model>("GET", `/v2/models/${id}`),
  create: (m: CreateModelBody) => call<Model>("POST", "/v2/models", { body: m }),
  update: (id: string, patch: UpdateModelBody) => call<Model>("PATCH", `/v2/models/${id}`, { body: patch }),
  plan: (id: string, change: PlanBody) => call<Plan>("POST", `/v2/models/${id}/field-changes/plan`, { body: change }),
  apply: (id: string, body: ApplyBody) => call<FieldChange>("POST", `/v2/models/${id}/field-changes`, { body }),
};

/** The field-change routes of a change once applied. */
export const changeApi = {
  get: (id: string) => call<FieldChange>("GET", `/v2/field-changes/${id}`),
  /** The model's change in progress, or undefined (204) when there is none. */
  current: (modelId: string) => call<FieldChange | undefined>("GET", `/v2/models/${modelId}/field-changes/current`),
  detail: (id: string, failuresPage: number) => call<ChangeDetail>("GET", `/v2/field-changes/${id}`, { query: { failuresPage } }),
  list: (modelId: string) => call<FieldChangePage>("GET", `/v2/models/${modelId}/field-changes`, { query: { limit: 200 } }),
  cancel: (id: string) => call<FieldChange>("POST", `/v2/field-changes/${id}/cancel`, { body: {} }),
  resume: (id: string, onFailure?: "clear" | "stop") =>
    call<FieldChange>("POST", `/v2/field-changes/${id}/resume`, { body: (onFailure ? { onFailure } : {}) satisfies ResumeBody }),
};

/** Every field kind with the word people read (arrays take any but array itself). */
export const KIND_WORDS: Record<FieldType, string> = {
  string: "Text",
  markdown: "Markdown",
  html: "HTML",
  code: "Code",
  enum: "Choice (enum)",
  color: "Colour",
  number: "Number",
  true_false: "True or false",
  date: "Date",
  array: "List",
  relation: "Relation",
  image: "Image",
  video: "Video",
  file: "File",
  mixed: "Mixed",
};
