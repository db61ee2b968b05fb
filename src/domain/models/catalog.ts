// The model catalogue: a project's models as the read side and every write path see them,
// cached per open file (invalidated when the model set's version moves). Read workers import this
// file alone, so it must not pull in the write side, nor drizzle (domain/reads/worker.ts): the
// models are read with one plain statement.
import type { models } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { FieldDef } from "./fields.ts";
import { projectLocales, type ProjectLocales, type StoredLocales } from "../locales/codes.ts";

type ModelRow = typeof models.$inferSelect;

/** The models table's columns as ModelRow names them (booleans are stored as 0 and 1). */
const MODELS_SQL =
  "SELECT id, namespace, name, description, single_entry = 1 AS singleEntry, fields, layout, embed_by_default = 1 AS embedByDefault, " +
  "preview_url AS previewUrl, version, created_at AS createdAt, updated_at AS updatedAt FROM models ORDER BY created_at, id";

/** A model as the domain uses it: the row with its fields parsed. */
export interface Model {
  id: string;
  namespace: string;
  name: string;
  description: string | null;
  singleEntry: boolean;
  fields: FieldDef[];
  layout: unknown;
  embedByDefault: boolean;
  /** The site URL that previews an entry (placeholders {token}, {id}, {model}, {<field>}), or null. */
  previewUrl: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

function toModel(r: ModelRow): Model {
  return {
    id: r.id,
    namespace: r.namespace,
    name: r.name,
    description: r.description,
    // SQLite answers the comparisons as 0 or 1.
    singleEntry: Boolean(r.singleEntry),
    fields: JSON.parse(r.fields),
    layout: r.layout === null ? null : JSON.parse(r.layout),
    embedByDefault: Boolean(r.embedByDefault),
    previewUrl: r.previewUrl ?? null,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** A project's models and locales, as cached on an open file. */
export interface Catalog {
  list: Model[];
  byId: Map<string, Model>;
  byNamespace: Map<string, Model>;
  version: number;
  /** The project's locales (decisions.md 13): the default, the codes and their fallback chains. */
  locales: ProjectLocales;
  /** Whether any model has a localized field: reads of a project without one run exactly as before. */
  localized: boolean;
  /** The locale of a read that names none (reads/locale.ts), made once per catalogue. */
  defaultRead?: unknown;
}

/** Whether a model has a localized field, so its entries keep one value per locale in those fields. */
export function isLocalizedModel(m: Pick<Model, "fields">): boolean {
  return m.fields.some((f) => f.localized);
}

/**
 * Every model of a project and its locales, cached on the open handle until a model or the
 * locales change (both go through the same notice, so read workers drop this cache for both). The
 * cache is the read path's source of model definitions, so reads never query the models table.
 */
export function allModels(h: ProjectHandle): Catalog {
  let c = h.cache.get("models") as Catalog | undefined;
  if (!c) {
    const list = (h.sqlite.query(MODELS_SQL).all() as ModelRow[]).map(toModel);
    const setting = (name: string) => (h.sqlite.query("SELECT value FROM settings WHERE name = ?").get(name) as { value: string } | null)?.value;
    const loc = setting("locales");
    c = {
      list,
      byId: new Map(list.map((m) => [m.id, m])),
      byNamespace: new Map(list.map((m) => [m.namespace, m])),
      version: Number(setting("model_set_version") ?? 0),
      locales: projectLocales(loc === undefined ? null : (JSON.parse(loc) as StoredLocales)),
      localized: list.some(isLocalizedModel),
    };
    h.cache.set("models", c);
  }
  return c;
}

/** Finds a model by id or namespace. */
export function findModel(h: ProjectHandle, ref: string): Model | undefined {
  const c = allModels(h);
  return c.byId.get(ref.toLowerCase()) ?? c.byNamespace.get(ref);
}

/** Finds a model or answers 404. */
export function modelOrFail(h: ProjectHandle, ref: unknown, field = "model"): Model {
  if (typeof ref !== "string" || ref.length === 0) badField(field, `${field} must be a model id or namespace`);
  const m = findModel(h, ref);
  if (!m) fail("not_found", { message: `No model "${ref}" in this project.`, extra: { field } });
  return m;
}

/** The model record of the management API. */
export function modelRecord(m: Model) {
  return {
    id: m.id,
    namespace: m.namespace,
    name: m.name,
    description: m.description,
    singleEntry: m.singleEntry,
    version: m.version,
    fields: m.fields,
    layout: m.layout,
    embedByDefault: m.embedByDefault,
    previewUrl: m.previewUrl,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}
