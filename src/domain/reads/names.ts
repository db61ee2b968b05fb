// Names and SQL expressions of the read path: which copy of an entry a key sees (Vis), how a
// name resolves against a model (customer field first, `$` always system), and the expression
// of each field or system key.
import type { Model } from "../models/catalog.ts";
import { itemType, type FieldDef } from "../models/fields.ts";

export const SYSTEM_KEYS = ["id", "model", "status", "createdAt", "updatedAt", "publishedAt", "version", "tags", "folder"] as const;
/**
 * A system key: those of every entry object, and `locales` (decisions.md 13), which only `$locales`
 * names and only a select that names it returns, so no answer that does not ask for it changes.
 */
export type SystemKey = (typeof SYSTEM_KEYS)[number] | "locales";

/** Which copy a key sees: SQL snippets per table alias. */
export interface Vis {
  prod: boolean;
  /** A short tag that distinguishes compiled statements and lazily made indexes. */
  tag: string;
  data(a: string): string;
  keys(a: string): string;
  tags(a: string): string;
  folder(a: string): string;
  version(a: string): string;
  updatedAt(a: string): string;
  /** The condition that a row is visible at all: never an entry in the trash (entries/trash.ts). */
  visible(a: string): string;
}

/** A development key's view: the current draft of every entry. */
export const DRAFTS: Vis = {
  prod: false,
  tag: "d",
  data: (a) => `${a}.draft_data`,
  keys: (a) => `${a}.draft_keys`,
  tags: (a) => `${a}.draft_tags`,
  folder: (a) => `${a}.draft_folder`,
  version: (a) => `${a}.draft_version`,
  updatedAt: (a) => `${a}.updated_at`,
  visible: (a) => `${a}.deleted_at IS NULL`,
};

/** A production key's view: published copies only. */
export const PUBLISHED: Vis = {
  prod: true,
  tag: "p",
  data: (a) => `${a}.published_data`,
  keys: (a) => `${a}.published_keys`,
  tags: (a) => `${a}.published_tags`,
  folder: (a) => `${a}.published_folder`,
  version: (a) => `${a}.published_version`,
  updatedAt: (a) => `${a}.published_updated_at`,
  visible: (a) => `${a}.published_version_id IS NOT NULL AND ${a}.deleted_at IS NULL`,
};

/** A production view that also sees the drafts a preview token covers. */
export function previewVis(entryIds: string[] | null, modelId: string | null): Vis {
  const ids = (entryIds ?? []).filter((x) => /^[0-9a-f-]{36}$/.test(x));
  const idList = `'${JSON.stringify(ids)}'`;
  const covered = (a: string) => {
    const c: string[] = [];
    if (ids.length) c.push(`${a}.id IN (SELECT value FROM json_each(${idList}))`);
    if (modelId && /^[0-9a-f-]{36}$/.test(modelId)) c.push(`${a}.model_id = '${modelId}'`);
    return c.length ? `(${c.join(" OR ")})` : "0";
  };
  const pick = (draft: string, pub: string) => (a: string) => `(CASE WHEN ${covered(a)} THEN ${a}.${draft} ELSE ${a}.${pub} END)`;
  return {
    prod: true,
    tag: "v",
    data: pick("draft_data", "published_data"),
    keys: pick("draft_keys", "published_keys"),
    tags: pick("draft_tags", "published_tags"),
    folder: pick("draft_folder", "published_folder"),
    version: pick("draft_version", "published_version"),
    updatedAt: pick("updated_at", "published_updated_at"),
    visible: (a) => `(${a}.published_version_id IS NOT NULL OR ${covered(a)}) AND ${a}.deleted_at IS NULL`,
  };
}

/**
 * The columns of an entry row as a read renders it (EntryRowOut), for one visibility: the one
 * list. `state` adds the locale state, which a project with a localized model renders from.
 */
export function rowColumns(vis: Vis, state = false): string {
  // The two constant views' lists are made once (below), not per read.
  if (vis === DRAFTS) return state ? DRAFTS_COLUMNS[1] : DRAFTS_COLUMNS[0];
  if (vis === PUBLISHED) return state ? PUBLISHED_COLUMNS[1] : PUBLISHED_COLUMNS[0];
  return columnsOf(vis, state);
}

function columnsOf(vis: Vis, state: boolean): string {
  return `e.id, e.model_id, e.created_at, e.published_at, e.published_version_id, e.published_version, e.draft_version,
  ${vis.updatedAt("e")} AS u, ${vis.version("e")} AS ver, ${vis.tags("e")} AS tags, ${vis.folder("e")} AS folder, ${vis.data("e")} AS data${state ? ", e.locale_state AS ls" : ""}`;
}

