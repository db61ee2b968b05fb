// The types of the entry routes' answers (src/http/v2/entries.ts, bulk.ts, trash.ts), made from
// the TypeBox models GET /v2/openapi.json prints (their bodies are in bodies.ts). The admin app
// imports them with `import type`; nothing here runs (test/architecture.test.ts).
import type { Static } from "@sinclair/typebox";
import type {
  BulkAnswer as BulkAnswerModel,
  BulkBatch as BulkBatchModel,
  BulkQueued as BulkQueuedModel,
  BulkScheduled as BulkScheduledModel,
} from "../domain/bulk/bodies.ts";
import type {
  Editor as EditorModel,
  EntryPage as EntryPageModel,
  EntryRecord,
  EntryUsage as EntryUsageModel,
  PreviewToken as PreviewTokenModel,
  SavedEntry,
  Validation as ValidationModel,
  VersionList,
} from "../domain/entries/bodies.ts";
import type {
  ListColumn as ListColumnModel,
  ListColumns as ListColumnsModel,
  Restored as RestoredModel,
  TrashItem,
  TrashPage as TrashPageModel,
} from "../domain/entries/list-bodies.ts";

/** An entry's management record (GET /v2/model-instances/:id). */
export type Entry = Static<typeof EntryRecord>;

/** An entry's status under management. */
export type EntryStatus = Entry["status"];

/** Who saved an entry's latest version, named (`lastEditedBy`). */
export type Editor = Static<typeof EditorModel>;

/** One page of the entry list (GET /v2/model-instances). */
export type EntryPage = Static<typeof EntryPageModel>;

/** An entry as the list gives it: the record, who saved it and who that is. */
export type ListedEntry = EntryPage["data"][number];

/** A column of a model's list and the answer listing them (GET /v2/model-instances/columns). */
export type ListColumn = Static<typeof ListColumnModel>;
export type ListColumns = Static<typeof ListColumnsModel>;

/** A version of an entry (GET /v2/model-instances/:id/versions). */
export type Version = Static<typeof VersionList>["data"][number];

/** What a save did (`created` a version, `replaced` one's own recent autosave, or `unchanged`). */
export type Saved = Static<typeof SavedEntry>;

/** A restored entry; `slugsChanged` names the slugs that took a new value because theirs was taken. */
export type Restored = Static<typeof RestoredModel>;

/** The rules check's answer (POST /v2/model-instances/validate) and one broken rule. */
export type Validation = Static<typeof ValidationModel>;
export type RuleError = Validation["errors"][number];

/** The entries that relate to an entry (GET /v2/model-instances/:id/usage), and one of them. */
export type EntryUsage = Static<typeof EntryUsageModel>;
export type EntryUse = EntryUsage["entries"][number];

/** An entry in the trash, and a page of them (GET /v2/trash). */
export type Trashed = Static<typeof TrashItem>;
export type TrashPage = Static<typeof TrashPageModel>;

/** A preview token (POST /v2/preview-tokens). */
export type PreviewToken = Static<typeof PreviewTokenModel>;

/** A bulk publish, unpublish or delete: a dry run, the results done in the request (200), or a queued batch (202). */
export type BulkResult = Static<typeof BulkAnswerModel> | Static<typeof BulkQueuedModel>;

/** A queued bulk batch (GET /v2/model-instances/bulk/:batchId). */
export type BulkBatch = Static<typeof BulkBatchModel>;

/** A bulk schedule's answer: a dry run, or the scheduled batch. */
export type BulkScheduled = Static<typeof BulkScheduledModel>;
