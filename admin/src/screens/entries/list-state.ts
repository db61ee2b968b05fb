// The state of an entry list, kept in the URL so a list can be linked (design/admin.md, The
// frame): status, search, sort and filter in the /api grammar, the columns shown, the page size
// and the keyset page, and the saved view it started from. A view's parts are the list's starting
// point; a part the URL names overrides the view's (an empty one clears it), so "changed since
// the view was saved" is a comparison, and going back to the view drops the overrides.
import type { EntryStatus } from "../../api/types.ts";
import type { ViewParts } from "../../api/views.ts";

/** What the URL holds (`/admin/content/<model>?...`). */
export interface ListSearch {
  status?: EntryStatus;
  q?: string;
  /** The /api sort grammar (`-updatedAt`, `title,-price`). */
  sort?: string;
  /** The /api where grammar. */
  where?: Record<string, unknown>;
  /** Column keys, comma-separated (a field's namespace, or `$status`-like system keys). */
  columns?: string;
  limit?: number;
  /** The cursor the page starts after, and its number (for "26–50 of 72"). */
  after?: string;
  page?: number;
  /** The saved view the list started from. */
  view?: string;
  /** The locale listed (issue 28), when not the project's default; views do not keep it. */
  locale?: string;
}

const STATUSES = new Set(["draft", "published", "changed"]);
/** A BCP 47-looking code, as the editor's route reads `?locale=`. */
const LOCALE = /^[A-Za-z0-9-]{1,35}$/;
/** Page sizes offered; 25 is the default (design/admin.md, Speed). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_LIMIT = 25;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The router's reading of the URL. Values the router parsed as JSON (a search for `123`) come
 * back as text; anything else unknown is left out, so a hand-edited URL still opens the list.
 */
export function parseListSearch(s: Record<string, unknown>): ListSearch {
  const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);
  const out: ListSearch = {};
  if (typeof s.status === "string" && STATUSES.has(s.status)) out.status = s.status as EntryStatus;
  const q = text(s.q);
  if (q !== undefined) out.q = q;
  const sort = text(s.sort);
  if (sort !== undefined) out.sort = sort;
  if (isObject(s.where)) out.where = s.where;
  else if (typeof s.where === "string") {
    try {
      const w = JSON.parse(s.where) as unknown;
      if (isObject(w)) out.where = w;
    } catch {
      // Not JSON: no filter.
    }
  }
  const columns = text(s.columns);
  if (columns !== undefined) out.columns = columns;
  const limit = Number(s.limit);
  if ((PAGE_SIZES as readonly number[]).includes(limit)) out.limit = limit;
  const after = text(s.after);
  if (after) out.after = after;
  const page = Number(s.page);
  if (out.after && Number.isInteger(page) && page > 1) out.page = page;
  if (typeof s.view === "string" && s.view !== "") out.view = s.view;
  if (typeof s.locale === "string" && LOCALE.test(s.locale)) out.locale = s.locale;
  return out;
}

/** The list as it is to be shown: the URL over the view. */
export interface ListState {
  status: EntryStatus | undefined;
  q: string;
  sort: string;
  where: Record<string, unknown> | null;
  /** The chosen columns, or null for the default ones. */
  columns: string[] | null;
  limit: number;
  after: string | null;
  page: number;
}

const splitColumns = (c: string) =>
  c
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/** The state the list shows for `search`, starting from `view`'s parts when a view is open. */
export function stateOf(search: ListSearch, view: ViewParts | null): ListState {
  const where = search.where ?? view?.where ?? null;
  const columns = search.columns !== undefined ? splitColumns(search.columns) : (view?.columns ?? []);
  return {
    status: search.status,
    q: search.q ?? view?.search ?? "",
    sort: search.sort ?? view?.sort ?? "",
    where: where && Object.keys(where).length > 0 ? where : null,
    columns: columns.length > 0 ? columns : null,
    limit: search.limit ?? DEFAULT_LIMIT,
    after: search.after ?? null,
    page: search.after ? (search.page ?? 2) : 1,
  };
}

