// Version history: the list of an entry's versions, and restoring one as the next draft.
import { and, desc, eq } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels } from "../models/catalog.ts";
import { comparisonKeys, isUuid } from "../models/fields.ts";
import { write } from "../unit-of-work.ts";
import { getEntry, getRow, stateAfter } from "./service.ts";
import { defaultLocale, type EntryLocale } from "../locales/entry-locale.ts";
import { copiesOfRow } from "../locales/state.ts";
import { dataOut } from "./values.ts";
import { checkUnique, fillSlugs } from "./unique.ts";
import { checkVersion } from "./conflicts.ts";

/**
 * Restores an earlier version as a new draft: its data, tags and folder become the next version
 * (the history keeps every version; nothing is published). With `expected` (If-Match), an entry
 * whose latest version differs is refused.
 */
export function restoreVersion(
  s: Services,
  h: ProjectHandle,
  actor: string,
  id: unknown,
  versionId: unknown,
  expected: number | null = null,
  loc?: EntryLocale,
) {
  const row = getRow(h, id);
  if (!isUuid(versionId)) badField("versionId", "versionId must be a version id (UUID)");
  const v = h.db
    .select()
    .from(entryVersions)
    .where(and(eq(entryVersions.id, versionId.toLowerCase()), eq(entryVersions.entryId, row.id)))
    .get();
  if (!v) fail("not_found", { message: "No such version of this entry.", extra: { field: "versionId" } });
  const m = allModels(h).byId.get(row.modelId)!;
  const now = iso(s.clock.now());
  const newId = s.ids.uuid();
  write(s, h, () => {
    const cur = getRow(h, row.id);
    checkVersion(cur.draftVersion, expected);
    // A restore is a save: an empty slug is filled, and a unique value another entry took since is refused.
    const data = fillSlugs(h, m, row.id, JSON.parse(v.data) as Record<string, unknown>);
    checkUnique(h, m, row.id, data);
    const text = JSON.stringify(data);
    const number = cur.draftVersion + 1;
    h.db
      .insert(entryVersions)
      .values({ id: newId, entryId: row.id, number, data: text, tags: v.tags, folder: v.folder, createdAt: now, createdBy: actor })
      .run();
    h.db
      .update(entries)
      .set({
        updatedAt: now,
        draftVersionId: newId,
        draftVersion: number,
        draftData: text,
        draftTags: v.tags,
        draftFolder: v.folder,
        draftKeys: JSON.stringify(comparisonKeys(m.fields, data)),
        localeState: stateAfter(h, m, { data, tags: JSON.parse(v.tags), folder: v.folder }, copiesOfRow(cur).published, cur.localeState),
      })
      .where(eq(entries.id, row.id))
      .run();
  });
  return getEntry(h, row.id, loc);
}

/** The versions of an entry, newest first; each holds every locale's values, shown in `loc`'s locale (or all with `*`). */
export function listVersions(h: ProjectHandle, id: unknown, l?: EntryLocale) {
  const row = getRow(h, id);
  const cat = allModels(h);
  const m = cat.byId.get(row.modelId)!;
  const loc = l ?? defaultLocale(cat.locales);
  return h.db
    .select()
    .from(entryVersions)
    .where(eq(entryVersions.entryId, row.id))
    .orderBy(desc(entryVersions.number))
    .all()
    .map((v) => ({
      id: v.id,
      number: v.number,
      createdAt: v.createdAt,
      createdBy: v.createdBy,
      published: v.id === row.publishedVersionId,
      autosave: v.autosave,
      tags: JSON.parse(v.tags),
      folder: v.folder,
      data: dataOut(m, JSON.parse(v.data), loc),
    }));
}

// The management list (keyset paging, search, sort) lives in its own file.