/**
 * The columns of related rows whose select names no system value but id (`author(name)`): what
 * renderOne then reads (id, model_id, data). A quarter of the columns, and so of the row objects
 * SQLite hands over, for the usual expansion.
 */
export function fieldColumns(vis: Vis): string {
  return vis === DRAFTS ? DRAFTS_FIELD_COLUMNS : vis === PUBLISHED ? PUBLISHED_FIELD_COLUMNS : `e.id, e.model_id, ${vis.data("e")} AS data`;
}

const DRAFTS_COLUMNS = [columnsOf(DRAFTS, false), columnsOf(DRAFTS, true)] as const;
const PUBLISHED_COLUMNS = [columnsOf(PUBLISHED, false), columnsOf(PUBLISHED, true)] as const;
const DRAFTS_FIELD_COLUMNS = `e.id, e.model_id, ${DRAFTS.data("e")} AS data`;
const PUBLISHED_FIELD_COLUMNS = `e.id, e.model_id, ${PUBLISHED.data("e")} AS data`;

/** A row as rowColumns selects it; a list read adds its sort values as s0, s1, ... */
export interface EntryRowOut {
  id: string;
  model_id: string;
  created_at: string;
  published_at: string | null;
  published_version_id: string | null;
  published_version: number | null;
  draft_version: number;
  u: string;
  ver: number;
  tags: string;
  folder: string | null;
  data: string;
  /** The locale state (rowColumns with `state`). */
  ls?: string | null;
  [k: `s${number}`]: unknown;
}

export type Resolved = { kind: "field"; field: FieldDef } | { kind: "system"; key: SystemKey };

const ALIASES: Record<string, SystemKey> = { _tags: "tags", _version: "version", _folder: "folder" };

/** Resolves a name: `$name` is always a system key; a plain name is a customer field when one has it. */
export function resolveName(m: Model, name: string, system: boolean): Resolved | null {
  if (system && name === "locales") return { kind: "system", key: "locales" };
  if (!system) {
    const f = m.fields.find((x) => x.namespace === name);
    if (f) return { kind: "field", field: f };
  }
  if ((SYSTEM_KEYS as readonly string[]).includes(name)) return { kind: "system", key: name as SystemKey };
  if (!system && ALIASES[name]) return { kind: "system", key: ALIASES[name]! };
  return null;
}

/** JSON path of a field inside stored data (field ids are UUIDs, safe to inline). */
export function path(f: FieldDef): string {
  return `'$."${f.id}"'`;
}

/** JSON path of one locale's slot of a localized field (codes are canonical tags of letters, digits and hyphens). */
export function slotPath(f: FieldDef, code: string): string {
  return `'$."${f.id}"."${code}"'`;
}

/**
 * The value of a field at `col`: a shared field's, or a localized field's after fallback along
 * `chain` (the first slot that holds one: blank values are never stored, locales/values.ts), so
 * filters and sorts see what the reader sees, and an expression index of this exact text serves
 * the chain (docs/localization.md, "Filters and sorts after fallback").
 */
function valueAt(col: string, f: FieldDef, chain: readonly string[] | null): string {
  if (!f.localized || chain === null) return `json_extract(${col}, ${path(f)})`;
  const parts = chain.map((c) => `json_extract(${col}, ${slotPath(f, c)})`);
  return parts.length === 1 ? parts[0]! : `COALESCE(${parts.join(", ")})`;
}

/**
 * The comparable scalar expression of a field: dates compare through their normalised keys. A
 * localized field reads along `chain` (null only for a shared field).
 */
export function fieldExpr(v: Vis, a: string, f: FieldDef, chain: readonly string[] | null): string {
  return valueAt(itemType(f) === "date" && f.type !== "array" ? v.keys(a) : v.data(a), f, chain);
}

/** The JSON list a list filter iterates (`json_each(<this>)`), or the media object of a media field. */
export function listSource(v: Vis, a: string, f: FieldDef, chain: readonly string[] | null): string {
  return valueAt(itemType(f) === "date" ? v.keys(a) : v.data(a), f, chain);
}

/** The expression of a system key. */
export function systemExpr(v: Vis, a: string, k: SystemKey): string {
  switch (k) {
    case "id":
      return `${a}.id`;
    case "createdAt":
      return `${a}.created_at`;
    case "updatedAt":
      return v.updatedAt(a);
    case "publishedAt":
      return `${a}.published_at`;
    case "tags":
      return v.tags(a);
    case "version":
      return v.version(a);
    case "folder":
      return v.folder(a);
    default:
      return `${a}.id`;
  }
}
