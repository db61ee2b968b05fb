// Entries under management: drafts, versions, publish, unpublish, delete. Each write is one
// transaction; every save is a new version row; the published copy sits beside the draft.
import { and, desc, eq, sql } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, modelOrFail, type Model } from "../models/catalog.ts";
import { actorFrom } from "../events/outbox.ts";
import { write } from "../unit-of-work.ts";
import { readOne } from "../reads/query.ts";
import { PUBLISHED } from "../reads/names.ts";
import { comparisonKeys, fieldValue, fits, isLibraryRef, isMediaField, isRelation, isUuid } from "../models/fields.ts";

import { statusOf, type EntryStatus } from "./status.ts";

export type EntryRow = typeof entries.$inferSelect;

function checkTags(v: unknown): string[] {
  if (!Array.isArray(v) || v.length > 50 || v.some((t) => typeof t !== "string" || t.length === 0 || t.length > 64)) {
    badField("tags", "tags must be a list of up to 50 texts of 1 to 64 characters");
  }
  return [...new Set(v as string[])];
}

function checkFolder(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== "string" || v.length === 0 || v.length > 64) badField("folder", "folder must be a folder id (text up to 64 characters) or null");
  return v;
}

/**
 * Validates `data` (keyed by field namespace) against the model and merges it over `base`
 * (keyed by field id). Relation ids must name entries of the target model.
 */
function mergeData(h: ProjectHandle, m: Model, data: unknown, base: Record<string, unknown>): Record<string, unknown> {
  if (data === null || typeof data !== "object" || Array.isArray(data)) badField("data", "data must be an object keyed by field namespace");
  const byNs = new Map(m.fields.map((f) => [f.namespace, f]));
  const out: Record<string, unknown> = { ...base };
  for (const [ns, v] of Object.entries(data as Record<string, unknown>)) {
    const f = byNs.get(ns);
    if (!f) badField(`data.${ns}`, `The model ${m.namespace} has no field "${ns}"`);
    const stored = fieldValue(f, v, `data.${ns}`);
    if (stored !== null && isRelation(f)) checkTargets(h, f.relation!, Array.isArray(stored) ? (stored as string[]) : [stored as string], `data.${ns}`);
    if (stored !== null && isMediaField(f)) checkMediaRefs(h, stored, `data.${ns}`);
    out[f.id] = stored;
  }
  return out;
}

/** Refuses a media reference naming no file of this project's library (full objects are not checked). */
function checkMediaRefs(h: ProjectHandle, stored: unknown, path: string): void {
  const ids = [...new Set((Array.isArray(stored) ? stored : [stored]).filter(isLibraryRef).map((v) => v.id))];
  if (ids.length === 0) return;
  const found = h.sqlite.query("SELECT id FROM media WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as { id: string }[];
  const have = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !have.has(id));
  if (missing !== undefined) badField(path, `${path} names ${missing}, which is not a media file of this project`);
}

function checkTargets(h: ProjectHandle, modelId: string, ids: string[], path: string): void {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = h.sqlite.query(`SELECT id FROM entries WHERE model_id = ? AND id IN (SELECT value FROM json_each(?))`).all(modelId, JSON.stringify(unique)) as {
    id: string;
  }[];
  if (found.length !== unique.length) {
    const have = new Set(found.map((r) => r.id));
    const missing = unique.find((id) => !have.has(id));
    badField(path, `${path} names ${missing}, which is not an entry of the related model`);
  }
}

/** Stored data (keyed by field id) as the API shows it: keyed by namespace, in model order, misfits as null. */
export function dataOut(m: Model, stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of m.fields) {
    const v = stored[f.id];
    out[f.namespace] = v === undefined || !fits(f, v) ? null : v;
  }
  return out;
}

function getRow(h: ProjectHandle, id: unknown): EntryRow {
  if (!isUuid(id)) fail("not_found", { message: "Entry ids are UUIDs.", extra: { field: "id" } });
  const row = h.db.select().from(entries).where(eq(entries.id, id.toLowerCase())).get();
  if (!row) fail("not_found", { message: "No such entry." });
  return row;
}

