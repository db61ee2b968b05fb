// The trash (decisions.md 15; docs/editing.md, "The trash"). Deleting an entry marks its row
// (`deleted_at`, `deleted_by`) and keeps everything else: its draft, published copy, versions and
// tags. From that moment every read leaves it out (reads/names.ts `visible`; `getRow` answers
// 404 entry_in_trash on every entry route), so /api answers 404 entry_not_found and relations to
// it read as missing references, and `instance.deleted` fires as before. Restoring clears the
// mark and fires `instance.restored`; a slug another entry took meanwhile gets a new unique
// value, said in the answer. Deleting from the trash, or the purge job after CAPA_TRASH_DAYS,
// removes the row and its versions for ever.
import { and, desc, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actorFrom } from "../events/outbox.ts";
import { allModels, modelOrFail, type Model } from "../models/catalog.ts";
import { comparisonKeys, isUuid } from "../models/fields.ts";
import { isEmpty } from "../models/rules.ts";
import { write } from "../unit-of-work.ts";
import { purgeEntry } from "../edge/changes.ts";
import { titleOf } from "./publish.ts";
import { entryRecord, getRow, stateAfter, type EntryRow } from "./service.ts";
import { fieldValues, setSlot } from "../locales/values.ts";
import { copiesOfRow } from "../locales/state.ts";
import { statusOf } from "./status.ts";
import { checkUnique, freeSlug, holderOf } from "./unique.ts";

const DAY_MS = 24 * 3600_000;

/** `DELETE /v2/model-instances/:id`: moves the entry to the trash; `instance.deleted` fires. */
export function trashEntry(s: Services, h: ProjectHandle, actor: string, id: unknown): void {
  const row = getRow(h, id);
  const m = allModels(h).byId.get(row.modelId)!;
  const now = s.clock.now();
  write(s, h, (tx) => {
    h.db
      .update(entries)
      .set({ deletedAt: iso(now), deletedBy: actor })
      .where(eq(entries.id, row.id))
      .run();
    tx.emit({
      type: "instance.deleted",
      actor: actorFrom(actor),
      data: { instanceId: row.id, modelId: m.id, namespace: m.namespace },
    });
    tx.contentChanged();
    // Only a published copy is ever at the edge: a draft's move to the trash changes no answer there.
    if (row.publishedVersionId) purgeEntry(tx, row.id, m.namespace);
    tx.afterCommit(() => s.wake.trash.note(h.id, now + s.config.trashDays * DAY_MS));
  });
}

/** An entry in the trash as the trash list shows it (a localized title in the default locale). */
function trashItem(m: Model | undefined, r: EntryRow, defaultCode: string) {
  return {
    id: r.id,
    model: m?.namespace ?? null,
    modelId: r.modelId,
    title: m ? titleOf(m, JSON.parse(r.draftData), defaultCode) : null,
    status: statusOf(r),
    deletedAt: r.deletedAt!,
    deletedBy: r.deletedBy,
  };
}

/** A trashed entry's row, or 404 (`not_found` for an entry that is not in the trash). */
function trashedRow(h: ProjectHandle, id: unknown): EntryRow {
  if (!isUuid(id)) fail("not_found", { message: "Entry ids are UUIDs.", extra: { field: "id" } });
  const row = h.db.select().from(entries).where(eq(entries.id, id.toLowerCase())).get();
  if (!row || row.deletedAt === null) fail("not_found", { message: row ? "The entry is not in the trash." : "No such entry." });
  return row;
}

/** `GET /v2/trash/:id`: one entry of the trash. */
export function getTrashed(h: ProjectHandle, id: unknown) {
  const row = trashedRow(h, id);
  return trashItem(allModels(h).byId.get(row.modelId), row, allModels(h).locales.default);
}

