// Indexes made on demand: a sort or filter on a customer field reads `json_extract` of the
// stored data, which only an expression index of that exact expression can serve. Each is made
// the first time a read needs it, partial to the model (and to published rows for the published
// copy), so a project pays only for the fields it really sorts and filters by. A localized field
// read along a fallback chain is a `COALESCE` of one `json_extract` per locale of the chain: one
// index per field, chain and copy, made the same way (docs/localization.md, "Filters and sorts").
import { sha256Hex } from "../../infra/crypto.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import type { Vis } from "./names.ts";

/** Creates (once) the partial expression index that serves a customer-field sort or filter. */
export function ensureIndex(h: ProjectHandle, vis: Vis, m: Model, expr: string): void {
  if (vis.tag === "v" || !(expr.startsWith("json_extract(e.") || expr.startsWith("COALESCE(json_extract(e."))) return;
  const name = `cx_${vis.tag}_${sha256Hex(`${m.id}|${expr}|v2`).slice(0, 24)}`;
  const made = (h.cache.get("indexes") as Set<string> | undefined) ?? new Set<string>();
  h.cache.set("indexes", made);
  if (made.has(name)) return;
  const col = expr.replace(/\be\./g, "");
  const where = `model_id = '${m.id}'${vis.prod ? " AND published_version_id IS NOT NULL" : ""}`;
  // model_id leads so that the equality on it and the ORDER BY are served by this one index.
  // In a file that has statistics (an ANALYZE by an operator, or a bench's seed), the new index gets
  // its own at once, in the same transaction (so no other connection plans with the index and
  // without them). Without them the planner took a fresh partial index for the most selective one
  // and served every read of the model by it: the first page in the default order (the created_at
  // index) became a sort of all the model's rows once any field index existed. A file without
  // statistics (Capa never analyses) is left so: statistics for one index alone would mislead the
  // planner about the others. Statistics are rows of sqlite_stat1, not the table: a file whose
  // statistics were deleted keeps the empty table.
  h.sqlite.transaction(() => {
    h.sqlite.exec(`CREATE INDEX IF NOT EXISTS ${name} ON entries (model_id, ${col}, id) WHERE ${where}`);
    const analysed =
      h.sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'").get() !== null &&
      h.sqlite.query("SELECT 1 FROM sqlite_stat1 LIMIT 1").get() !== null;
    if (analysed) h.sqlite.exec(`ANALYZE ${name}`);
  })();
  made.add(name);
}