/** The management record of an entry: draft copy, published copy, status and version numbers. */
export function entryRecord(h: ProjectHandle, row: EntryRow) {
  const m = allModels(h).byId.get(row.modelId)!;
  return {
    id: row.id,
    model: m.namespace,
    modelId: m.id,
    status: statusOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
    version: row.draftVersion,
    publishedVersion: row.publishedVersion,
    tags: JSON.parse(row.draftTags) as string[],
    folder: row.draftFolder,
    draft: { versionId: row.draftVersionId, version: row.draftVersion, data: dataOut(m, JSON.parse(row.draftData)) },
    published: row.publishedVersionId
      ? {
          versionId: row.publishedVersionId,
          version: row.publishedVersion,
          updatedAt: row.publishedUpdatedAt,
          tags: JSON.parse(row.publishedTags ?? "[]"),
          folder: row.publishedFolder,
          data: dataOut(m, JSON.parse(row.publishedData!)),
        }
      : null,
  };
}

export function getEntry(h: ProjectHandle, id: unknown) {
  return entryRecord(h, getRow(h, id));
}

/** Creates a draft entry (version 1). */
export function createEntry(s: Services, h: ProjectHandle, actor: string, body: Record<string, unknown>) {
  const m = modelOrFail(h, body.model);
  const data = mergeData(h, m, body.data ?? {}, {});
  const tags = body.tags === undefined ? [] : checkTags(body.tags);
  const folder = body.folder === undefined ? null : checkFolder(body.folder);
  const now = iso(s.clock.now());
  const id = s.ids.uuid();
  const versionId = s.ids.uuid();
  write(s, h, () => {
    if (m.singleEntry && h.sqlite.query("SELECT 1 FROM entries WHERE model_id = ?").get(m.id)) {
      fail("conflict", { message: `The model ${m.namespace} holds a single entry, and it exists already.`, extra: { field: "model" } });
    }
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
      })
      .run();
  });
  return getEntry(h, id);
}

/** Saves a new draft version; `data` is merged field by field over the current draft. */
/**
 * The version an edit was based on, from `If-Match: <version number>` (quotes allowed), or null
 * when the header is absent (then the last write wins).
 */
export function ifMatchVersion(header: string | null): number | null {
  if (header === null) return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m) badField("If-Match", "If-Match must be the entry's version number you edited, e.g. If-Match: 3");
  return Number(m[1]);
}

/** Refuses with 409 version_conflict when the entry's latest version is not the one the edit was based on. */
function checkVersion(latest: number, expected: number | null): void {
  if (expected !== null && expected !== latest) {
    fail("version_conflict", { message: `The entry is at version ${latest}; your edit was based on version ${expected}.`, extra: { current: latest } });
  }
}

/**
 * Saves a new draft version; `data` is merged field by field over the current draft, read inside
 * the write so two concurrent saves never drop each other's fields. With `expected` (If-Match),
 * an entry whose latest version differs is refused and nothing is written.
 */
export function updateEntry(s: Services, h: ProjectHandle, actor: string, id: unknown, body: Record<string, unknown>, expected: number | null = null) {
  for (const k of Object.keys(body)) if (!["data", "tags", "folder"].includes(k)) badField(k, `${k} cannot be changed; send data, tags or folder`);
  const first = getRow(h, id);
  const now = iso(s.clock.now());
  const versionId = s.ids.uuid();
  write(s, h, () => {
    const row = getRow(h, first.id);
    checkVersion(row.draftVersion, expected);
    const m = allModels(h).byId.get(row.modelId)!;
    const data = body.data === undefined ? JSON.parse(row.draftData) : mergeData(h, m, body.data, JSON.parse(row.draftData));
    const tags = body.tags === undefined ? JSON.parse(row.draftTags) : checkTags(body.tags);
    const folder = body.folder === undefined ? row.draftFolder : checkFolder(body.folder);
    const number = row.draftVersion + 1;
    h.db
      .insert(entryVersions)
      .values({ id: versionId, entryId: row.id, number, data: JSON.stringify(data), tags: JSON.stringify(tags), folder, createdAt: now, createdBy: actor })
      .run();
    h.db
      .update(entries)
      .set({
        updatedAt: now,
        draftVersionId: versionId,
        draftVersion: number,
        draftData: JSON.stringify(data),
        draftTags: JSON.stringify(tags),
        draftFolder: folder,
        draftKeys: JSON.stringify(comparisonKeys(m.fields, data)),
      })
      .where(eq(entries.id, row.id))
      .run();
  });
  return getEntry(h, first.id);
}

