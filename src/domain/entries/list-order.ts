// The order of the management list and its cursors. `sort` is the `/api` grammar (up to three keys,
// `-` for descending, a field of the model, one hop into a relation, `$` system keys), resolved by
// the read path's own resolver over the drafts; without a model only the entry's own times can
// order a list of every model. A cursor carries the sort as written and the last entry's sort
// values, so a page is read by keyset (reads/keyset.ts) at the same cost at any depth.
import { AppError, badField } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model } from "../models/catalog.ts";
import { isUuid } from "../models/fields.ts";
import { printSort } from "../reads/args.ts";
import { parseSort, type CursorValue, type SortTerm } from "../reads/grammar.ts";
import { ensureIndex } from "../reads/indexes.ts";
import { carry, resolveDigests } from "../reads/keyset.ts";
import { DRAFTS } from "../reads/names.ts";
import { resolveSort, type SortKey } from "../reads/sort.ts";
import { listReadLocale, naming } from "./selection.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";

/** A resolved order: the keys and the sort as written, which its cursors carry. */
export interface ListOrder {
  keys: SortKey[];
  text: string;
}

const LEGACY = /^(-?)(createdAt|updatedAt)$/;
const LEGACY_MESSAGE = "sort must be createdAt, -createdAt, updatedAt or -updatedAt";

/** The entry's own system times, as the list of every model orders by them. */
function legacyKey(name: string, desc: boolean): SortKey {
  return { expr: name === "createdAt" ? "e.created_at" : "e.updated_at", desc, nullable: false, sig: `${name}${desc ? "-" : "+"}` };
}

/**
 * Resolves `sort` (absent: newest first). A field sort needs the model; a bad one is refused naming
 * `sort`. A localized field sorts by its value in the locale listed (`loc`), and its cursors say so.
 */
export function listOrder(h: ProjectHandle, m: Model | null, raw: unknown, loc?: EntryLocale): ListOrder {
  if (raw === undefined || raw === "") return { keys: [legacyKey("createdAt", true)], text: "-createdAt" };
  if (typeof raw !== "string") badField("sort", LEGACY_MESSAGE);
  if (!m) {
    const legacy = LEGACY.exec(raw);
    if (!legacy) badField("sort", LEGACY_MESSAGE);
    return { keys: [legacyKey(legacy[2]!, legacy[1] === "-")], text: raw };
  }
  const terms: SortTerm[] = naming("sort", () => parseSort(raw));
  const reader = { vis: DRAFTS, readable: () => true, loc: listReadLocale(h, loc) };
  const keys = naming("sort", () => resolveSort(m, reader, allModels(h).byId, terms));
  // A sort on one field reads the same lazily made index a development key's read would.
  if (keys.length === 1 && keys[0]!.expr.startsWith("json_extract(e.")) ensureIndex(h, DRAFTS, m, keys[0]!.expr);
  // The locale is part of the order (a cursor of one locale's order is refused in another's).
  const localized = keys.some((k) => k.sig.includes("@"));
  return { keys, text: localized ? `${printSort(terms)}@${reader.loc.code}` : printSort(terms) };
}

/** The ORDER BY of a list read by page number: the keyset order, nulls last on every key, then id. */
export function orderBy(keys: SortKey[]): string {
  const last = keys[keys.length - 1]!.desc;
  return [
    ...keys.flatMap((k) => (k.nullable ? [`(${k.expr} IS NULL) ASC`, `${k.expr} ${k.desc ? "DESC" : "ASC"}`] : [`${k.expr} ${k.desc ? "DESC" : "ASC"}`])),
    `e.id ${last ? "DESC" : "ASC"}`,
  ].join(", ");
}

const GENERIC = "after must be the `next` cursor of a previous page";

/**
 * A cursor: `[sort, value, id]` when the one sort value is plain text (the form every cursor of a
 * createdAt or updatedAt order has had), else `[sort, [values], id]` with long text as a digest.
 */
export function encodeListCursor(order: ListOrder, values: unknown[], id: string): string {
  const carried = values.map(carry);
  const plain = carried.length === 1 && "v" in carried[0]! && typeof carried[0].v === "string" ? carried[0].v : null;
  const body = plain !== null ? [order.text, plain, id] : [order.text, carried.map((c) => ("d" in c ? { d: c.d } : c.v)), id];
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

/** Decodes `after` for an order, resolving digests from the entry it names; anything else is refused naming `after`. */
export function decodeListCursor(h: ProjectHandle, m: Model | null, order: ListOrder, raw: unknown): { vals: unknown[]; id: string } {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2048) badField("after", GENERIC);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    badField("after", GENERIC);
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== "string" || !isUuid(parsed[2])) badField("after", GENERIC);
  const [text, carried, id] = parsed as [string, unknown, string];
  if (text !== order.text) badField("after", `after is a cursor of the order ${text}; send the same sort as the page it came from`);
  const list = Array.isArray(carried) ? carried : [carried];
  if (list.length !== order.keys.length) badField("after", GENERIC);
  const values: CursorValue[] = list.map((v) => {
    if (v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) return { v };
    if (v && typeof v === "object" && typeof (v as { d?: unknown }).d === "string") return { d: (v as { d: string }).d };
    return badField("after", GENERIC);
  });
  if (!m) return { vals: values.map((v) => ("v" in v ? v.v : null)), id };
  try {
    return { vals: resolveDigests(h, m, DRAFTS.visible("e"), order.keys, { sig: text, values, id }, "after"), id };
  } catch (e) {
    // The entry a digest points at changed or left: the read API's sentence, in this route's shape.
    if (e instanceof AppError) badField("after", e.message);
    throw e;
  }
}
