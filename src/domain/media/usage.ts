// Where a media file is used (decisions.md section 10, `GET /v2/media/:id/usage` and the in-use
// check of DELETE): the entries whose draft or published copy holds a media value naming it.
// SQLite narrows the rows with a LIKE on the quoted id (ids are UUIDs, so the text occurs nowhere
// else by chance); each candidate's media fields are then read to be sure.
import type { ProjectHandle } from "../../storage/pool.ts";
import { titleOf } from "../entries/publish.ts";
import { type FieldDef, isMediaField, itemType } from "../models/fields.ts";
import { allModels } from "../models/catalog.ts";
import { fieldValues } from "../locales/values.ts";

/** One entry that uses a file, its title (from the draft), and which of its copies do. */
export interface MediaUse {
  id: string;
  modelId: string;
  namespace: string;
  title: string | null;
  copies: ("draft" | "published")[];
}

/** The ids of media values a stored field value names (one value or a list). */
export function mediaIdsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const v of items) {
    if (v !== null && typeof v === "object" && typeof (v as { id?: unknown }).id === "string") out.push((v as { id: string }).id);
  }
  return out;
}

/** The models with media fields (those `which` keeps), by model id: namespace, every field (for the title) and the media fields. */
function mediaFieldsByModel(h: ProjectHandle, which: (f: FieldDef) => boolean): Map<string, { namespace: string; all: FieldDef[]; fields: FieldDef[] }> {
  const rows = h.sqlite.query("SELECT id, namespace, fields FROM models").all() as { id: string; namespace: string; fields: string }[];
  const out = new Map<string, { namespace: string; all: FieldDef[]; fields: FieldDef[] }>();
  for (const r of rows) {
    const all = JSON.parse(r.fields) as FieldDef[];
    const fields = all.filter((f) => isMediaField(f) && which(f));
    if (fields.length) out.set(r.id, { namespace: r.namespace, all, fields });
  }
  return out;
}

/** Media fields that take images only: `image`, or a list of `image` (a replaced file must stay an image there). */
export const imageOnly = (f: FieldDef): boolean => itemType(f) === "image";

/** The entries whose draft or published copy references `mediaId` (in the fields `which` keeps), oldest first. */
export function mediaUsage(h: ProjectHandle, mediaId: string, which: (f: FieldDef) => boolean = () => true): MediaUse[] {
  const models = mediaFieldsByModel(h, which);
  if (models.size === 0) return [];
  const needle = `%${JSON.stringify(mediaId)}%`;
  const rows = h.sqlite
    .query(
      "SELECT id, model_id, draft_data, published_data FROM entries WHERE deleted_at IS NULL AND (draft_data LIKE ?1 OR published_data LIKE ?1) ORDER BY created_at, id",
    )
    .all(needle) as { id: string; model_id: string; draft_data: string; published_data: string | null }[];
  const out: MediaUse[] = [];
  const defaultCode = allModels(h).locales.default;
  for (const r of rows) {
    const m = models.get(r.model_id);
    if (!m) continue;
    const draft = JSON.parse(r.draft_data) as Record<string, unknown>;
    // Every locale of a localized media field counts (decisions.md 13).
    const uses = (d: Record<string, unknown> | null) =>
      d !== null && m.fields.some((f) => fieldValues(d, f).some(({ value }) => mediaIdsOf(value).includes(mediaId)));
    const copies: MediaUse["copies"] = [];
    if (uses(draft)) copies.push("draft");
    if (uses(r.published_data === null ? null : (JSON.parse(r.published_data) as Record<string, unknown>))) copies.push("published");
    // The title lets a person (the admin's usage list, the in-use warning) tell the entries apart.
    if (copies.length) out.push({ id: r.id, modelId: r.model_id, namespace: m.namespace, title: titleOf({ fields: m.all }, draft, defaultCode), copies });
  }
  return out;
}