function decodeCursor(v: unknown): [string, string] {
  const bad = () => badField("after", "after must be the `next` cursor of a previous page of the trash");
  if (typeof v !== "string" || v.length === 0 || v.length > 300) bad();
  try {
    const p = JSON.parse(Buffer.from(v as string, "base64url").toString("utf8"));
    if (Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && isUuid(p[1])) return [p[0], p[1]];
  } catch {
    // Falls through to the refusal.
  }
  return bad();
}

/**
 * `GET /v2/trash?model=&limit=&after=`: the trash, most recently deleted first, paged by the
 * `next` cursor (keyset on deletedAt and id, like the entry list).
 */
export function listTrash(h: ProjectHandle, q: { model?: unknown; limit?: unknown; after?: unknown }) {
  const conds = [isNotNull(entries.deletedAt)];
  if (q.model !== undefined) conds.push(eq(entries.modelId, modelOrFail(h, q.model).id));
  const limit = q.limit === undefined ? 25 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) badField("limit", "limit must be a whole number from 1 to 200");
  const total = h.db
    .select({ n: sql<number>`count(*)` })
    .from(entries)
    .where(and(...conds))
    .get()!.n;
  if (q.after !== undefined) {
    const [at, id] = decodeCursor(q.after);
    conds.push(or(lt(entries.deletedAt, at), and(eq(entries.deletedAt, at), lt(entries.id, id)))!);
  }
  const rows = h.db
    .select()
    .from(entries)
    .where(and(...conds))
    .orderBy(desc(entries.deletedAt), desc(entries.id))
    .limit(limit + 1)
    .all();
  const more = rows.length > limit;
  if (more) rows.pop();
  const models = allModels(h).byId;
  const last = rows.at(-1);
  const next = more && last ? Buffer.from(JSON.stringify([last.deletedAt, last.id])).toString("base64url") : null;
  const defaultCode = allModels(h).locales.default;
  return { data: rows.map((r) => trashItem(models.get(r.modelId), r, defaultCode)), limit, total, next };
}

/** One slug a restore had to change: the field, where (draft, published copy), the old and the new value; the locale of a localized slug. */
interface SlugChange {
  field: string;
  copy: "draft" | "published";
  from: string;
  to: string;
  locale?: string;
}

/** Gives each slug another entry took meanwhile a new unique value, in place; answers what changed. */
function freeSlugs(h: ProjectHandle, m: Model, id: string, data: Record<string, unknown>, copy: SlugChange["copy"], out: SlugChange[]): void {
  for (const f of m.fields) {
    if (!f.slug) continue;
    for (const { locale, value: v } of fieldValues(data, f)) {
      if (isEmpty(v) || typeof v !== "string" || !holderOf(h, m, f, v, id, locale)) continue;
      // The draft and the published copy often hold one slug: they keep holding one after the restore.
      const same = out.find((c) => c.field === `data.${f.namespace}` && c.from === v && (c.locale ?? null) === locale);
      const to = same ? same.to : freeSlug(h, m, f, v, id, locale);
      if (locale === null) data[f.id] = to;
      else setSlot(data, f, locale, to);
      out.push({ field: `data.${f.namespace}`, copy, from: v, to, ...(locale === null ? {} : { locale }) });
    }
  }
}

/**
 * `POST /v2/trash/:id/restore`: the entry comes back as it was (status, versions, tags).
 * A slug taken meanwhile gets a new unique value (listed in `slugsChanged`); another unique value
 * taken meanwhile is refused with 409 not_unique, and so is a second entry of a single-entry model.
 */