/**
 * Restores an earlier version as a new draft: its data, tags and folder become the next version
 * (the history keeps every version; nothing is published). With `expected` (If-Match), an entry
 * whose latest version differs is refused.
 */
export function restoreVersion(s: Services, h: ProjectHandle, actor: string, id: unknown, versionId: unknown, expected: number | null = null) {
  const row = getRow(h, id);
  if (!isUuid(versionId)) badField("versionId", "versionId must be a version id (UUID)");
  const v = h.db
    .select()
    .from(entryVersions)
    .where(and(eq(entryVersions.id, versionId.toLowerCase()), eq(entryVersions.entryId, row.id)))
    .get();
  if (!v) fail("not_found", { message: "No such version of this entry.", extra: { field: "versionId" } });
  const m = allModels(h).byId.get(row.modelId)!;
  const data = JSON.parse(v.data) as Record<string, unknown>;
  const now = iso(s.clock.now());
  const newId = s.ids.uuid();
  write(s, h, () => {
    const cur = getRow(h, row.id);
    checkVersion(cur.draftVersion, expected);
    const number = cur.draftVersion + 1;
    h.db
      .insert(entryVersions)
      .values({ id: newId, entryId: row.id, number, data: v.data, tags: v.tags, folder: v.folder, createdAt: now, createdBy: actor })
      .run();
    h.db
      .update(entries)
      .set({
        updatedAt: now,
        draftVersionId: newId,
        draftVersion: number,
        draftData: v.data,
        draftTags: v.tags,
        draftFolder: v.folder,
        draftKeys: JSON.stringify(comparisonKeys(m.fields, data)),
      })
      .where(eq(entries.id, row.id))
      .run();
  });
  return getEntry(h, row.id);
}

/**
 * Publishes the current draft, or the version named by `versionId`. Required fields must hold a
 * value. With `opts.expected` (If-Match), an entry whose latest version differs is refused.
 */
export function publishEntry(
  s: Services,
  h: ProjectHandle,
  actor: string,
  id: unknown,
  versionId?: unknown,
  opts: { scheduledActionId?: string; expected?: number | null } = {},
) {
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
  const data = JSON.parse(version.data) as Record<string, unknown>;
  for (const f of m.fields) {
    const v = data[f.id];
    // A stored value that no longer fits the field reads as null, so it does not fill a required field.
    if (f.required && (v === undefined || v === null || (Array.isArray(v) && v.length === 0) || v === "" || !fits(f, v))) {
      badField(`data.${f.namespace}`, `${f.namespace} is required before the entry can be published`);
    }
  }
  const now = iso(s.clock.now());
  write(s, h, (tx) => {
    // Checked again under the write lock: a save between the first check and now is a conflict too.
    checkVersion((h.sqlite.query("SELECT draft_version AS v FROM entries WHERE id = ?").get(row.id) as { v: number }).v, opts.expected ?? null);
    h.db
      .update(entries)
      .set({
        publishedVersionId: version.id,
        publishedVersion: version.number,
        publishedData: version.data,
        publishedTags: version.tags,
        publishedFolder: version.folder,
        publishedAt: now,
        publishedUpdatedAt: version.createdAt,
        publishedKeys: JSON.stringify(comparisonKeys(m.fields, data)),
      })
      .where(eq(entries.id, row.id))
      .run();
    // Webhook content resolves media references like a read does (mediaBase gives the URLs).
    const reader = { vis: PUBLISHED, readable: () => true, mediaBase: s.config.mediaBaseUrl };
    const content = readOne(h, reader, m.namespace, row.id, new URLSearchParams()).entry;
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
        title: titleOf(m, data),
        scheduledActionId: opts.scheduledActionId ?? null,
      },
      links: {
        self: `${s.config.apiUrl}/v2/agent/model-instances/${row.id}`,
        public: `${s.config.publicUrl}/api/entries/${encodeURIComponent(m.namespace)}/${row.id}`,
      },
      content,
    });
    tx.contentChanged();
  });
  return getEntry(h, row.id);
}

