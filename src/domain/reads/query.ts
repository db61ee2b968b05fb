// The entries read: the typed arguments of a read (args.ts) compiled into one keyset query, the
// page rendered and its relations expanded with one query per level. REST and GraphQL root
// fields both run through these two functions.
// Beside it: sort.ts (the sort keys), filter.ts (where), keyset.ts (paging and cursors),
// indexes.ts (expression indexes made on demand), render.ts (rows to entries).
import { fail } from "../../errors.ts";
import { sha256Hex } from "../../infra/crypto.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model } from "../models/catalog.ts";
import { isUuid } from "../models/fields.ts";
import { compileWhere, type FilterContext } from "./filter.ts";
import { checkExpandDepth, type ItemArgs, type ListArgs } from "./args.ts";
import { decodeCursor, encodeCursor, type Cursor } from "./grammar.ts";
import { ensureIndex } from "./indexes.ts";
import { carry, fetchPage, resolveDigests } from "./keyset.ts";
import { fieldExpr, rowColumns, type EntryRowOut, type Vis } from "./names.ts";
import { renderPage, resolveSelect, type Rendered } from "./render.ts";
import { resolveSort } from "./sort.ts";
import { localeFor, readLocaleOf, type ReadLocale, visibleIn } from "./locale.ts";

/** Who reads: which copy, and which models the key may read. */
export interface Reader {
  vis: Vis;
  readable: (modelId: string) => boolean;
  /** A GraphQL read: each row's cursor and each expanded list's stored ids come back too. */
  graphql?: boolean;
  /** Each row's cursor comes back: a GraphQL connection that selects edges or pageInfo. */
  rowCursors?: boolean;
  /** The base of public file URLs (CAPA_MEDIA_BASE_URL), for media references. */
  mediaBase?: string;
  /** The locale of the read (locale.ts), set by readList and readOne from the arguments. */
  loc?: ReadLocale;
}

export interface ListResult extends Rendered {
  page: { limit: number; next: string | null; prev: string | null };
  /** The locale read, when the request named one (meta.locale). */
  locale?: string;
  count?: number;
  /** Each row's cursor (GraphQL reads only). */
  cursors?: string[];
  /** Model namespaces and entry ids in the body, for Surrogate-Key. */
  models: string[];
}

/** Finds the model of a read, or 404 model_not_found; a model the key cannot read is 403 scope_missing. */
export function readModel(h: ProjectHandle, reader: Reader, ns: string): Model {
  const m = allModels(h).byNamespace.get(ns);
  if (!m) fail("model_not_found", { message: `No model with the namespace "${ns}" exists.` });
  if (!reader.readable(m.id)) {
    fail("scope_missing", { message: `This key cannot read the model ${ns}.`, hint: `Mint a key with instance:read or instance:read:${m.id}.` });
  }
  return m;
}

/** What readOne answers: the rendered entry, and the locale read when the request named one. */
export interface ItemResult extends Rendered {
  entry: Record<string, unknown>;
  locale?: string;
}

/**
 * The reader of one read with its locale: a literal of the same properties, not a spread (a spread
 * copies by enumerating keys, a measurable part of a one-entry read).
 */
function withLocale(r: Reader, loc: ReadLocale): Reader {
  return { vis: r.vis, readable: r.readable, graphql: r.graphql, rowCursors: r.rowCursors, mediaBase: r.mediaBase, loc };
}

/** The signature of a sort that its cursors carry: a digest, kept per open file (a SHA-256 a read). */
function sortSignature(h: ProjectHandle, sorts: string): string {
  let sigs = h.cache.get("sortSignatures") as Map<string, string> | undefined;
  if (!sigs) {
    sigs = new Map();
    h.cache.set("sortSignatures", sigs);
  }
  let sig = sigs.get(sorts);
  if (sig === undefined) {
    sig = sha256Hex(sorts).slice(0, 12);
    if (sigs.size >= 500) sigs.clear();
    sigs.set(sorts, sig);
  }
  return sig;
}

