// What a scheduled action's target is, in words a person reads: the entry's title and model, or
// the model's name. `GET /v2/scheduled-actions?expand=target` adds it to each action, so a list
// of actions can name and link its targets without one request per row.
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels } from "../models/catalog.ts";
import { titleOf } from "../entries/publish.ts";

/** A target as shown: for an entry its title (null when it has none) and model; `missing` once deleted. */
export interface ShownTarget {
  type: "instance" | "model";
  id: string;
  modelId: string | null;
  namespace: string | null;
  /** The entry's title, or the model's name. */
  title: string | null;
  missing: boolean;
}

/** The shown target of each row, reading every entry the rows name in one query. */
export function showTargets(h: ProjectHandle, rows: { targetType: string; targetId: string }[]): ShownTarget[] {
  const models = allModels(h).byId;
  const entryIds = [...new Set(rows.filter((r) => r.targetType === "instance").map((r) => r.targetId))];
  const found =
    entryIds.length === 0
      ? []
      : (h.sqlite
          .query("SELECT id, model_id AS modelId, draft_data AS data FROM entries WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))")
          .all(JSON.stringify(entryIds)) as { id: string; modelId: string; data: string }[]);
  const entries = new Map(found.map((e) => [e.id, e]));
  return rows.map((r) => {
    if (r.targetType === "model") {
      const m = models.get(r.targetId);
      return { type: "model", id: r.targetId, modelId: r.targetId, namespace: m?.namespace ?? null, title: m?.name ?? null, missing: !m };
    }
    const e = entries.get(r.targetId);
    const m = e ? models.get(e.modelId) : undefined;
    return {
      type: "instance",
      id: r.targetId,
      modelId: e?.modelId ?? null,
      namespace: m?.namespace ?? null,
      title: e && m ? titleOf(m, JSON.parse(e.data), allModels(h).locales.default) : null,
      missing: !e,
    };
  });
}