/** Removes the published copy; the draft stays. */
export function unpublishEntry(s: Services, h: ProjectHandle, actor: string, id: unknown, opts: { scheduledActionId?: string } = {}) {
  const row = getRow(h, id);
  // Unpublishing an entry with no published copy changes nothing and reports nothing.
  if (!row.publishedVersionId) return getEntry(h, row.id);
  const m = allModels(h).byId.get(row.modelId)!;
  write(s, h, (tx) => {
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
      })
      .where(eq(entries.id, row.id))
      .run();
    tx.emit({
      type: "instance.unpublished",
      actor: actorFrom(actor),
      data: { instanceId: row.id, modelId: m.id, modelNamespace: m.namespace, scheduledActionId: opts.scheduledActionId ?? null },
      links: { self: `${s.config.apiUrl}/v2/agent/model-instances/${row.id}` },
    });
    tx.contentChanged();
  });
  return getEntry(h, row.id);
}

/** Deletes an entry with its versions. */
export function deleteEntry(s: Services, h: ProjectHandle, actor: string, id: unknown): void {
  const row = getRow(h, id);
  const m = allModels(h).byId.get(row.modelId)!;
  write(s, h, (tx) => {
    h.db.delete(entryVersions).where(eq(entryVersions.entryId, row.id)).run();
    h.db.delete(entries).where(eq(entries.id, row.id)).run();
    tx.emit({
      type: "instance.deleted",
      actor: actorFrom(actor),
      data: { instanceId: row.id, modelId: m.id, namespace: m.namespace },
    });
    tx.contentChanged();
  });
}

/** An entry's title for events: its `title` text field, else its first text field, else null. */
export function titleOf(m: Model, data: Record<string, unknown>): string | null {
  const f = m.fields.find((x) => x.namespace === "title" && x.type === "string") ?? m.fields.find((x) => x.type === "string");
  const v = f ? data[f.id] : null;
  return typeof v === "string" ? v : null;
}

/** The versions of an entry, newest first. */
export function listVersions(h: ProjectHandle, id: unknown) {
  const row = getRow(h, id);
  const m = allModels(h).byId.get(row.modelId)!;
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
      tags: JSON.parse(v.tags),
      folder: v.folder,
      data: dataOut(m, JSON.parse(v.data)),
    }));
}

const STATUS_SQL: Record<EntryStatus, ReturnType<typeof sql>> = {
  draft: sql`${entries.publishedVersionId} IS NULL`,
  published: sql`${entries.publishedVersionId} IS NOT NULL AND ${entries.publishedVersion} = ${entries.draftVersion}`,
  changed: sql`${entries.publishedVersionId} IS NOT NULL AND ${entries.publishedVersion} <> ${entries.draftVersion}`,
};

/** Lists entries for management (drafts included), newest first, by page. */
export function listEntries(h: ProjectHandle, q: { model?: unknown; status?: unknown; limit?: unknown; page?: unknown }) {
  const conds = [];
  if (q.model !== undefined) conds.push(eq(entries.modelId, modelOrFail(h, q.model).id));
  if (q.status !== undefined) {
    if (typeof q.status !== "string" || !Object.hasOwn(STATUS_SQL, q.status)) badField("status", "status must be draft, published or changed");
    conds.push(STATUS_SQL[q.status as EntryStatus]);
  }
  const limit = q.limit === undefined ? 25 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) badField("limit", "limit must be a whole number from 1 to 200");
  const page = q.page === undefined ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1) badField("page", "page must be a whole number from 1");
  const where = conds.length ? and(...conds) : undefined;
  const total = h.db.select({ n: sql<number>`count(*)` }).from(entries).where(where).get()!.n;
  const rows = h.db
    .select()
    .from(entries)
    .where(where)
    .orderBy(desc(entries.createdAt), desc(entries.id))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  return { data: rows.map((r) => entryRecord(h, r)), page, limit, total };
}
