// GET /v2/projects/resolve: turns the model and entry parts of an admin URL into ids.
import { badField, fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { requireScope, type Principal } from "../access/principal.ts";
import { isUuid } from "../models/fields.ts";
import { findModel } from "../models/catalog.ts";

/** The ids behind `?model=<ns|id>[&entry=<id>]`; the entry part needs instance:read too. */
export function resolveAdminUrl(h: ProjectHandle, p: Principal, query: { model?: string; entry?: string }) {
  if (typeof query.model !== "string" || query.model === "") badField("model", "model must be a model namespace or id");
  const m = findModel(h, query.model);
  if (!m) fail("not_found", { message: `No model "${query.model}" in this project.`, extra: { field: "model" } });
  let entry: { id: string } | null = null;
  if (query.entry !== undefined) {
    requireScope(p, "instance:read");
    if (!isUuid(query.entry)) badField("entry", "entry must be an entry id (UUID)");
    const row = h.sqlite.query("SELECT id FROM entries WHERE id = ? AND model_id = ? AND deleted_at IS NULL").get(query.entry.toLowerCase(), m.id) as {
      id: string;
    } | null;
    if (!row) fail("not_found", { message: "No such entry in that model.", extra: { field: "entry" } });
    entry = { id: row.id };
  }
  return { projectId: h.id, model: { id: m.id, namespace: m.namespace }, entry };
}
