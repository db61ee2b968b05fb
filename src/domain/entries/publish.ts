// Publishing now: the published copy of an entry, its events, and unpublishing. An entry of a
// model with localized fields publishes locale by locale (decisions.md 13; docs/localization.md):
// the locales named (default: every locale whose draft holds a value) take their slots from the
// version, the other locales keep theirs, and the shared fields go live with any locale's publish.
import { and, eq } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { badField } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, isLocalizedModel, type Model } from "../models/catalog.ts";
import { comparisonKeys, isUuid } from "../models/fields.ts";
import { actorFrom } from "../events/outbox.ts";
import { write } from "../unit-of-work.ts";
import { readOne } from "../reads/query.ts";
import { PUBLISHED } from "../reads/names.ts";
import { type EntryRow, getEntry, getRow, stateAfter } from "./service.ts";
import { checkVersion } from "./conflicts.ts";
import { purgeEntry } from "../edge/changes.ts";
import { checkUnique } from "./unique.ts";
import { checkPublishable } from "./validation.ts";
import { statusOf } from "./status.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";
import { codesWithValues, localeSlots, packSlots } from "../locales/values.ts";
import { copiesOfRow, parseState, publishedAtOf } from "../locales/state.ts";

type Data = Record<string, unknown>;

/** The locales a publish moves when the request names none: every locale whose copy holds a value, else the default. */
export function defaultPublishLocales(h: ProjectHandle, m: Model, data: Data): string[] {
  const pl = allModels(h).locales;
  const codes = codesWithValues(m.fields, data, pl.codes);
  return codes.length ? codes : [pl.default];
}

/**
 * The published copy after publishing `moving` from `version`: the version's shared values, its
 * slots in the moving locales, and the other locales' slots as they were published (`before`).
 * With `take` false the moving locales' slots leave instead (an unpublish, `version` = `before`).
 */
function mergedCopy(m: Model, codes: readonly string[], before: Data, version: Data, moving: readonly string[], take = true): Data {
  const out: Data = { ...version };
  for (const f of m.fields) {
    if (!f.localized) continue;
    const slots: Data = { ...localeSlots(before, f) };
    for (const c of moving) {
      delete slots[c];
      const v = localeSlots(version, f)[c];
      if (take && v !== undefined && v !== null) slots[c] = v;
    }
    const packed = packSlots(f, slots, codes);
    if (packed) out[f.id] = packed;
    else delete out[f.id];
  }
  return out;
}

/** Whether a publish of `locales` (null: the default ones) would change nothing: each is live as drafted. */
export function liveAsDrafted(h: ProjectHandle, m: Model, row: EntryRow, locales: string[] | null): boolean {
  if (!isLocalizedModel(m)) return statusOf(row) === "published";
  const state = parseState(row.localeState) ?? {};
  const codes = locales ?? defaultPublishLocales(h, m, JSON.parse(row.draftData));
  return codes.every((c) => state[c]?.status === "published");
}

/** Whether an unpublish of `locales` (null: all) would change nothing: none of them is published. */
export function notLive(m: Model, row: EntryRow, locales: string[] | null): boolean {
  if (!row.publishedVersionId) return true;
  if (!isLocalizedModel(m) || locales === null) return false;
  const at = publishedAtOf(parseState(row.localeState));
  return !locales.some((c) => at[c] !== undefined);
}

/** What a publish or unpublish may say besides the entry. */
export interface PublishOptions {
  scheduledActionId?: string;
  expected?: number | null;
  /** The locales to publish or unpublish (decisions.md 13); null or absent: the default ones. */
  locales?: string[] | null;
  /** The locale the answer shows (the route's `?locale=`). */
  locale?: EntryLocale;
}

/**
 * Publishes the current draft, or the version named by `versionId`. The copy must keep every rule
 * of its fields (`400 validation_failed` lists them all; a localized field's in each locale
 * published) and hold no unique value another entry holds (`409 not_unique`). With
 * `opts.expected` (If-Match), an entry whose latest version differs is refused.
 */
