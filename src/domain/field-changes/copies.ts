// How counting and staging read a model's entries: the copies they read (COPIES_SQL), the
// conversion context with its relation lookup, and dropping what a change staged.
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model } from "../models/catalog.ts";
import type { FieldDef } from "../models/fields.ts";
import type { Lookup } from "./convert.ts";
import type { Op } from "./diff.ts";
import type { ConvertCtx } from "./plan.ts";

/** Asks whether an entry belongs to a model, with one prepared statement. */
function lookupOf(h: ProjectHandle): Lookup {
  const q = h.sqlite.query("SELECT 1 AS x FROM entries WHERE id = ? AND model_id = ?");
  return { inModel: (modelId, id) => q.get(id, modelId) !== null };
}

/** The conversion context of a diff on a model. */
export function convertCtx(h: ProjectHandle, m: Model, ops: Op[], editFields: FieldDef[]): ConvertCtx {
  const pl = allModels(h).locales;
  return {
    modelId: m.id,
    ops,
    before: new Map(m.fields.map((f) => [f.id, f])),
    after: new Map(editFields.map((f) => [f.id, f])),
    lookup: lookupOf(h),
    defaultCode: pl.default,
    codes: pl.codes,
  };
}

/** The entry columns counting and staging read (the copies, and what their new locale state is made from). */
export const COPIES_SQL = `SELECT id, created_at AS createdAt, deleted_at AS deletedAt, draft_version_id AS draftVersionId, draft_data AS draftData,
  published_version_id AS publishedVersionId, published_data AS publishedData, draft_tags AS draftTags, draft_folder AS draftFolder,
  published_tags AS publishedTags, published_folder AS publishedFolder, locale_state AS localeState, published_at AS publishedAt FROM entries`;

/** Drops what a change staged (all of it, or only some entries') and, unless kept, the failures listed for it. */
export function clearStaging(h: ProjectHandle, changeId: string, opts: { entryIds?: string[]; keepFailures?: boolean } = {}): void {
  const only = opts.entryIds ? " AND entry_id IN (SELECT value FROM json_each(?))" : "";
  const args = opts.entryIds ? [changeId, JSON.stringify(opts.entryIds)] : [changeId];
  const tables = ["field_change_rows", "field_change_versions", ...(opts.keepFailures ? [] : ["field_change_failures"])];
  for (const t of tables) h.sqlite.query(`DELETE FROM ${t} WHERE change_id = ?${only}`).run(...args);
}
