// Entries under management: the record, creating and saving drafts. Each write is one unit of
// work; every save is a new version row, except a save that changes nothing (no version) and an
// autosave that replaces the same person's recent autosave (docs/editing.md). The published copy
// sits beside the draft (publish.ts); values are checked and merged in values.ts, unique values
// and slugs in unique.ts, earlier versions in versions.ts, the trash in trash.ts.
import { eq } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, isLocalizedModel, type Model, modelOrFail } from "../models/catalog.ts";
import { defaultLocale, type EntryLocale } from "../locales/entry-locale.ts";
import { type Copy, copiesOfRow, parseState, publishedAtOf, stateOf } from "../locales/state.ts";
import { write } from "../unit-of-work.ts";
import { comparisonKeys, isUuid } from "../models/fields.ts";
import { statusOf } from "./status.ts";
import { checkValue } from "../access/body-check.ts";
import { UpdateEntryBody } from "./bodies.ts";
import { checkVersion } from "./conflicts.ts";

import { checkFolder, checkTags, dataOut, mergeData, sameCopy, withDefaults } from "./values.ts";
import { checkUnique, fillSlugs } from "./unique.ts";

export type EntryRow = typeof entries.$inferSelect;

/** An entry's row by id, or 404 (`entry_in_trash` for one in the trash: every entry route leaves it alone). */
export function getRow(h: ProjectHandle, id: unknown): EntryRow {
  if (!isUuid(id)) fail("not_found", { message: "Entry ids are UUIDs.", extra: { field: "id" } });
  const row = h.db.select().from(entries).where(eq(entries.id, id.toLowerCase())).get();
  if (!row) fail("not_found", { message: "No such entry." });
  if (row.deletedAt !== null) fail("entry_in_trash", { extra: { id: row.id, deletedAt: row.deletedAt } });
  return row;
}

/**
 * The management record of an entry: draft copy, published copy, status and version numbers. An
 * entry of a model with localized fields shows them in `loc`'s locale (or every locale with `*`)
 * and adds `locale` and `locales` (each locale's status and publishedAt); its `status` and
 * `publishedAt` are those of the locale shown (decisions.md 13).
 */
export function entryRecord(h: ProjectHandle, row: EntryRow, l?: EntryLocale) {
  const cat = allModels(h);
  const m = cat.byId.get(row.modelId)!;
  const loc = l ?? defaultLocale(cat.locales);
  const localized = isLocalizedModel(m);
  const state = localized ? (parseState(row.localeState) ?? {}) : null;
  const mine = state?.[loc.code];
  const record = {
    id: row.id,
    model: m.namespace,
    modelId: m.id,
    status: state ? (mine?.status ?? "draft") : statusOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    publishedAt: state ? (mine?.publishedAt ?? null) : row.publishedAt,
    version: row.draftVersion,
    publishedVersion: row.publishedVersion,
    tags: JSON.parse(row.draftTags) as string[],
    folder: row.draftFolder,
    ...(state
      ? {
          locale: loc.all ? "*" : loc.code,
          locales: Object.fromEntries(Object.entries(state).map(([c, st]) => [c, { status: st.status, publishedAt: st.publishedAt }])),
        }
      : {}),
    draft: { versionId: row.draftVersionId, version: row.draftVersion, data: dataOut(m, JSON.parse(row.draftData), loc) },
    published: row.publishedVersionId
      ? {
          versionId: row.publishedVersionId,
          version: row.publishedVersion,
          updatedAt: row.publishedUpdatedAt,
          tags: JSON.parse(row.publishedTags ?? "[]"),
          folder: row.publishedFolder,
          data: dataOut(m, JSON.parse(row.publishedData!), loc),
        }
      : null,
  };
  return record;
}

export function getEntry(h: ProjectHandle, id: unknown, loc?: EntryLocale) {
  return entryRecord(h, getRow(h, id), loc);
}

/**
 * The locale state of a row's copies after a write (locales/state.ts), keeping when each locale
 * was published; null for a model without localized fields.
 */
export function stateAfter(
  h: ProjectHandle,
  m: Model,
  draft: Copy,
  published: Copy | null,
  prev: string | null,
  publishedAt = publishedAtOf(parseState(prev)),
): string | null {
  return stateOf(m, allModels(h).locales.codes, draft, published, publishedAt);
}

/**
 * Creates a draft entry (version 1): defaults for the fields `data` leaves out, empty slugs
 * filled, unique values checked; localized fields are written in `loc`'s locale.
 */
