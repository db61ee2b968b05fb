// Which entries a management list shows: the model, status, the `/api` `where` grammar over the
// drafts, and `q` over the title and text fields. The list (list.ts), bulk actions (bulk/) and the
// export (export.ts) all select through here, so "select all N that match" acts on exactly the
// entries the list counted. The result is SQL over the alias `e` with bound parameters; only our
// own ids (model and field UUIDs) are inlined, so the partial expression indexes of one model match.
// In a locale (decisions.md 13, `?locale=`), an entry with localized fields has that locale's status,
// `q` searches a localized field's value in that locale and `where` sees it there: what the list shows.
import { AppError, badField, fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, modelOrFail, type Model } from "../models/catalog.ts";
import { TEXT_TYPES, itemType } from "../models/fields.ts";
import { compileWhere, type FilterContext } from "../reads/filter.ts";
import { ensureIndex } from "../reads/indexes.ts";
import type { ReadLocale } from "../reads/locale.ts";
import { DRAFTS, fieldExpr, path, slotPath } from "../reads/names.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";
import type { EntryStatus } from "./status.ts";

/** What a selection may name; `where` is a JSON object or its JSON text (as a query string sends it). */
export interface SelectionInput {
  model?: unknown;
  status?: unknown;
  q?: unknown;
  where?: unknown;
  /** Only these entries (of the selection): an export of rows picked one by one. */
  ids?: string[];
  /** The locale listed (`?locale=`); absent: the project's default. */
  locale?: EntryLocale;
}

export interface Selection {
  model: Model | null;
  /** The condition over `e` (the trash always left out). */
  sql: string;
  params: unknown[];
  /** The `where` object as parsed, or null. */
  where: Record<string, unknown> | null;
}

const STATUS_SQL: Record<EntryStatus, string> = {
  draft: "e.published_version_id IS NULL",
  published: "e.published_version_id IS NOT NULL AND e.published_version = e.draft_version",
  changed: "e.published_version_id IS NOT NULL AND e.published_version <> e.draft_version",
};

/** The longest search text. */
export const MAX_Q = 200;

/**
 * Runs `fn`, turning a grammar refusal (invalid_where, unknown_field, invalid_filter_value,
 * invalid_sort ...) into the same code with `field` naming the parameter, as every /v2 refusal
 * names its field. The code stays the read API's, so a script sees one grammar with one set of codes.
 */
export function naming<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof AppError) || e.extra?.field !== undefined) throw e;
    throw new AppError(e.code, { message: e.message, hint: e.hint, param: field, extra: { ...e.extra, field } });
  }
}

