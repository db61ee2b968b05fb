// interface.md, GraphQL "Connections and cursors", nested connections: a page of a relation list
// is a window of the ids the parent stores. An id whose entry is deleted or unseen keeps its
// place without a node, and endCursor points past the window, so passing it always advances.
// With a sort, the window runs over the related entries that resolve, in sort order.
import { fail } from "../errors.ts";
import { instantKey } from "../domain/models/fields.ts";
import { STORED_IDS } from "../domain/reads/render.ts";
import type { RelationOrder } from "./sorts.ts";

/** Nested `first` when it is not written. */
export const NESTED_FIRST = 100;

type Obj = Record<string, unknown>;

export interface Window {
  edges: { cursor: string; node: Obj }[];
  nodes: Obj[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /**
   * The stored ids this page leaves out because they do not resolve (extensions.missingReferences):
   * those inside the window, or with a sort (where they have no place) every one of them.
   */
  omitted: string[];
}

const HINT = "Pass pageInfo.endCursor or an edge cursor of this relation exactly as returned, with the same sort.";

function bad(message: string): never {
  fail("invalid_cursor", { message, param: "after", hint: HINT });
}

const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

function decode(raw: string): unknown[] {
  if (raw.length === 0 || raw.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(raw)) bad("The cursor is not valid.");
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (Array.isArray(v)) return v;
  } catch {
    // Falls through to the refusal.
  }
  return bad("The cursor is not valid.");
}

/** A value as it is compared: dates as instants, booleans as numbers. */
function comparable(v: unknown, date: boolean): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (date) return instantKey(v) ?? null;
  return typeof v === "number" || typeof v === "string" ? v : null;
}

/** Orders (value, id) pairs: present values by the sort's direction, nulls last, ties by id in the same direction. */
function compare(a: [string | number | null, string], b: [string | number | null, string], desc: boolean): number {
  if (a[0] === null && b[0] !== null) return 1;
  if (b[0] === null && a[0] !== null) return -1;
  const d = desc ? -1 : 1;
  if (a[0] !== null && b[0] !== null && a[0] !== b[0]) return a[0] < b[0] ? -d : d;
  return a[1] === b[1] ? 0 : a[1] < b[1] ? -d : d;
}

/** The window of relation list `ns` of a parent entry, for the nested connection's arguments. */
export function relationWindow(
  parent: Obj,
  ns: string,
  idKey: string,
  args: { first?: number | null; after?: string | null; sort?: RelationOrder | null },
): Window {
  const first = args.first ?? NESTED_FIRST;
  const resolved = (Array.isArray(parent[ns]) ? parent[ns] : []) as Obj[];
  const ids = (Array.isArray(parent[STORED_IDS + ns]) ? parent[STORED_IDS + ns] : []) as string[];
  const byId = new Map(resolved.map((o) => [o[idKey] as string, o]));
  if (args.sort) return { ...sortedWindow(resolved, idKey, first, args.after ?? null, args.sort), omitted: ids.filter((id) => !byId.has(id)) };
  let start = 0;
  if (args.after) {
    const c = decode(args.after);
    if (c[0] !== "w" || typeof c[1] !== "number" || typeof c[2] !== "string") bad("The cursor was made for another sort order.");
    const [, pos, id] = c as [string, number, string];
    const at = ids[pos] === id ? pos : ids.indexOf(id);
    if (at < 0) bad("The entry the cursor points at is no longer in this relation list.");
    start = at + 1;
  }
  const win = ids.slice(start, start + first);
  const edges: Window["edges"] = [];
  const omitted: string[] = [];
  win.forEach((id, i) => {
    const node = byId.get(id);
    if (node) edges.push({ cursor: encode(["w", start + i, id]), node });
    else omitted.push(id);
  });
  return {
    omitted,
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: start + first < ids.length,
      hasPreviousPage: start > 0,
      startCursor: win.length ? encode(["w", start, win[0]]) : null,
      endCursor: win.length ? encode(["w", start + win.length - 1, win[win.length - 1]]) : null,
    },
  };
}

function sortedWindow(resolved: Obj[], idKey: string, first: number, after: string | null, order: RelationOrder): Omit<Window, "omitted"> {
  const keyed = resolved.map((o) => ({ o, k: [comparable(o[order.key], order.date), o[idKey] as string] as [string | number | null, string] }));
  keyed.sort((a, b) => compare(a.k, b.k, order.desc));
  let start = 0;
  if (after) {
    const c = decode(after);
    if (c[0] !== "s" || c[1] !== order.sig || typeof c[3] !== "string") bad("The cursor was made for another sort order.");
    const anchor: [string | number | null, string] = [c[2] as string | number | null, c[3] as string];
    start = keyed.findIndex((x) => compare(x.k, anchor, order.desc) > 0);
    if (start < 0) start = keyed.length;
  }
  const page = keyed.slice(start, start + first);
  const edges = page.map((x) => ({ cursor: encode(["s", order.sig, x.k[0], x.k[1]]), node: x.o }));
  return {
    edges,
    nodes: page.map((x) => x.o),
    pageInfo: {
      hasNextPage: start + first < keyed.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
