// The model administration routes of /v2 (create, edit, field-change plan and apply), used only
// by the lazily loaded Models screens. The model list itself is api.models.list in client.ts.
import { call } from "./client.ts";
import type { FieldType, Model } from "./types.ts";

/** A field as the add and edit forms send it. */
export interface FieldInput {
  id?: string;
  namespace: string;
  label: string | null;
  type: FieldType;
  arrayType?: FieldType | null;
  relation?: string | null;
  required: boolean;
  options?: { values: string[] } | null;
  /** The rules of decisions.md 15 (null clears one on an edit, false clears unique). */
  unique?: boolean;
  min?: number | null;
  max?: number | null;
  minLength?: number | null;
  maxLength?: number | null;
  pattern?: string | null;
  patternMessage?: string | null;
  help?: string | null;
  slug?: { from: string } | null;
  /** One value per locale (decisions.md 13); sent only where the project has several locales. */
  localized?: boolean;
}

/** One operation of a field-change plan, with its counts. */
export interface PlanOp {
  id: string;
  kind: "change" | "rename" | "remove" | "rule" | "localize";
  from: { namespace: string; type: string };
  to: { namespace: string; type: string } | null;
  choices: string[];
  /** A `localize` op's counts also name the values kept and dropped. */
  counts: { values: number; convert: number; loseDetail: number; fail: number; kept?: number; dropped?: number } | null;
}

/** A plan (POST /v2/models/:id/field-changes/plan, 200). */
export interface Plan {
  planHash: string;
  entries: number;
  ops: PlanOp[];
  counts: { values: number; convert: number; loseDetail: number; fail: number } | null;
}

/** What a model edit or a plan sends. */
export interface ModelPatch {
  name?: string;
  description?: string | null;
  singleEntry?: boolean;
  /** The site URL that previews an entry (placeholders {token}, {id}, {model}, {<field>}), or null. */
  previewUrl?: string | null;
  addFields?: FieldInput[];
  editFields?: FieldInput[];
  removeIds?: string[];
  /** Every field id of the model once, in the new order (applied after adds and removes). */
  fieldOrder?: string[];
}

/** The routes, one function per documented route. */
export const modelApi = {
  get: (id: string) => call<Model>("GET", `/v2/models/${id}`),
  create: (m: { name: string; namespace: string; description?: string; singleEntry: boolean }) => call<Model>("POST", "/v2/models", { body: m }),
  update: (id: string, patch: ModelPatch) => call<Model>("PATCH", `/v2/models/${id}`, { body: patch }),
  plan: (id: string, change: { editFields?: FieldInput[]; removeIds?: string[] }) =>
    call<Plan>("POST", `/v2/models/${id}/field-changes/plan`, { body: change }),
  apply: (
    id: string,
    body: { planHash: string; editFields: FieldInput[]; removeIds: string[]; decisions: { opId: string; choice: string; onFailure?: "clear" | "stop" }[] },
  ) => call<{ id: string; state: string }>("POST", `/v2/models/${id}/field-changes`, { body }),
};

/** The sides of one op of an applied change. */
export interface ChangeSide {
  namespace: string;
  type: FieldType;
  arrayType: FieldType | null;
}

/** A field change as GET /v2/field-changes/:id and the model's list answer it (the parts the screens show). */
export interface FieldChange {
  id: string;
  state: "planned" | "queued" | "converting" | "moving" | "done" | "failed" | "cancelled";
  ops: { id: string; kind: "change" | "rename" | "remove"; from: ChangeSide; to: ChangeSide | null }[];
  progress: { total: number; done: number; failed: number };
  error: { code?: string; message?: string } | null;
  createdAt: string;
  finishedAt: string | null;
}

/** One value that failed to convert. */
export interface ChangeFailure {
  entryId: string;
  fieldId: string;
  namespace: string | null;
  copy: "draft" | "published";
  value: unknown;
  reason: string;
}

/** A change with one page (1,000) of its failed values. */
export interface ChangeDetail extends FieldChange {
  failures: { total: number; page: number; limit: number; data: ChangeFailure[] };
}

/** The field-change routes of a change once applied. */
export const changeApi = {
  get: (id: string) => call<FieldChange>("GET", `/v2/field-changes/${id}`),
  /** The model's change in progress, or undefined (204) when there is none. */
  current: (modelId: string) => call<FieldChange | undefined>("GET", `/v2/models/${modelId}/field-changes/current`),
  detail: (id: string, failuresPage: number) => call<ChangeDetail>("GET", `/v2/field-changes/${id}`, { query: { failuresPage } }),
  list: (modelId: string) => call<{ data: FieldChange[]; total: number }>("GET", `/v2/models/${modelId}/field-changes`, { query: { limit: 200 } }),
  cancel: (id: string) => call<FieldChange>("POST", `/v2/field-changes/${id}/cancel`, { body: {} }),
  resume: (id: string, onFailure?: "clear" | "stop") => call<FieldChange>("POST", `/v2/field-changes/${id}/resume`, { body: onFailure ? { onFailure } : {} }),
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