/** Reads one page of a model's entries: the whole grammar of `GET /api/entries/{ns}`. */
export function readList(h: ProjectHandle, base0: Reader, ns: string, args: ListArgs): ListResult {
  const models = allModels(h);
  const m = readModel(h, base0, ns);
  const loc = readLocaleOf(models, args);
  const reader = withLocale(base0, loc);
  const vis = reader.vis;
  const { limit, count, after, before } = args;
  checkExpandDepth(args.select);
  const sel = resolveSelect(m, args.select, reader, models.byId, "select");
  const keys = resolveSort(m, reader, models.byId, args.sort);
  const sig = sortSignature(h, keys.map((k) => k.sig).join(","));

  const fctx: FilterContext = { models, vis, readable: reader.readable, params: [], used: [], loc };
  const filterSql = args.where === null ? "1" : compileWhere(fctx, m, args.where.value, "e");
  for (const u of fctx.used) if (u.model.id === m.id) ensureIndex(h, vis, m, fieldExpr(vis, "e", u.field, loc.chain));
  if (keys.length === 1 && keys[0]!.indexable) ensureIndex(h, vis, m, keys[0]!.expr);

  const mloc = localeFor(loc, m);
  const base = `e.model_id = '${m.id}' AND ${visibleIn(vis, "e", mloc)} AND (${filterSql})`;
  const baseParams = fctx.params;
  const select_ = `SELECT ${rowColumns(vis, loc.active)}${keys.map((k, i) => `, ${k.expr} AS s${i}`).join("")} FROM entries e WHERE ${base}`;

  // The anchor of a cursor, with digests re-read from the entry they point at.
  let anchor: { vals: unknown[]; id: string } | null = null;
  let backward = false;
  let fromEnd = false;
  if (after !== null || before !== null) {
    backward = before !== null;
    if (before === "end") fromEnd = true;
    else {
      const param = after !== null ? "after" : "before";
      const c: Cursor = decodeCursor((after ?? before)!, param);
      if (c.sig !== sig || c.values.length !== keys.length) {
        fail("invalid_cursor", {
          message: "The cursor was made for another sort order.",
          param,
          hint: "Pass meta.page.next or meta.page.prev exactly as returned, with the same sort.",
        });
      }
      anchor = { vals: resolveDigests(h, m, visibleIn(vis, "e", mloc), keys, c, param), id: c.id };
    }
  }

  const rows = fetchPage(h, select_, baseParams, keys, anchor, backward, fromEnd, limit + 1);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  if (backward) rows.reverse();
  const cursorOf = (r: EntryRowOut) => encodeCursor({ sig, values: keys.map((_, i) => carry(r[`s${i}`])), id: r.id });
  let next: string | null = null;
  let prev: string | null = null;
  if (!backward) {
    next = more && rows.length ? cursorOf(rows[rows.length - 1]!) : null;
    prev = anchor && rows.length ? cursorOf(rows[0]!) : null;
  } else {
    prev = more && rows.length ? cursorOf(rows[0]!) : null;
    next = fromEnd ? null : rows.length ? cursorOf(rows[rows.length - 1]!) : (before ?? null);
  }
  const rendered = renderPage(h, reader, m, sel, rows, models.byId);
  const out: ListResult = { ...rendered, page: { limit, next, prev }, models: [m.namespace, ...rendered.models.filter((x) => x !== m.namespace)] };
  if (loc.asked) out.locale = loc.all ? "*" : loc.code;
  if (reader.rowCursors) out.cursors = rows.map(cursorOf);
  if (count) {
    out.count = (h.sqlite.query(`SELECT count(*) AS n FROM entries e WHERE ${base}`).get(...(baseParams as never[])) as { n: number }).n;
  }
  return out;
}

/** Reads one entry by id (`GET /api/entries/{ns}/{id}`). */
export function readOne(h: ProjectHandle, base0: Reader, ns: string, args: ItemArgs): ItemResult {
  const models = allModels(h);
  const m = readModel(h, base0, ns);
  const id = args.id;
  if (!isUuid(id))
    fail("invalid_parameter", { message: "Entry ids are UUIDs.", param: "id", hint: "Entry ids are UUIDs, e.g. 0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f." });
  const loc = readLocaleOf(models, args);
  const reader = withLocale(base0, loc);
  checkExpandDepth(args.select);
  const sel = resolveSelect(m, args.select, reader, models.byId, "select");
  const vis = reader.vis;
  const row = h.sqlite
    .query(`SELECT ${rowColumns(vis, loc.active)} FROM entries e WHERE e.id = ? AND e.model_id = '${m.id}' AND ${visibleIn(vis, "e", localeFor(loc, m))}`)
    .get(id.toLowerCase()) as EntryRowOut | null;
  if (!row) fail("entry_not_found", { message: "No entry with that id can be read with this key." });
  const rendered = renderPage(h, reader, m, sel, [row], models.byId);
  // One object literal, no spreads: the one-locale item read costs what it did before the locales.
  const out: ItemResult = {
    data: rendered.data,
    missingReferences: rendered.missingReferences,
    entryIds: rendered.entryIds,
    models: rendered.models.length === 1 ? rendered.models : [m.namespace, ...rendered.models.filter((x) => x !== m.namespace)],
    fallbacks: rendered.fallbacks,
    entry: rendered.data[0]!,
    locale: loc.asked ? (loc.all ? "*" : loc.code) : undefined,
  };
  return out;
}
