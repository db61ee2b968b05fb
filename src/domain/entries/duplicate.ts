// `POST /v2/model-instances/:id/duplicate` (decisions.md 15): a new draft holding the latest
// draft's values, tags and folder. Values that must be unique are emptied (the copy would take
// the original's), except slugs, which get the next free value (`post` -> `post-2`), or one made
// from their source when the original had none. A model of a single entry has no room for a copy.
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels } from "../models/catalog.ts";
import { comparisonKeys } from "../models/fields.ts";
import { isEmpty } from "../models/rules.ts";
import { write } from "../unit-of-work.ts";
import { getEntry, getRow, stateAfter } from "./service.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";
import { fieldValues, setSlot } from "../locales/values.ts";
import { checkUnique, fillSlugs, freeSlug } from "./unique.ts";

/** Copies an entry's latest draft into a new draft entry (version 1); answers its record. */
export function duplicateEntry(s: Services, h: ProjectHandle, actor: string, id: unknown, loc?: EntryLocale) {
  const src = getRow(h, id);
  const m = allModels(h).byId.get(src.modelId)!;
  if (m.singleEntry) {
    fail("conflict", { message: `The model ${m.namespace} holds a single entry, so it cannot be duplicated.`, extra: { field: "id" } });
  }
  const now = iso(s.clock.now());
  const newId = s.ids.uuid();
  const versionId = s.ids.uuid();
  write(s, h, () => {
    const data = JSON.parse(getRow(h, src.id).draftData) as Record<string, unknown>;
    for (const f of m.fields) {
      // Every locale of a localized field alike (decisions.md 13: unique per locale).
      for (const { locale, value: v } of fieldValues(data, f)) {
        const put = (x: unknown) => {
          if (locale === null) data[f.id] = x;
          else setSlot(data, f, locale, x);
        };
        // `post-2` copies as `post-3`, not `post-2-2`.
        if (f.slug && typeof v === "string" && !isEmpty(v)) put(freeSlug(h, m, f, v.replace(/-\d+$/, "") || v, newId, locale));
        else if (f.unique && !f.slug) put(null);
      }
    }
    fillSlugs(h, m, newId, data);
    checkUnique(h, m, newId, data);
    const text = JSON.stringify(data);
    h.db
      .insert(entryVersions)
      .values({ id: versionId, entryId: newId, number: 1, data: text, tags: src.draftTags, folder: src.draftFolder, createdAt: now, createdBy: actor })
      .run();
    h.db
      .insert(entries)
      .values({
        id: newId,
        modelId: m.id,
        createdAt: now,
        updatedAt: now,
        draftVersionId: versionId,
        draftVersion: 1,
        draftData: text,
        draftTags: src.draftTags,
        draftFolder: src.draftFolder,
        draftKeys: JSON.stringify(comparisonKeys(m.fields, data)),
        localeState: stateAfter(h, m, { data, tags: JSON.parse(src.draftTags), folder: src.draftFolder }, null, null),
      })
      .run();
  });
  return getEntry(h, newId, loc);
}
