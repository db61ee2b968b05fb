// The typed read (issue 25): what one entries read asks for, as a value. REST parses it from the
// URL (listArgsOf, itemArgsOf), GraphQL builds it from a root field's arguments and selection,
// and the read (query.ts) runs it, on the main thread or a read worker (it is plain data, so it
// crosses to a worker by structured clone). The REST URL GraphQL shows in `extensions.svc.rest`
// is printed from the value (printArgs), never parsed back.
import { fail } from "../../errors.ts";
import { parseBool, parseLimit, parseSelect, parseSort, type SelectList, type SortTerm } from "./grammar.ts";

/** A list read: `GET /api/entries/{ns}` and its grammar (decisions.md 4). */
export interface ListArgs {
  kind: "list";
  /** null: every field, relations as ids. */
  select: SelectList | null;
  /** null: newest first. */
  sort: SortTerm[] | null;
  /** The `where` object, as sent (checked against the model by the read); null when absent. */
  where: { value: unknown } | null;
  limit: number;
  count: boolean;
  /** Cursors as sent (opaque; checked against the sort by the read). `before` may be `end`. */
  after: string | null;
  before: string | null;
  /** The locale read, as sent (`*` for every locale), or null for the default (decisions.md 13). */
  locale: string | null;
  /** The fallback chain for this read, as sent (`none` turns fallback off), or null for the locale's own. */
  fallbackLocale: string[] | "none" | null;
}

/** One entry by id: `GET /api/entries/{ns}/{id}`. */
export interface ItemArgs {
  kind: "item";
  id: string;
  select: SelectList | null;
  locale: string | null;
  fallbackLocale: string[] | "none" | null;
}

export type ReadArgs = ListArgs | ItemArgs;

/** Expansions nest at most this deep below the read (REST select and GraphQL alike). */
export const MAX_EXPAND_DEPTH = 3;

/** A list read's arguments from a query string; refuses a malformed parameter in the order REST always has. */
export function listArgsOf(q: URLSearchParams): ListArgs {
  const limit = parseLimit(q.get("limit"));
  const count = parseBool(q.get("count"), "count");
  const after = q.get("after");
  const before = q.get("before");
  if (after !== null && before !== null) {
    fail("invalid_parameter", {
      message: "Send after or before, not both.",
      param: "before",
      hint: "Example: ?after=<meta.page.next> or ?before=<meta.page.prev>",
    });
  }
  const rawSelect = q.get("select");
  const select = rawSelect === null ? null : parseSelect(rawSelect, MAX_EXPAND_DEPTH);
  const rawSort = q.get("sort");
  const sort = rawSort === null || rawSort.trim() === "" ? null : parseSort(rawSort);
  const rawWhere = q.get("where");
  let where: ListArgs["where"] = null;
  if (rawWhere !== null) {
    try {
      where = { value: JSON.parse(rawWhere) };
    } catch {
      fail("invalid_where", { message: "where is not valid JSON.", param: "where", hint: 'Example: where={"title":{"contains":"news"}}' });
    }
  }
  const { locale, fallbackLocale } = localeArgsOf(q);
  return { kind: "list", select, sort, where, limit, count, after, before, locale, fallbackLocale };
}

/** An item read's arguments from its id and query string. */
export function itemArgsOf(id: string, q: URLSearchParams): ItemArgs {
  const rawSelect = q.get("select");
  // A query string of select alone (the usual item read) names no locale: no scan for one.
  const { locale, fallbackLocale } = q.size === (rawSelect === null ? 0 : 1) ? NO_LOCALE : localeArgsOf(q);
  return { kind: "item", id, select: rawSelect === null ? null : parseSelect(rawSelect, MAX_EXPAND_DEPTH), locale, fallbackLocale };
}

/** The locale arguments of a read that names none (shared: never changed). */
const NO_LOCALE: Pick<ListArgs, "locale" | "fallbackLocale"> = Object.freeze({ locale: null, fallbackLocale: null });

/**
 * `locale` and `fallbackLocale` as sent. Each may be sent once (a URL repeating one is refused at
 * once, whatever its length); `*` reads every locale with no fallback, so a fallback beside it is
 * refused. Whether the codes are the project's is the read's to check (query.ts), with the
 * project's codes in the hint.
 */