export function createEntry(s: Services, h: ProjectHandle, actor: string, body: Record<string, unknown>, l?: EntryLocale) {
  const m = modelOrFail(h, body.model);
  const loc = l ?? defaultLocale(allModels(h).locales);
  const sent = body.data ?? {};
  const merged = withDefaults(m, sent, mergeData(h, m, sent, {}, loc), loc.code);
  const tags = body.tags === undefined ? [] : checkTags(body.tags);
  const folder = body.folder === undefined ? null : checkFolder(body.folder);
  const now = iso(s.clock.now());
  const id = s.ids.uuid();
  const versionId = s.ids.uuid();
  write(s, h, () => {
    if (m.singleEntry && h.sqlite.query("SELECT 1 FROM entries WHERE model_id = ? AND deleted_at IS NULL").get(m.id)) {
      fail("conflict", { message: `The model ${m.namespace} holds a single entry, and it exists already.`, extra: { field: "model" } });
    }
    const data = fillSlugs(h, m, id, merged);
    checkUnique(h, m, id, data);
    h.db
      .insert(entryVersions)
      .values({ id: versionId, entryId: id, number: 1, data: JSON.stringify(data), tags: JSON.stringify(tags), folder, createdAt: now, createdBy: actor })
      .run();
    h.db
      .insert(entries)
      .values({
        id,
        modelId: m.id,
        createdAt: now,
        updatedAt: now,
        draftVersionId: versionId,
        draftVersion: 1,
        draftData: JSON.stringify(data),
        draftTags: JSON.stringify(tags),
        draftFolder: folder,
        draftKeys: JSON.stringify(comparisonKeys(m.fields, data)),
        localeState: stateAfter(h, m, { data, tags, folder }, null, null),
      })
      .run();
  });
  return getEntry(h, id, loc);
}

/** How long an autosave version may be replaced in place by the same person's next autosave. */
export const AUTOSAVE_WINDOW_MS = 30 * 60_000;

/** What a save did: added a version, replaced the person's recent autosave in place, or nothing (the values were the draft's). */
export type SaveOutcome = "created" | "replaced" | "unchanged";

/**
 * Saves the draft; `data` is merged field by field over the current draft, read inside the write
 * so two concurrent saves never drop each other's fields. With `expected` (If-Match), an entry
 * whose latest version differs is refused and nothing is written. A save whose values, tags and
 * folder equal the draft's adds no version (a manual one marks an autosaved draft as kept); an
 * autosave replaces the latest version in place when that version is an autosave by the same
 * actor less than 30 minutes old and not the published one, else it adds a version marked
 * autosave. The answer is the record with `save: { outcome, versionId, version }`.
 */
export function updateEntry(
  s: Services,
  h: ProjectHandle,
  actor: string,
  id: unknown,
  body: Record<string, unknown>,
  expected: number | null = null,
  opts: { autosave?: boolean; locale?: EntryLocale } = {},
) {
  checkValue(UpdateEntryBody, body, "");
  const loc = opts.locale;
  const autosave = opts.autosave === true;
  const first = getRow(h, id);
  const nowMs = s.clock.now();
  const now = iso(nowMs);
  const versionId = s.ids.uuid();
  const outcome = write(s, h, (): SaveOutcome => {
    const row = getRow(h, first.id);
    checkVersion(row.draftVersion, expected);
    const m = allModels(h).byId.get(row.modelId)!;
    const current = { data: JSON.parse(row.draftData), tags: JSON.parse(row.draftTags), folder: row.draftFolder };
    const merged = body.data === undefined ? { ...current.data } : mergeData(h, m, body.data, current.data, loc);
    const tags = body.tags === undefined ? current.tags : checkTags(body.tags);
    const folder = body.folder === undefined ? current.folder : checkFolder(body.folder);
    const data = fillSlugs(h, m, row.id, merged);
    const latest = h.db.select().from(entryVersions).where(eq(entryVersions.id, row.draftVersionId)).get()!;
    if (sameCopy({ data, tags, folder }, current)) {
      // A manual save of what was autosaved keeps it: the next autosave adds a version after it.
      if (!autosave && latest.autosave) h.db.update(entryVersions).set({ autosave: false }).where(eq(entryVersions.id, latest.id)).run();
      return "unchanged";
    }
    checkUnique(h, m, row.id, data);
    const copy = { data: JSON.stringify(data), tags: JSON.stringify(tags), folder };
    const replace =
      autosave &&
      latest.autosave &&
      latest.createdBy === actor &&
      nowMs - Date.parse(latest.createdAt) < AUTOSAVE_WINDOW_MS &&
      latest.id !== row.publishedVersionId;
    if (replace) {
      h.db.update(entryVersions).set(copy).where(eq(entryVersions.id, latest.id)).run();
    } else {
      h.db
        .insert(entryVersions)
        .values({ id: versionId, entryId: row.id, number: row.draftVersion + 1, ...copy, createdAt: now, createdBy: actor, autosave })
        .run();
    }
    h.db
      .update(entries)
      .set({
        updatedAt: now,
        draftVersionId: replace ? latest.id : versionId,
        draftVersion: replace ? row.draftVersion : row.draftVersion + 1,
        draftData: copy.data,
        draftTags: copy.tags,
        draftFolder: folder,
        draftKeys: JSON.stringify(comparisonKeys(m.fields, data)),
        localeState: stateAfter(h, m, { data, tags, folder }, copiesOfRow(row).published, row.localeState),
      })
      .where(eq(entries.id, row.id))
      .run();
    return replace ? "replaced" : "created";
  });
  const record = getEntry(h, first.id, loc);
  return { ...record, save: { outcome, versionId: record.draft.versionId, version: record.version } };
}