/** The `where` value of a query or body: an object, or JSON text of one. */
export function parseWhere(v: unknown, field = "where"): Record<string, unknown> | null {
  if (v === undefined || v === null || v === "") return null;
  let value = v;
  if (typeof v === "string") {
    try {
      value = JSON.parse(v);
    } catch {
      fail("invalid_where", { message: "where is not valid JSON.", param: field, extra: { field }, hint: 'Example: where={"title":{"contains":"news"}}' });
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    fail("invalid_where", { message: "where must be a JSON object.", param: field, extra: { field } });
  }
  return value as Record<string, unknown>;
}

/**
 * The read locale of a management list in `loc`: a localized field is its value in that one locale
 * (no fallback: the list and the editor show what the locale holds), `*` the default's.
 */
export function listReadLocale(h: ProjectHandle, loc: EntryLocale | undefined): ReadLocale {
  const cat = allModels(h);
  const code = loc?.code ?? cat.locales.default;
  return { code, chain: [code], all: false, codes: cat.locales.codes, asked: false, active: cat.localized, chainFor: (c) => [c] };
}

/** Compiles a `where` against a model over the drafts (as the list shows them), naming `field` on a refusal. */
export function compileDraftWhere(
  h: ProjectHandle,
  m: Model,
  where: Record<string, unknown>,
  field = "where",
  loc?: EntryLocale,
): { sql: string; params: unknown[] } {
  const rl = listReadLocale(h, loc);
  const ctx: FilterContext = { models: allModels(h), vis: DRAFTS, readable: () => true, params: [], used: [], loc: rl };
  const sql = naming(field, () => compileWhere(ctx, m, where, "e"));
  // An equality or range on a field is served by the same lazily made index a development key's read uses.
  for (const u of ctx.used) if (u.model.id === m.id) ensureIndex(h, DRAFTS, m, fieldExpr(DRAFTS, "e", u.field, rl.chain));
  return { sql, params: ctx.params };
}

/** The fields `q` searches: the model's text fields (its title among them), and lists of text. */
export function searchedFields(m: Model) {
  return m.fields.filter((f) => TEXT_TYPES.has(itemType(f)));
}

/** A LIKE pattern that matches `q` literally (wildcards escaped), case-insensitively for ASCII. */
export function likeLiteral(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchSql(m: Model | null, q: string, params: unknown[], code: string, localized: boolean): string {
  const needle = likeLiteral(q);
  if (!m) {
    // Across models there is no field list: any text value of the draft (a localized field's in the locale listed).
    params.push(needle);
    const text = "EXISTS (SELECT 1 FROM json_each(e.draft_data) AS v WHERE v.type = 'text' AND v.value LIKE ? ESCAPE '\\')";
    if (!localized) return text;
    params.push(code, needle);
    return `(${text} OR (e.locale_state IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(e.draft_data) AS v, json_each(v.value) AS w WHERE v.type = 'object' AND w.key = ? AND w.type = 'text' AND w.value LIKE ? ESCAPE '\\')))`;
  }
  const parts = searchedFields(m).map((f) => {
    params.push(needle);
    // A localized field stores an object keyed by code: its slot in the locale listed is searched.
    const at = f.localized ? slotPath(f, code) : path(f);
    if (f.type === "array") return `EXISTS (SELECT 1 FROM json_each(e.draft_data, ${at}) AS v WHERE v.type = 'text' AND v.value LIKE ? ESCAPE '\\')`;
    return `json_extract(e.draft_data, ${at}) LIKE ? ESCAPE '\\'`;
  });
  return parts.length ? `(${parts.join(" OR ")})` : "0";
}

/** Resolves a selection; `fields` renames the parameters in refusals (a bulk body says modelId). */
export function selectionOf(h: ProjectHandle, input: SelectionInput, fields: { model?: string } = {}): Selection {
  const conds = ["e.deleted_at IS NULL"];
  const params: unknown[] = [];
  const cat = allModels(h);
  const code = input.locale?.code ?? cat.locales.default;
  const model = input.model === undefined ? null : modelOrFail(h, input.model, fields.model ?? "model");
  if (model) conds.push(`e.model_id = '${model.id}'`);
  if (input.status !== undefined) {
    if (typeof input.status !== "string" || !Object.hasOwn(STATUS_SQL, input.status)) badField("status", "status must be draft, published or changed");
    const plain = STATUS_SQL[input.status as EntryStatus];
    // An entry with localized fields has the status of the locale listed; a locale it holds nothing
    // in and never published is a draft there. Without a localized model the statement is as before.
    conds.push(
      cat.localized
        ? `(CASE WHEN e.locale_state IS NULL THEN (${plain}) ELSE COALESCE(json_extract(e.locale_state, '$."${code}".status'), 'draft') = '${input.status}' END)`
        : plain,
    );
  }
  if (input.q !== undefined) {
    if (typeof input.q !== "string" || input.q.length > MAX_Q) badField("q", `q must be a text of up to ${MAX_Q} characters`);
    if (input.q !== "") conds.push(searchSql(model, input.q, params, code, cat.localized));
  }
  const where = parseWhere(input.where);
  if (where) {
    if (!model) badField("where", "where filters the fields of one model: send model as well");
    const w = compileDraftWhere(h, model, where, "where", input.locale);
    conds.push(`(${w.sql})`);
    params.push(...w.params);
  }
  if (input.ids !== undefined) {
    conds.push("e.id IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(input.ids.map((id) => id.toLowerCase())));
  }
  return { model, sql: conds.join(" AND "), params, where };
}

/** The ids a selection holds, oldest first (the order bulk actions work in). */
export function selectedIds(h: ProjectHandle, sel: Selection): string[] {
  return (
    h.sqlite.query(`SELECT e.id AS id FROM entries e WHERE ${sel.sql} ORDER BY e.created_at, e.id`).all(...(sel.params as never[])) as { id: string }[]
  ).map((r) => r.id);
}

/** How many entries a selection holds. */
export function countSelection(h: ProjectHandle, sel: Selection): number {
  return (h.sqlite.query(`SELECT count(*) AS n FROM entries e WHERE ${sel.sql}`).get(...(sel.params as never[])) as { n: number }).n;
}
