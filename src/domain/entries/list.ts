// The management list of entries (drafts included): the selection (selection.ts: model, status,
// `where`, `q`), the order (list-order.ts: `sort` in the /api grammar), keyset paging by the `next`
// cursor with the total count, and `page` kept for older callers. Each item names who saved its
// latest version (`updatedBy`, and `lastEditedBy` with their name).
import { inArray } from "drizzle-orm";
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { entries } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { fetchPage } from "../reads/keyset.ts";
import { draftActors, editorsOf } from "./editors.ts";
import { decodeListCursor, encodeListCursor, listOrder, orderBy, type ListOrder } from "./list-order.ts";
import { countSelection, selectionOf, type Selection, type SelectionInput } from "./selection.ts";
import { entryRecord, type EntryRow } from "./service.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";

export interface ListQuery extends Omit<SelectionInput, "locale"> {
  limit?: unknown;
  page?: unknown;
  after?: unknown;
  sort?: unknown;
}

/** One page's ids and sort values, by keyset after an anchor or from the start. */
export function keysetPage(h: ProjectHandle, sel: Selection, order: ListOrder, anchor: { vals: unknown[]; id: string } | null, want: number) {
  const select = `SELECT e.id AS id${order.keys.map((k, i) => `, ${k.expr} AS s${i}`).join("")} FROM entries e WHERE ${sel.sql}`;
  return fetchPage(h, select, sel.params, order.keys, anchor, false, false, want) as unknown as Record<string, unknown>[];
}

/** One page's ids and sort values by page number (OFFSET), for callers that still send `page`. */
function offsetPage(h: ProjectHandle, sel: Selection, order: ListOrder, page: number, limit: number) {
  const sql = `SELECT e.id AS id${order.keys.map((k, i) => `, ${k.expr} AS s${i}`).join("")} FROM entries e WHERE ${sel.sql} ORDER BY ${orderBy(order.keys)} LIMIT ${limit + 1} OFFSET ${(page - 1) * limit}`;
  return h.sqlite.query(sql).all(...(sel.params as never[])) as Record<string, unknown>[];
}

/** The rows of ids, in the ids' order. */
export function rowsOf(h: ProjectHandle, ids: string[]): EntryRow[] {
  if (ids.length === 0) return [];
  const byId = new Map(
    h.db
      .select()
      .from(entries)
      .where(inArray(entries.id, ids))
      .all()
      .map((r) => [r.id, r]),
  );
  return ids.map((id) => byId.get(id)!);
}

/**
 * Lists entries for management, newest first or in the `sort` order. Pages by keyset with `after`
 * (the `next` cursor of the previous page; as fast at page 400 as at page 1, on the model's
 * indexes and the expression index a field sort makes) or, for older callers, by `page`.
 */
export function listEntries(s: Services, h: ProjectHandle, q: ListQuery, loc?: EntryLocale) {
  // In a locale (`?locale=`): its status, its values searched, filtered, sorted and shown (decisions.md 13).
  const sel = selectionOf(h, { ...q, locale: loc });
  const limit = q.limit === undefined ? 25 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) badField("limit", "limit must be a whole number from 1 to 200");
  if (q.after !== undefined && q.page !== undefined) badField("after", "after and page cannot be combined; follow `next` from the previous page");
  const page = q.page === undefined ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1) badField("page", "page must be a whole number from 1");
  const order = listOrder(h, sel.model, q.sort, loc);
  const anchor = q.after === undefined ? null : decodeListCursor(h, sel.model, order, q.after);
  const total = countSelection(h, sel);
  const found = page > 1 ? offsetPage(h, sel, order, page, limit) : keysetPage(h, sel, order, anchor, limit + 1);
  const more = found.length > limit;
  if (more) found.length = limit;
  const rows = rowsOf(
    h,
    found.map((r) => r.id as string),
  );
  const actors = draftActors(
    h,
    rows.map((r) => r.draftVersionId),
  );
  const editors = editorsOf(s, actors.values());
  const data = rows.map((r) => {
    const by = actors.get(r.draftVersionId) ?? null;
    return { ...entryRecord(h, r, loc), updatedBy: by, lastEditedBy: by === null ? null : (editors.get(by) ?? { kind: "system" as const }) };
  });
  const last = found[found.length - 1];
  const next =
    more && last
      ? encodeListCursor(
          order,
          order.keys.map((_, i) => last[`s${i}`]),
          last.id as string,
        )
      : null;
  return anchor ? { data, limit, total, next } : { data, page, limit, total, next };
}