export function publishEntry(s: Services, h: ProjectHandle, actor: string, id: unknown, versionId?: unknown, opts: PublishOptions = {}) {
  const row = getRow(h, id);
  checkVersion(row.draftVersion, opts.expected ?? null);
  const m = allModels(h).byId.get(row.modelId)!;
  let version: typeof entryVersions.$inferSelect | undefined;
  if (versionId !== undefined && versionId !== null) {
    if (!isUuid(versionId)) badField("versionId", "versionId must be a version id (UUID)");
    version = h.db
      .select()
      .from(entryVersions)
      .where(and(eq(entryVersions.id, versionId.toLowerCase()), eq(entryVersions.entryId, row.id)))
      .get();
    if (!version) badField("versionId", "versionId is not a version of this entry");
  } else {
    version = h.db.select().from(entryVersions).where(eq(entryVersions.id, row.draftVersionId)).get()!;
  }
  const data = JSON.parse(version.data) as Data;
  const localized = isLocalizedModel(m);
  const moving = localized ? (opts.locales ?? defaultPublishLocales(h, m, data)) : null;
  // Every rule of every field at once (validation.ts); a draft may break them, a published copy may not.
  checkPublishable(h, m, data, moving ?? undefined);
  const now = iso(s.clock.now());
  write(s, h, (tx) => {
    const cur = getRow(h, row.id);
    // Checked again under the write lock: a save between the first check and now is a conflict too.
    checkVersion(cur.draftVersion, opts.expected ?? null);
    const copies = copiesOfRow(cur);
    const codes = allModels(h).locales.codes;
    const live = moving ? mergedCopy(m, codes, copies.published?.data ?? {}, data, moving) : data;
    // The copy going live must not take a unique value another entry holds (an older version may).
    checkUnique(h, m, row.id, live, moving ?? undefined);
    const at = copies.published ? publishedAtOf(parseState(cur.localeState)) : {};
    for (const c of moving ?? []) at[c] = now;
    const copy = { data: live, tags: JSON.parse(version.tags) as string[], folder: version.folder };
    h.db
      .update(entries)
      .set({
        publishedVersionId: version.id,
        publishedVersion: version.number,
        publishedData: moving ? JSON.stringify(live) : version.data,
        publishedTags: version.tags,
        publishedFolder: version.folder,
        publishedAt: now,
        publishedUpdatedAt: version.createdAt,
        publishedKeys: JSON.stringify(comparisonKeys(m.fields, live)),
        localeState: stateAfter(h, m, copies.draft, copy, null, at),
      })
      .where(eq(entries.id, row.id))
      .run();
    // Webhook content resolves media references like a read does (mediaBase gives the URLs), and
    // shows every locale's values keyed by code (the locale=* shape).
    const reader = { vis: PUBLISHED, readable: () => true, mediaBase: s.config.mediaBaseUrl };
    const content = readOne(h, reader, m.namespace, { kind: "item", id: row.id, select: null, locale: localized ? "*" : null, fallbackLocale: null }).entry;
    tx.emit({
      type: "instance.published",
      actor: actorFrom(actor),
      data: {
        instanceId: row.id,
        modelId: m.id,
        modelNamespace: m.namespace,
        versionId: version.id,
        versionNumber: version.number,
        publishedAt: now,
        title: titleOf(m, data, allModels(h).locales.default),
        scheduledActionId: opts.scheduledActionId ?? null,
        ...(moving ? { locales: moving } : {}),
      },
      links: {
        self: `${s.config.apiUrl}/v2/agent/model-instances/${row.id}`,
        public: `${s.config.publicUrl}/api/entries/${encodeURIComponent(m.namespace)}/${row.id}`,
      },
      content,
    });
    tx.contentChanged();
    purgeEntry(tx, row.id, m.namespace);
  });
  return getEntry(h, row.id, opts.locale);
}

/**
 * Removes the published copy; the draft stays. For an entry of a model with localized fields,
 * `opts.locales` unpublishes those locales only (their slots leave the published copy); the entry
 * is unpublished whole when no locale stays published.
 */
export function unpublishEntry(s: Services, h: ProjectHandle, actor: string, id: unknown, opts: PublishOptions = {}) {
  const row = getRow(h, id);
  const m = allModels(h).byId.get(row.modelId)!;
  // Unpublishing what is not published changes nothing and reports nothing.
  if (notLive(m, row, opts.locales ?? null)) return getEntry(h, row.id, opts.locale);
  const localized = isLocalizedModel(m);
  write(s, h, (tx) => {
    const cur = getRow(h, row.id);
    const copies = copiesOfRow(cur);
    const at = publishedAtOf(parseState(cur.localeState));
    const moving = localized ? (opts.locales ?? Object.keys(at)).filter((c) => at[c] !== undefined) : null;
    for (const c of moving ?? []) delete at[c];
    const keep = moving !== null && Object.keys(at).length > 0 && copies.published !== null;
    if (keep) {
      const codes = allModels(h).locales.codes;
      // The shared values stay as published: only the moving locales' slots leave.
      const live = mergedCopy(m, codes, copies.published!.data, copies.published!.data, moving!, false);
      h.db
        .update(entries)
        .set({
          publishedData: JSON.stringify(live),
          publishedKeys: JSON.stringify(comparisonKeys(m.fields, live)),
          localeState: stateAfter(h, m, copies.draft, { ...copies.published!, data: live }, null, at),
        })
        .where(eq(entries.id, row.id))
        .run();
    } else {
      h.db
        .update(entries)
        .set({
          publishedVersionId: null,
          publishedVersion: null,
          publishedData: null,
          publishedTags: null,
          publishedFolder: null,
          publishedAt: null,
          publishedUpdatedAt: null,
          publishedKeys: null,
          localeState: stateAfter(h, m, copies.draft, null, null, {}),
        })
        .where(eq(entries.id, row.id))
        .run();
    }
    tx.emit({
      type: "instance.unpublished",
      actor: actorFrom(actor),
      data: {
        instanceId: row.id,
        modelId: m.id,
        modelNamespace: m.namespace,
        scheduledActionId: opts.scheduledActionId ?? null,
        ...(moving ? { locales: moving } : {}),
      },
      links: { self: `${s.config.apiUrl}/v2/agent/model-instances/${row.id}` },
    });
    tx.contentChanged();
    purgeEntry(tx, row.id, m.namespace);
  });
  return getEntry(h, row.id, opts.locale);
}

/**
 * An entry's title for events: its `title` text field, else its first text field, else null; a
 * localized title in `locale` (the project's default), or its first locale when that has none.
 */
export function titleOf(m: Pick<Model, "fields">, data: Record<string, unknown>, locale?: string): string | null {
  const f = m.fields.find((x) => x.namespace === "title" && x.type === "string") ?? m.fields.find((x) => x.type === "string");
  if (!f) return null;
  let v = data[f.id];
  if (f.localized) {
    const slots = localeSlots(data, f);
    v = (locale === undefined ? undefined : slots[locale]) ?? Object.values(slots).find((x) => typeof x === "string");
  }
  return typeof v === "string" ? v : null;
}
