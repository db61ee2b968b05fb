// Rendering entry objects for the read API: system keys first in a fixed order (a customer
// field of the same name takes the plain name and the system value moves to `$name`), then
// customer fields in model order. Relations expand with one query per level. A localized field
// shows its value in the locale read, falling back along the chain (each value taken from another
// locale is named in `fallbacks`), or with `*` every locale's own value keyed by code; its
// entries' status and publishedAt are the locale's (locale.ts), and expansions are read in the
// same locale.
import { fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import { fits, isMediaField, isRelation, type FieldDef } from "../models/fields.ts";
import { type MediaSlot, noteMedia, resolveMedia } from "./media-refs.ts";
import { statusOf } from "../entries/status.ts";
import type { SelectList } from "./grammar.ts";
import { fieldColumns, resolveName, rowColumns, SYSTEM_KEYS, type EntryRowOut, type SystemKey, type Vis } from "./names.ts";
import type { Reader } from "./query.ts";
import { localeFor, type ReadLocale, renderedLocale, type RowState, visibleIn } from "./locale.ts";
import { pickInChain } from "../locales/values.ts";

export interface ResolvedSelect {
  model: Model;
  system: SystemKey[];
  /** The key of each system value in the answer: `$name` when a customer field has the plain name. */
  systemKeys: string[];
  fields: FieldDef[];
  /** Relation fields to expand, by field id. */
  expand: Map<string, ResolvedSelect>;
  /** GraphQL: localized fields also read in a locale of their own (SelectItem.locale), with its chain. */
  localeItems: { field: FieldDef; locale: string; chain: string[]; expand: ResolvedSelect | null }[];
}

/** The key under which a GraphQL read keeps a field's value in a locale of its own (no namespace holds a control character). */
export function localeKey(locale: string, ns: string): string {
  return `\u0000locale:${locale}:${ns}`;
}

/** A value that came from another locale than the one read (meta.fallbacks). */
export interface Fallback {
  id: string;
  field: string;
  locale: string;
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
  /** With a locale read, each value taken from another locale of the chain. */
  fallbacks?: Fallback[];
}

/** The localeItems of every select that has none (REST's always): shared, never pushed to. */
const NO_LOCALE_ITEMS: ResolvedSelect["localeItems"] = [];

const SELECT_HINT = 'Example: select=title,author(name),"odd,name"';

/** Resolves a parsed select against a model (null: everything, relations as ids). */
export function resolveSelect(m: Model, list: SelectList | null, reader: Reader, byId: Map<string, Model>, param: string): ResolvedSelect {
  const out: ResolvedSelect = { model: m, system: ["id"], systemKeys: [], fields: [], expand: new Map(), localeItems: NO_LOCALE_ITEMS };
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
    let expand: ResolvedSelect | null = null;
    if (item.expand) {
      if (!isRelation(r.field)) fail("invalid_select", { message: `"${item.name}" is not a relation, so it cannot be expanded.`, param, hint: SELECT_HINT });
      const target = byId.get(r.field.relation!);
      if (!target) fail("invalid_select", { message: `"${item.name}" relates to a model that no longer exists.`, param, hint: SELECT_HINT });
      expand = resolveSelect(target, item.expand, reader, byId, param);
    }
    if (item.locale !== undefined && r.field.localized && reader.loc) {
      if (out.localeItems === NO_LOCALE_ITEMS) out.localeItems = [];
      out.localeItems.push({ field: r.field, locale: item.locale, chain: reader.loc.chainFor(item.locale), expand });
      continue;
    }
    wantFields.add(r.field.id);
    if (expand) out.expand.set(r.field.id, expand);
  }
  out.system = SYSTEM_KEYS.filter((k) => wantSystem.has(k));
  // `$locales` only when named, after the others (names.ts).
  if (wantSystem.has("locales")) out.system.push("locales");
  // Once per select, not per rendered row.
  out.systemKeys = out.system.map((k) => (m.fields.some((f) => f.namespace === k) ? `$${k}` : k));
  out.fields = m.fields.filter((f) => wantFields.has(f.id));
  return out;
}

/**
 * A system value of a row. `local`: the locale read's status, publishedAt and `$locales` (an
 * entry of a localized model); `*` reads no one locale, so its status and publishedAt are the
 * entry's own (`whole`).
 */
function systemValue(k: SystemKey, m: Model, r: EntryRowOut, local: ReturnType<typeof renderedLocale> | null, whole: boolean): unknown {
  switch (k) {
    case "id":
      return r.id;
    case "model":
      return m.namespace;
    case "status":
      if (local && !whole) return local.status;
      return statusOf({ publishedVersionId: r.published_version_id, publishedVersion: r.published_version, draftVersion: r.draft_version });
    case "createdAt":
      return r.created_at;
    case "updatedAt":
      return r.u;
    case "publishedAt":
      return local && !whole ? local.publishedAt : r.published_at;
    case "version":
      return r.ver;
    case "tags":
      return JSON.parse(r.tags ?? "[]");
    case "folder":
      return r.folder;
    case "locales":
      return local ? local.locales : [];
  }
}

interface Ref {
  obj: Record<string, unknown>;
  key: string;
  ids: string[];
  list: boolean;
  sel: ResolvedSelect;
}

