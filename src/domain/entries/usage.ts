// Where an entry is used (decisions.md 15, `GET /v2/model-instances/:id/usage`): the live entries
// whose latest draft or published copy relates to it, so the admin app can say who points at an
// entry before it is deleted (a relation to a deleted entry reads as a missing reference). As
// media's usage does (media/usage.ts), SQLite narrows the rows with a LIKE on the quoted id and
// each candidate's relation fields are then read to be sure.
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels } from "../models/catalog.ts";
import { type FieldDef, isRelation } from "../models/fields.ts";
import { fieldValues } from "../locales/values.ts";
import { titleOf } from "./publish.ts";
import { getRow } from "./service.ts";

/** One entry that relates to another: its title (from the draft), which copies relate, and through which fields. */
export interface EntryUse {
  id: string;
  modelId: string;
  namespace: string;
  title: string | null;
  copies: ("draft" | "published")[];
  /** The namespaces of the relation fields that name the entry. */
  fields: string[];
}

/** The ids a stored relation field names (one id or a list; every locale of a localized field). */
function idsOf(data: Record<string, unknown>, f: FieldDef): unknown[] {
  return fieldValues(data, f).flatMap(({ value: v }) => (Array.isArray(v) ? v : [v]));
}

/** The live entries whose draft or published copy relates to entry `id`, oldest first. */
export function entryUsage(h: ProjectHandle, id: unknown): { entries: EntryUse[] } {
  const target = getRow(h, id);
  const models = allModels(h).list.flatMap((m) => {
    const fields = m.fields.filter((f) => isRelation(f) && f.relation === target.modelId);
    return fields.length ? [{ m, fields }] : [];
  });
  if (models.length === 0) return { entries: [] };
  const byId = new Map(models.map((x) => [x.m.id, x]));
  const rows = h.sqlite
    .query(
      `SELECT id, model_id, draft_data, published_data FROM entries
        WHERE deleted_at IS NULL AND model_id IN (SELECT value FROM json_each(?1)) AND id <> ?3 AND (draft_data LIKE ?2 OR published_data LIKE ?2)
        ORDER BY created_at, id`,
    )
    .all(JSON.stringify([...byId.keys()]), `%${JSON.stringify(target.id)}%`, target.id) as {
    id: string;
    model_id: string;
    draft_data: string;
    published_data: string | null;
  }[];
  const out: EntryUse[] = [];
  const defaultCode = allModels(h).locales.default;
  for (const r of rows) {
    const { m, fields } = byId.get(r.model_id)!;
    const draft = JSON.parse(r.draft_data) as Record<string, unknown>;
    const published = r.published_data === null ? null : (JSON.parse(r.published_data) as Record<string, unknown>);
    const through = (d: Record<string, unknown> | null) => (d === null ? [] : fields.filter((f) => idsOf(d, f).includes(target.id)));
    const inDraft = through(draft);
    const inPublished = through(published);
    const copies: EntryUse["copies"] = [];
    if (inDraft.length) copies.push("draft");
    if (inPublished.length) copies.push("published");
    if (copies.length === 0) continue;
    const names = fields.filter((f) => inDraft.includes(f) || inPublished.includes(f)).map((f) => f.namespace);
    out.push({ id: r.id, modelId: m.id, namespace: m.namespace, title: titleOf(m, draft, defaultCode), copies, fields: names });
  }
  return { entries: out };
}
