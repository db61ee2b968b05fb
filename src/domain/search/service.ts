// The command palette's search (Ctrl+K; issue 27, media library): one request finds entries of
// every model by title and media files by file name, title and alt, so the palette shows both
// as the person types. An entry's title is its model's `title` text field, else its first text
// field (entries/publish.ts `titleOf`), the same word the lists and events use.
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { titleOf } from "../entries/publish.ts";
import { likeLiteral } from "../entries/selection.ts";
import { statusOf } from "../entries/status.ts";
import { allModels, type Model } from "../models/catalog.ts";
import { path } from "../reads/names.ts";
import { listMediaRows, recordOf } from "../media/records.ts";
import { thumbnailOf } from "../media/thumbnails.ts";

/** The field a model's entries are titled by, or undefined. */
function titleField(m: Model) {
  return m.fields.find((x) => x.namespace === "title" && x.type === "string") ?? m.fields.find((x) => x.type === "string");
}

/** Entries whose title holds `q`, most recently saved first. */
export function searchEntries(h: ProjectHandle, q: string, limit: number) {
  const models = allModels(h).list.filter((m) => titleField(m));
  if (models.length === 0) return [];
  const needle = likeLiteral(q);
  // A localized title is found in any of its locales (the palette searches every language).
  const parts = models.map((m) => {
    const f = titleField(m)!;
    const match = f.localized
      ? `EXISTS (SELECT 1 FROM json_each(e.draft_data, ${path(f)}) AS w WHERE w.value LIKE ? ESCAPE '\\')`
      : `json_extract(e.draft_data, ${path(f)}) LIKE ? ESCAPE '\\'`;
    return `(e.model_id = '${m.id}' AND ${match})`;
  });
  const rows = h.sqlite
    .query(
      `SELECT e.id, e.model_id AS modelId, e.draft_data AS data, e.updated_at AS updatedAt, e.published_version_id AS pv, e.published_version AS pn, e.draft_version AS dn
       FROM entries e WHERE e.deleted_at IS NULL AND (${parts.join(" OR ")}) ORDER BY e.updated_at DESC, e.id DESC LIMIT ${limit}`,
    )
    .all(...models.map(() => needle)) as { id: string; modelId: string; data: string; updatedAt: string; pv: string | null; pn: number | null; dn: number }[];
  const { byId, locales } = allModels(h);
  return rows.map((r) => {
    const m = byId.get(r.modelId)!;
    return {
      id: r.id,
      model: m.namespace,
      modelName: m.name,
      title: titleOf(m, JSON.parse(r.data), locales.default),
      status: statusOf({ publishedVersionId: r.pv, publishedVersion: r.pn, draftVersion: r.dn }),
      updatedAt: r.updatedAt,
    };
  });
}

/** Files whose name, title or alt holds `q`, newest first, with their grid thumbnails. */
export function searchMedia(s: Services, h: ProjectHandle, q: string, limit: number) {
  return listMediaRows(h, { q, limit: String(limit) }).rows.map((r) => ({ ...recordOf(s, h.id, r), thumbnail: thumbnailOf(s.config.mediaBaseUrl, h.id, r) }));
}