/** What rendering one page needs besides the rows: the read's view and locale, the values that fell back, and what waits for resolution. */
interface RenderCtx {
  vis: Vis;
  loc: ReadLocale | undefined;
  /** The project has a localized model (loc.active). */
  active: boolean;
  fallbacks: Fallback[];
  media: MediaSlot[];
}

/** One value into `into[key]`: a misfit reads null; media and relations to expand wait in `media` and `refs`. */
function put(ctx: RenderCtx, refs: Ref[], into: Record<string, unknown>, key: string, f: FieldDef, raw: unknown, sub: ResolvedSelect | undefined | null): void {
  const v = raw === undefined || !fits(f, raw) ? null : raw;
  into[key] = v;
  if (v !== null && isMediaField(f)) noteMedia(ctx.media, into, key, v);
  if (sub && v !== null) {
    const list = Array.isArray(v);
    refs.push({ obj: into, key, ids: list ? (v as string[]) : [v as string], list, sel: sub });
  }
}

function renderOne(ctx: RenderCtx, sel: ResolvedSelect, r: EntryRowOut, refs: Ref[]): Record<string, unknown> {
  const m = sel.model;
  // A project without a localized model (ctx.active false) skips the locale state altogether.
  const loc = ctx.active ? localeFor(ctx.loc, m) : null;
  const state = loc && r.ls ? (JSON.parse(r.ls) as RowState) : null;
  const local = loc && state ? renderedLocale(ctx.vis, loc, state) : null;
  const whole = ctx.active && ctx.loc!.all;
  const o: Record<string, unknown> = {};
  for (let i = 0; i < sel.system.length; i++) o[sel.systemKeys[i]!] = systemValue(sel.system[i]!, m, r, local, whole);
  const data = JSON.parse(r.data ?? "{}") as Record<string, unknown>;
  for (const f of sel.fields) {
    const sub = sel.expand.get(f.id);
    if (!f.localized || !ctx.loc) {
      put(ctx, refs, o, f.namespace, f, f.localized ? undefined : data[f.id], sub);
    } else if (ctx.loc.all) {
      // Every locale's own value, keyed by code, no fallback.
      const byCode: Record<string, unknown> = {};
      for (const c of ctx.loc.codes) put(ctx, refs, byCode, c, f, pickInChain(data, f, [c])?.value, sub);
      o[f.namespace] = byCode;
    } else {
      const got = pickInChain(data, f, ctx.loc.chain);
      if (got && got.code !== ctx.loc.code) ctx.fallbacks.push({ id: r.id, field: f.namespace, locale: got.code });
      put(ctx, refs, o, f.namespace, f, got?.value, sub);
    }
  }
  for (const li of sel.localeItems)
    put(ctx, refs, o, localeKey(li.locale, li.field.namespace), li.field, pickInChain(data, li.field, li.chain)?.value, li.expand);
  return o;
}

/** Renders rows of model `m` and expands relations level by level (one query per level). */
export function renderPage(h: ProjectHandle, reader: Reader, m: Model, sel: ResolvedSelect, rows: EntryRowOut[], byId: Map<string, Model>): Rendered {
  let refs: Ref[] = [];
  // Media references of every level, resolved together at the end: one query per page.
  const media: MediaSlot[] = [];
  const vis: Vis = reader.vis;
  const active = reader.loc?.active === true;
  const ctx: RenderCtx = { vis, loc: reader.loc, active, fallbacks: [], media };
  const data = rows.map((r) => renderOne(ctx, sel, r, refs));
  const entryIds = rows.map((r) => r.id);
  const models = new Set<string>([m.namespace]);
  const missing = new Set<string>();
  const cols = rowColumns(vis, active);
  // Without a localized model and with no system value but id asked at this level, three columns do.
  const fieldsOnly = active ? null : fieldColumns(vis);
  while (refs.length) {
    const ids = [...new Set(refs.flatMap((x) => x.ids))];
    const found = new Map<string, EntryRowOut>();
    // Related entries of a localized model are visible in the locale read (locale.ts); the clause is true of any other.
    const visible = active && refs.some((x) => localeFor(reader.loc, x.sel.model)) ? visibleIn(vis, "e", reader.loc ?? null) : vis.visible("e");
    for (const row of h.sqlite
      .query(
        `SELECT ${fieldsOnly && refs.every((x) => x.sel.system.length === 1) ? fieldsOnly : cols} FROM entries e WHERE e.id IN (SELECT value FROM json_each(?)) AND ${visible}`,
      )
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
        out.push(renderOne(ctx, ref.sel, row, nextRefs));
        entryIds.push(row.id);
      }
      ref.obj[ref.key] = ref.list ? out : (out[0] ?? null);
      if (ref.list && reader.graphql) ref.obj[STORED_IDS + ref.key] = ref.ids;
    }
    refs = nextRefs;
  }
  resolveMedia(h, reader.mediaBase ?? "", media, missing, reader.graphql ? noteMissing : undefined);
  const out: Rendered = { data, missingReferences: [...missing], entryIds: [...new Set(entryIds)], models: [...models] };
  if (reader.loc?.asked && !reader.loc.all) out.fallbacks = ctx.fallbacks;
  return out;
}
