// Entries under management: the record, creating and saving drafts, delete. Each write is one
// unit of work; every save is a new version row; the published copy sits beside the draft
// (publish.ts), earlier versions are listed and restored by versions.ts, conflicts in conflicts.ts.
import { eq } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, modelOrFail, type Model } from "../models/catalog.ts";
import { actorFrom } from "../events/outbox.ts";
import { write } from "../unit-of-work.ts";
import { comparisonKeys, fieldValue, fits, isLibraryRef, isMediaField, isRelation, isUuid } from "../models/fields.ts";

import { statusOf } from "./status.ts";
import { checkValue } from "../access/body-check.ts";
import { Data, Folder, Tags, UpdateEntryBody } from "./bodies.ts";
import { checkVersion } from "./conflicts.ts";
import { purgeEntry } from "../edge/changes.ts";

export type EntryRow = typeof entries.$inferSelect;

// Tags, folder and the data object follow the body models (bodies.ts) here too: the demo and the
// tests create entries without the route.
function checkTags(v: unknown): string[] {
  checkValue(Tags, v, "tags");
  return [...new Set(v)];
}

function checkFolder(v: unknown): string | null {
  checkValue(Folder, v, "folder");
  return v;
}

/**
 * Validates `data` (keyed by field namespace) against the model and merges it over `base`
 * (keyed by field id). Relation ids must name entries of the target model.
 */
function mergeData(h: ProjectHandle, m: Model, data: unknown, base: Record<string, unknown>): Record<string, unknown> {
  checkValue(Data, data, "data");
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

/** An entry's row by id, or 404. */
export function getRow(h: ProjectHandle, id: unknown): EntryRow {
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

/**
 * Saves a new draft version; `data` is merged field by field over the current draft, read inside
 * the write so two concurrent saves never drop each other's fields. With `expected` (If-Match),
 * an entry whose latest version differs is refused and nothing is written.
 */
export function updateEntry(s: Services, h: ProjectHandle, actor: string, id: unknown, body: Record<string, unknown>, expected: number | null = null) {
  checkValue(UpdateEntryBody, body, "");
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
    // Only a published copy is ever at the edge: a draft's delete changes no answer there.
    if (row.publishedVersionId) purgeEntry(tx, row.id, m.namespace);
  });
}