export function localeArgsOf(q: URLSearchParams): Pick<ListArgs, "locale" | "fallbackLocale"> {
  if (!q.has("locale") && !q.has("fallbackLocale")) return NO_LOCALE;
  for (const param of ["locale", "fallbackLocale"]) {
    const n = q.getAll(param).length;
    if (n > 1) fail("invalid_parameter", { message: `${param} is sent ${n} times; send it once.`, param, hint: "Example: ?locale=de-CH&fallbackLocale=de,en" });
  }
  const locale = q.get("locale");
  const raw = q.get("fallbackLocale");
  if (locale === "*" && raw !== null) {
    fail("invalid_parameter", {
      message: "locale=* reads every locale's own value, with no fallback; leave fallbackLocale out.",
      param: "fallbackLocale",
      hint: "Example: ?locale=* or ?locale=de&fallbackLocale=en",
    });
  }
  const fallbackLocale = raw === null ? null : raw === "none" ? "none" : raw.split(",").map((x) => x.trim());
  return { locale, fallbackLocale };
}

/** Refuses expansions deeper than REST allows (a built select never went through parseSelect). */
export function checkExpandDepth(list: SelectList | null, depth = 0): void {
  for (const item of list?.items ?? []) {
    if (!item.expand) continue;
    if (depth >= MAX_EXPAND_DEPTH) {
      fail("invalid_select", {
        message: `select expands relations at most ${MAX_EXPAND_DEPTH} levels deep.`,
        param: "select",
        hint: 'Example: select=title,author(name,avatar),"odd,name" (relations expand up to 3 levels)',
      });
    }
    checkExpandDepth(item.expand, depth + 1);
  }
}

const quote = (ns: string) => `"${ns.replace(/"/g, '""')}"`;

/** A field name as REST select writes it: double-quoted when it holds `, ( ) " $ *` or edge spaces. */
export function selectName(ns: string): string {
  return /[,()"$*]/.test(ns) || ns.trim() !== ns ? quote(ns) : ns;
}

/** A field name as REST sort writes it: quoted when it holds `, . "` or starts with `$`, `-` or a space. */
export function sortName(ns: string): string {
  return /[,."]/.test(ns) || /^[$\- ]/.test(ns) || ns.trim() !== ns ? quote(ns) : ns;
}

/**
 * A select list as REST writes it. A field GraphQL reads in a locale of its own has no REST
 * syntax: it prints as the plain name, once.
 */
export function printSelect(list: SelectList): string {
  const items = list.items.map((i) => {
    const name = i.system ? `$${i.name}` : selectName(i.name);
    return i.expand ? `${name}(${printSelect(i.expand)})` : name;
  });
  const once = [...new Set(items)];
  return list.all ? ["*", ...once].join(",") : once.join(",");
}

/** A sort as REST writes it. */
export function printSort(terms: SortTerm[]): string {
  return terms.map((t) => `${t.desc ? "-" : ""}${t.path.map((p) => (p.system ? `$${p.name}` : sortName(p.name))).join(".")}`).join(",");
}

/** The query string of a read as REST would be sent it (`?` included, or empty), escaping only what must be. */
export function printArgs(args: ReadArgs): string {
  const pairs: [string, string][] = [];
  if (args.select) pairs.push(["select", printSelect(args.select)]);
  if (args.kind === "list") {
    if (args.where) pairs.push(["where", JSON.stringify(args.where.value)]);
    if (args.sort?.length) pairs.push(["sort", printSort(args.sort)]);
    pairs.push(["limit", String(args.limit)]);
    if (args.before !== null) pairs.push(["before", args.before]);
    else if (args.after !== null) pairs.push(["after", args.after]);
    if (args.count) pairs.push(["count", "true"]);
  }
  if (args.locale !== null) pairs.push(["locale", args.locale]);
  if (args.fallbackLocale !== null) pairs.push(["fallbackLocale", args.fallbackLocale === "none" ? "none" : args.fallbackLocale.join(",")]);
  if (pairs.length === 0) return "";
  const enc = (v: string) =>
    encodeURIComponent(v).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")").replace(/%24/g, "$").replace(/%2A/g, "*").replace(/%3A/g, ":");
  return `?${pairs.map(([k, v]) => `${k}=${enc(v)}`).join("&")}`;
}