export function restoreEntry(s: Services, h: ProjectHandle, actor: string, id: unknown) {
  const first = trashedRow(h, id);
  const m = allModels(h).byId.get(first.modelId)!;
  const changed: SlugChange[] = [];
  write(s, h, (tx) => {
    const row = trashedRow(h, first.id);
    if (m.singleEntry && h.sqlite.query("SELECT 1 FROM entries WHERE model_id = ? AND deleted_at IS NULL").get(m.id)) {
      fail("conflict", { message: `The model ${m.namespace} holds a single entry, and another exists now.`, extra: { field: "id" } });
    }
    const draft = JSON.parse(row.draftData) as Record<string, unknown>;
    const published = row.publishedData === null ? null : (JSON.parse(row.publishedData) as Record<string, unknown>);
    freeSlugs(h, m, row.id, draft, "draft", changed);
    if (published) freeSlugs(h, m, row.id, published, "published", changed);
    checkUnique(h, m, row.id, draft);
    if (published) checkUnique(h, m, row.id, published);
    const patch: Partial<EntryRow> = { deletedAt: null, deletedBy: null };
    if (changed.some((c) => c.copy === "draft")) {
      // The version rows of the two copies change with them, so the history reads what is live.
      Object.assign(patch, { draftData: JSON.stringify(draft), draftKeys: JSON.stringify(comparisonKeys(m.fields, draft)) });
      h.db.update(entryVersions).set({ data: patch.draftData! }).where(eq(entryVersions.id, row.draftVersionId)).run();
    }
    if (published && changed.some((c) => c.copy === "published")) {
      Object.assign(patch, { publishedData: JSON.stringify(published), publishedKeys: JSON.stringify(comparisonKeys(m.fields, published)) });
      h.db.update(entryVersions).set({ data: patch.publishedData! }).where(eq(entryVersions.id, row.publishedVersionId!)).run();
    }
    if (changed.length > 0 && row.localeState !== null) {
      const copies = copiesOfRow({ ...row, ...patch } as EntryRow);
      patch.localeState = stateAfter(h, m, copies.draft, copies.published, row.localeState);
    }
    h.db.update(entries).set(patch).where(eq(entries.id, row.id)).run();
    tx.emit({
      type: "instance.restored",
      actor: actorFrom(actor),
      data: { instanceId: row.id, modelId: m.id, namespace: m.namespace, status: statusOf(row), title: titleOf(m, draft, allModels(h).locales.default) },
      links: { self: `${s.config.apiUrl}/v2/agent/model-instances/${row.id}` },
    });
    tx.contentChanged();
    // The restored published copy (and a cached 404 of it) reads again at the edge.
    if (row.publishedVersionId) purgeEntry(tx, row.id, m.namespace);
  });
  return { ...entryRecord(h, getRow(h, first.id)), slugsChanged: changed };
}

/** Removes an entry and its versions from the project file. */
function removeRow(h: ProjectHandle, id: string): void {
  h.db.delete(entryVersions).where(eq(entryVersions.entryId, id)).run();
  h.db.delete(entries).where(eq(entries.id, id)).run();
}

/** `DELETE /v2/trash/:id`: deletes an entry of the trash for ever (its `instance.deleted` fired when it was trashed). */
export function deleteForever(s: Services, h: ProjectHandle, id: unknown): void {
  const row = trashedRow(h, id);
  write(s, h, () => removeRow(h, row.id));
}

/** When a project's trash next has an entry to purge (epoch ms), or null when the trash is empty. */
export function nextPurgeDue(h: ProjectHandle, trashDays: number): number | null {
  const r = h.sqlite.query("SELECT min(deleted_at) AS at FROM entries WHERE deleted_at IS NOT NULL").get() as { at: string | null };
  return r.at === null ? null : Date.parse(r.at) + trashDays * DAY_MS;
}

/** The purge job's work on one project: deletes the entries trashed more than CAPA_TRASH_DAYS ago; answers how many. */
export function purgeTrash(s: Services, h: ProjectHandle, now: number): number {
  const before = iso(now - s.config.trashDays * DAY_MS);
  return write(s, h, () => {
    const rows = h.sqlite.query("SELECT id FROM entries WHERE deleted_at IS NOT NULL AND deleted_at <= ? ORDER BY deleted_at, id LIMIT 500").all(before) as {
      id: string;
    }[];
    for (const r of rows) removeRow(h, r.id);
    return rows.length;
  });
}