/** The parts of the state a view keeps. */
export function partsOf(state: ListState): ViewParts {
  return { columns: state.columns ?? [], sort: state.sort || null, where: state.where, search: state.q || null };
}

/** Whether the list shows something other than `view` saved (then it can be saved again). */
export function differsFrom(state: ListState, view: ViewParts): boolean {
  const a = partsOf(state);
  return (
    a.columns.join(",") !== view.columns.join(",") ||
    (a.sort ?? "") !== (view.sort ?? "") ||
    JSON.stringify(a.where ?? {}) !== JSON.stringify(view.where ?? {}) ||
    (a.search ?? "") !== (view.search ?? "")
  );
}

/**
 * The URL change that sets some parts. Any change but paging starts again at page 1. Inside a view
 * an empty part is kept as empty, so it overrides the view's instead of falling back to it.
 */
export function withParts(
  search: ListSearch,
  parts: Partial<{
    q: string;
    sort: string;
    where: Record<string, unknown> | null;
    columns: string[] | null;
    status: EntryStatus | undefined;
    limit: number;
    locale: string | undefined;
  }>,
): ListSearch {
  const next: ListSearch = { ...search };
  delete next.after;
  delete next.page;
  const inView = !!search.view;
  if ("q" in parts) next.q = parts.q || (inView ? "" : undefined);
  if ("sort" in parts) next.sort = parts.sort || (inView ? "" : undefined);
  if ("where" in parts) next.where = parts.where && Object.keys(parts.where).length > 0 ? parts.where : inView ? {} : undefined;
  if ("columns" in parts) next.columns = parts.columns?.length ? parts.columns.join(",") : inView ? "" : undefined;
  if ("status" in parts) next.status = parts.status;
  if ("limit" in parts) next.limit = parts.limit === DEFAULT_LIMIT ? undefined : parts.limit;
  // The cursors of one locale's order are refused under another, so a new locale starts at page 1 too.
  if ("locale" in parts) next.locale = parts.locale;
  for (const k of Object.keys(next) as (keyof ListSearch)[]) if (next[k] === undefined) delete next[k];
  return next;
}

/** The first key of a sort and its direction, or null for the list's own order (newest first). */
export function sortOf(sort: string): { key: string; desc: boolean } | null {
  const first = sort.split(",")[0]?.trim() ?? "";
  if (!first) return null;
  return first.startsWith("-") ? { key: first.slice(1), desc: true } : { key: first, desc: false };
}

/** The system columns' plain sort names (`createdAt`), which mean the entry's time unless a field takes the name. */
const SYSTEM_SORTS: Record<string, string> = { $createdAt: "createdAt", $updatedAt: "updatedAt", $publishedAt: "publishedAt", $id: "$id" };

/** The sort key of a column: a field by its namespace; a system time by its plain name when no field has it. */
export function sortKeyOf(column: string, fieldNames: readonly string[]): string {
  const plain = SYSTEM_SORTS[column];
  if (!plain) return column;
  return fieldNames.includes(plain) ? column : plain;
}

/** Whether a sort key is a column's (`updatedAt` and `$updatedAt` both name the Updated column when no field is called so). */
export function sortsColumn(sortKey: string, column: string, fieldNames: readonly string[]): boolean {
  return sortKey === column || sortKey === sortKeyOf(column, fieldNames);
}

/** The sort after a click on a column's header: the other direction if it sorts already, else its first direction (times newest first). */
export function nextSort(current: string, column: string, fieldNames: readonly string[], isTime: boolean): string {
  const key = sortKeyOf(column, fieldNames);
  const now = sortOf(current);
  if (now && sortsColumn(now.key, column, fieldNames)) return now.desc ? key : `-${key}`;
  return isTime ? `-${key}` : key;
}
