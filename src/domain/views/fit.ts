// Checking a saved view against its model. On save every part must fit (a bad one is refused
// naming it, with the list's own codes); on open, a part that no longer fits (a field removed,
// renamed or given a kind its filter or sort cannot take) is left out and named in `dropped`, so
// a view always opens and says what it lost. The saved row is never rewritten by opening it.
import { AppError, badField } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import { columnOf } from "../entries/columns.ts";
import { listOrder } from "../entries/list-order.ts";
import { compileDraftWhere } from "../entries/selection.ts";
import { printSort } from "../reads/args.ts";
import { parseSort } from "../reads/grammar.ts";

export interface DroppedPart {
  part: "columns" | "sort" | "where";
  key: string;
  message: string;
}

export interface ViewParts {
  columns: string[];
  sort: string | null;
  where: Record<string, unknown> | null;
}

/** Refuses, naming the part, a view that does not fit its model as it is now. */
export function checkView(h: ProjectHandle, m: Model, v: ViewParts): void {
  const seen = new Set<string>();
  v.columns.forEach((k, i) => {
    if (!columnOf(m, k)) badField(`columns[${i}]`, `columns[${i}] names no column of the model ${m.namespace}: ${k}`);
    if (seen.has(k)) badField(`columns[${i}]`, `columns[${i}] names ${k} a second time`);
    seen.add(k);
  });
  if (v.sort !== null && v.sort.trim() !== "") listOrder(h, m, v.sort);
  if (v.where !== null) compileDraftWhere(h, m, v.where);
}

/** The message of a refusal `fn` throws, or null when it passes. */
function refusal(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof AppError) return e.message;
    throw e;
  }
}

/** The parts of a saved view that still fit its model, and what was left out. */
export function fitView(h: ProjectHandle, m: Model, v: ViewParts): ViewParts & { dropped: DroppedPart[] } {
  const dropped: DroppedPart[] = [];
  const columns = v.columns.filter((k) => {
    if (columnOf(m, k)) return true;
    dropped.push({ part: "columns", key: k, message: `The model ${m.namespace} has no field "${k}" any more, so its column is left out.` });
    return false;
  });
  let sort: string | null = null;
  if (v.sort !== null && v.sort.trim() !== "") {
    // A sort that no longer even parses is dropped whole; otherwise term by term.
    let terms: ReturnType<typeof parseSort> = [];
    const bad = refusal(() => {
      terms = parseSort(v.sort!);
    });
    if (bad) dropped.push({ part: "sort", key: v.sort, message: bad });
    const kept = terms.filter((t) => {
      const why = refusal(() => listOrder(h, m, printSort([t])));
      if (why) dropped.push({ part: "sort", key: printSort([t]), message: why });
      return why === null;
    });
    sort = kept.length ? printSort(kept) : null;
  }
  let where: Record<string, unknown> | null = null;
  if (v.where !== null) {
    // Each top-level key is one condition the view adds: a key that no longer compiles is left out alone.
    const kept: [string, unknown][] = [];
    for (const [key, value] of Object.entries(v.where)) {
      const why = refusal(() => compileDraftWhere(h, m, { [key]: value }));
      if (why) dropped.push({ part: "where", key, message: `The filter on "${key}" is left out: ${why}` });
      else kept.push([key, value]);
    }
    where = kept.length ? Object.fromEntries(kept) : null;
  }
  return { columns, sort, where, dropped };
}
