// Publishing now: the published copy of an entry, its events, and unpublishing.
import { and, eq } from "drizzle-orm";
import { entries, entryVersions } from "../../storage/project/schema.ts";
import { badField } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model } from "../models/catalog.ts";
import { comparisonKeys, isUuid } from "../models/fields.ts";
import { actorFrom } from "../events/outbox.ts";
import { write } from "../unit-of-work.ts";
import { readOne } from "../reads/query.ts";
import { PUBLISHED } from "../reads/names.ts";
import { getEntry, getRow } from "./service.ts";
import { checkVersion } from "./conflicts.ts";
import { purgeEntry } from "../edge/changes.ts";
import { checkUnique } from "./unique.ts";
import { checkPublishable } from "./validation.ts";

/**
 * Publishes the current draft, or the version named by `versionId`. The copy must keep every rule
 * of its fields (`400 validation_failed` lists them all) and hold no unique value another entry
 * holds (`409 not_unique`). With `opts.expected` (If-Match), an entry whose latest version differs is refused.
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
  // Every rule of every field at once (validation.ts); a draft may break them, a published copy may not.
  checkPublishable(h, m, data);
  const now = iso(s.clock.now());
  write(s, h, (tx) => {
    // Checked again under the write lock: a save between the first check and now is a conflict too.
    checkVersion((h.sqlite.query("SELECT draft_version AS v FROM entries WHERE id = ?").get(row.id) as { v: number }).v, opts.expected ?? null);
    // The copy going live must not take a unique value another entry holds (an older version may).
    checkUnique(h, m, row.id, data);
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
    const content = readOne(h, reader, m.namespace, { kind: "item", id: row.id, select: null }).entry;
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
    purgeEntry(tx, row.id, m.namespace);
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
    purgeEntry(tx, row.id, m.namespace);
  });
  return getEntry(h, row.id);
}

/** An entry's title for events: its `title` text field, else its first text field, else null. */
export function titleOf(m: Pick<Model, "fields">, data: Record<string, unknown>): string | null {
  const f = m.fields.find((x) => x.namespace === "title" && x.type === "string") ?? m.fields.find((x) => x.type === "string");
  const v = f ? data[f.id] : null;
  return typeof v === "string" ? v : null;
}
