// The editing routes of issue 26 (docs/editing.md): autosave, the rules check as one types, the
// usage of an entry before it is deleted, duplicate, and the trash. Through the one `call`.
import type { UpdateEntryBody, ValidateBody } from "../../../src/shared/bodies.ts";
import type { EntryUsage, Restored, Saved, TrashPage, Trashed, Validation } from "../../../src/shared/entries.ts";
import { call, keys } from "./client.ts";
import type { Entry } from "./types.ts";

export type { EntryUse, Restored, RuleError, Saved, Trashed } from "../../../src/shared/entries.ts";

export const trashKeys = {
  all: (project: string) => ["trash", project] as const,
  list: (project: string, model: string) => ["trash", project, model] as const,
  one: (project: string, id: string) => ["trash", project, "entry", id] as const,
  usage: (project: string, id: string) => [...keys.entry(project, id), "usage"] as const,
};

export const editingApi = {
  /** Saves a draft as an autosave (replacing one's own recent autosave), based on `basedOn`. */
  autosave: (id: string, data: Record<string, unknown>, basedOn: number | undefined) =>
    call<Saved>("PATCH", `/v2/model-instances/${id}`, {
      query: { autosave: "true" },
      body: { data } satisfies UpdateEntryBody,
      headers: basedOn === undefined ? {} : { "if-match": String(basedOn) },
    }),
  /** What a save and a publish would say of these values, writing nothing. */
  validate: (body: ValidateBody & ({ model: string } | { id: string })) => call<Validation>("POST", "/v2/model-instances/validate", { body }),
  usage: (id: string) => call<EntryUsage>("GET", `/v2/model-instances/${id}/usage`).then((r) => r.entries),
  duplicate: (id: string) => call<Entry>("POST", `/v2/model-instances/${id}/duplicate`, { body: {} }),
  trash: {
    list: (model: string | undefined, after: string | null) => call<TrashPage>("GET", "/v2/trash", { query: { model, after, limit: 25 } }),
    get: (id: string) => call<Trashed>("GET", `/v2/trash/${id}`),
    restore: (id: string) => call<Restored>("POST", `/v2/trash/${id}/restore`, { body: {} }),
    purge: (id: string) => call<void>("DELETE", `/v2/trash/${id}`),
  },
};

/** The field namespace a rule error names (`data.slug` → `slug`). */
export const fieldOf = (e: { field: string }) => e.field.replace(/^data\./, "").split(/[.[]/)[0]!;
