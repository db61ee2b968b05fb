// Rendering entry objects for the read API: system keys first in a fixed order (a customer
// field of the same name takes the plain name and the system value moves to `$name`), then
// customer fields in model order. Relations expand with one query per level.
import { fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import { fits, isMediaField, isRelation, type FieldDef } from "../models/fields.ts";
import { type MediaSlot, noteMedia, resolveMedia } from "./media-refs.ts";
import { statusOf } from "../entries/status.ts";
import type { SelectList } from "./grammar.ts";
import { resolveName, rowColumns, SYSTEM_KEYS, type EntryRowOut, type SystemKey, type Vis } from "./names.ts";
import type { Reader } from "./query.ts";

export interface ResolvedSelect {
  model: Model;
  system: SystemKey[];
  fields: FieldDef[];
  /** Relation fields to expand, by field id. */
  expand: Map<string, ResolvedSelect>;
}

/**
 * The key under which a GraphQL read keeps the stored ids of an expanded relation list beside it,
 * so a nested connection can window them (no field namespace holds a control character).
 */
export const STORED_IDS = "\u0000ids:";

/**
 * The key under which a GraphQL read keeps, on each rendered object, the ids its single relations
 * and media fields could not resolve (`{ [namespace]: ids }`): GraphQL names in
 * `extensions.missingReferences` only those of the objects and fields its answer holds.
 */
export const MISSING_IDS = "\u0000missing";

/** Notes an unresolved id of `obj[key]` for GraphQL (see MISSING_IDS). */
export function noteMissing(obj: Record<string, unknown>, key: string, id: string): void {
  let byKey = obj[MISSING_IDS] as Record<string, string[]> | undefined;
  if (!byKey) {
    byKey = {};
    obj[MISSING_IDS] = byKey;
  }
  const ids = byKey[key];
  if (ids) ids.push(id);
  else byKey[key] = [id];
}

export interface Rendered {
  data: Record<string, unknown>[];
  missingReferences: string[];
  entryIds: string[];
  models: string[];
}

const SELECT_HINT = 'Example: select=title,author(name),"odd,name"';

/** Resolves a parsed select against a model (null: everything, relations as ids). */
export function resolveSelect(m: Model, list: SelectList | null, reader: Reader, byId: Map<string, Model>, param: string): ResolvedSelect {
  const out: ResolvedSelect = { model: m, system: ["id"], fields: [], expand: new Map() };
  if (list === null || list.all) {
    out.system = [...SYSTEM_KEYS];
    out.fields = [...m.fields];
  }
  const wantSystem = new Set<SystemKey>(out.system);
  const wantFields = new Set<string>(out.fields.map((f) => f.id));
  for (const item of list?.items ?? []) {
    const r = resolveName(m, item.name, item.system);
    if (!r) {
      fail("unknown_field", {
        message: `The model ${m.namespace} has no field "${item.name}".`,
        param,
        hint: 'Example: select=title,$createdAt; quote names with , ( ) " $ like "odd,name"',
      });
    }
    if (r.kind === "system") {
      if (item.expand) fail("invalid_select", { message: `${item.name} cannot be expanded.`, param, hint: SELECT_HINT });
      wantSystem.add(r.key);
      continue;
    }
    wantFields.add(r.field.id);
    if (item.expand) {
      if (!isRelation(r.field)) fail("invalid_select", { message: `"${item.name}" is not a relation, so it cannot be expanded.`, param, hint: SELECT_HINT });
      const target = byId.get(r.field.relation!);
      if (!target) fail("invalid_select", { message: `"${item.name}" relates to a model that no longer exists.`, param, hint: SELECT_HINT });
      out.expand.set(r.field.id, resolveSelect(target, item.expand, reader, byId, param));
    }
  }
  out.system = SYSTEM_KEYS.filter((k) => wantSystem.has(k));
  out.fields = m.fields.filter((f) => wantFields.has(f.id));
  return out;
}

function systemValue(k: SystemKey, m: Model, r: EntryRowOut): unknown {
  switch (k) {
    case "id":
      return r.id;
    case "model":
      return m.namespace;
    case "status":
      return statusOf({ publishedVersionId: r.published_version_id, publishedVersion: r.published_version, draftVersion: r.draft_version });
    case "createdAt":
      return r.created_at;
    case "updatedAt":
      return r.u;
    case "publishedAt":
      return r.published_at;
    case "version":
      return r.ver;
    case "tags":
      return JSON.parse(r.tags ?? "[]");
    case "folder":
      return r.folder;
  }
}

interface Ref {
  obj: Record<string, unknown>;
  key: string;
  ids: string[];
  list: boolean;
  sel: ResolvedSelect;
}

function renderOne(sel: ResolvedSelect, r: EntryRowOut, refs: Ref[], media: MediaSlot[]): Record<string, unknown> {
  const m = sel.model;
  const names = new Set(m.fields.map((f) => f.namespace));
  const o: Record<string, unknown> = {};
  for (const k of sel.system) o[names.has(k) ? `$${k}` : k] = systemValue(k, m, r);
  const data = JSON.parse(r.data ?? "{}") as Record<string, unknown>;
  for (const f of sel.fields) {
    const raw = data[f.id];
    const v = raw === undefined || !fits(f, raw) ? null : raw;
    o[f.namespace] = v;
    if (v !== null && isMediaField(f)) noteMedia(media, o, f.namespace, v);
    const sub = sel.expand.get(f.id);
    if (sub && v !== null) {
      const list = Array.isArray(v);
      refs.push({ obj: o, key: f.namespace, ids: list ? (v as string[]) : [v as string], list, sel: sub });
    }
  }
  return o;
}

/** Renders rows of model `m` and expands relations level by level (one query per level). */
export function renderPage(h: ProjectHandle, reader: Reader, m: Model, sel: ResolvedSelect, rows: EntryRowOut[], byId: Map<string, Model>): Rendered {
  let refs: Ref[] = [];
  // Media references of every level, resolved together at the end: one query per page.
  const media: MediaSlot[] = [];
  const data = rows.map((r) => renderOne(sel, r, refs, media));
  const entryIds = rows.map((r) => r.id);
  const models = new Set<string>([m.namespace]);
  const missing = new Set<string>();
  const vis: Vis = reader.vis;
  const cols = rowColumns(vis);
  while (refs.length) {
    const ids = [...new Set(refs.flatMap((x) => x.ids))];
    const found = new Map<string, EntryRowOut>();
    for (const row of h.sqlite
      .query(`SELECT ${cols} FROM entries e WHERE e.id IN (SELECT value FROM json_each(?)) AND ${vis.visible("e")}`)
      .all(JSON.stringify(ids)) as EntryRowOut[])
      found.set(row.id, row);
    const nextRefs: Ref[] = [];
    for (const ref of refs) {
      const targetId = ref.sel.model.id;
      // A readable target model is tagged whether or not its entries resolve: one published later
      // purges its model, and so this answer at the edge. An unreadable one is never named.
      if (reader.readable(targetId)) models.add(ref.sel.model.namespace);
      const out: Record<string, unknown>[] = [];
      for (const id of ref.ids) {
        const row = found.get(id);
        if (!row || row.model_id !== targetId || !reader.readable(targetId) || !byId.has(targetId)) {
          missing.add(id);
          // A relation list's unresolved ids are read from its stored ids by the window.
          if (reader.graphql && !ref.list) noteMissing(ref.obj, ref.key, id);
          continue;
        }
        out.push(renderOne(ref.sel, row, nextRefs, media));
        entryIds.push(row.id);
      }
      ref.obj[ref.key] = ref.list ? out : (out[0] ?? null);
      if (ref.list && reader.graphql) ref.obj[STORED_IDS + ref.key] = ref.ids;
    }
    refs = nextRefs;
  }
  resolveMedia(h, reader.mediaBase ?? "", media, missing, reader.graphql ? noteMissing : undefined);
  return { data, missingReferences: [...missing], entryIds: [...new Set(entryIds)], models: [...models] };
}
