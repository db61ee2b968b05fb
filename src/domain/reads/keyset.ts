// Keyset paging: a page is "the next n rows after the cursor's sort values and id", read with a
// condition an index can seek on, never with OFFSET, so page 400 costs what page 1 does. Also
// the cursor's values: a long text value travels as a digest and is re-read from the entry it
// points at, which refuses the cursor if that entry changed since the page was read.
import { fail } from "../../errors.ts";
import { sha256Hex } from "../../infra/crypto.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import { MAX_CURSOR_VALUE_BYTES, type Cursor, type CursorValue } from "./grammar.ts";
import type { EntryRowOut } from "./names.ts";
import type { SortKey } from "./sort.ts";

const CHANGED = "The entry the cursor points at has changed since the page was read.";

/** A sort value as a cursor carries it: as is, or a digest when it is too long. */
export function carry(v: unknown): CursorValue {
  if (typeof v === "string" && Buffer.byteLength(v) > MAX_CURSOR_VALUE_BYTES) return { d: sha256Hex(v).slice(0, 32) };
  return { v: v as string | number | null };
}

/** Replaces digests in a cursor by the anchor entry's current values; a changed or gone anchor is refused. `visible`: the read's visibility clause of `e`. */
export function resolveDigests(h: ProjectHandle, m: Model, visible: string, keys: SortKey[], c: Cursor, param: string): unknown[] {
  if (!c.values.some((v) => "d" in v)) return c.values.map((v) => ("v" in v ? v.v : null));
  const row = h.sqlite
    .query(`SELECT ${keys.map((k, i) => `${k.expr} AS s${i}`).join(", ")} FROM entries e WHERE e.id = ? AND e.model_id = '${m.id}' AND ${visible}`)
    .get(c.id) as Record<string, unknown> | null;
  if (!row) fail("invalid_cursor", { message: CHANGED, param });
  return c.values.map((v, i) => {
    if ("v" in v) return v.v;
    const cur = row[`s${i}`];
    if (typeof cur !== "string" || sha256Hex(cur).slice(0, 32) !== v.d) fail("invalid_cursor", { message: CHANGED, param });
    return cur;
  });
}

/**
 * The keyset condition "after (v1, ..., id) in this direction" in expanded form,
 * `x <= ? AND (x < ? OR e.id < ?)` for descending travel (the mirror for ascending; one more
 * level per further key). It means the same as the row value `(x, e.id) < (?, ?)`, but SQLite
 * seeks into an expression index only on a plain comparison of the expression: with the row
 * value a cursor page walked every earlier entry of the model (page 390 of 10,000 entries took
 * 0.8 ms, now 0.2 ms like page 1). The leading bound is what gives the index range; the rest
 * picks the exact position inside it.
 */
/**
 * A one-hop sort key is a correlated subquery that no index can hold (and a locale's status or
 * publishedAt a CASE, which none does either): the expanded form would only evaluate it more
 * often per row (about 20% slower at 10,000 entries), so it keeps the row value.
 */
const rowValued = (col: string) => col.startsWith("(SELECT") || col.startsWith("(CASE WHEN e.locale_state");

function seekBeyond(cols: string[], cmp: "<" | ">", vals: unknown[]): [string, unknown[]] {
  if (rowValued(cols[0]!)) return [`(${cols.join(", ")}) ${cmp} (${cols.map(() => "?").join(", ")})`, vals];
  const p: unknown[] = [];
  // Under `x <= v`, "x < v OR (x = v AND rest)" is "x < v OR rest", since rest is only reached
  // when x = v: one evaluation of the expression less per row (the statement of page 400 of
  // 100,000 entries went from 70 to 45 us of CPU; page 1 takes 33 us).
  const nest = (i: number): string => {
    p.push(vals[i]);
    if (i === cols.length - 1) return `${cols[i]} ${cmp} ?`;
    p.push(vals[i]);
    return `${cols[i]} ${cmp}= ? AND (${cols[i]} ${cmp} ? OR ${nest(i + 1)})`;
  };
  return [nest(0), p];
}

/**
 * Runs the keyset query. The list order is: rows whose first sort value is present, ordered by
 * the sort keys and id; then rows where it is null, ordered by id (nulls last in both
 * directions). One sort key (or several non-null keys of one direction) read as one or two
 * index range scans; other combinations use the general lexicographic condition.
 */
export function fetchPage(
  h: ProjectHandle,
  select: string,
  params: unknown[],
  keys: SortKey[],
  anchor: { vals: unknown[]; id: string } | null,
  backward: boolean,
  fromEnd: boolean,
  want: number,
): EntryRowOut[] {
  const run = (where: string, order: string, p: unknown[], n: number) =>
    h.sqlite.query(`${select} AND ${where} ORDER BY ${order} LIMIT ${n}`).all(...([...params, ...p] as never[])) as EntryRowOut[];
  const simple = keys.length === 1 || (keys.every((k) => !k.nullable) && keys.every((k) => k.desc === keys[0]!.desc));
  if (simple) {
    const desc = keys[0]!.desc;
    const nullable = keys[0]!.nullable;
    const cols = [...keys.map((k) => k.expr), "e.id"];
    // Direction of travel through the list: forward reads in list order, backward in reverse.
    const down = desc !== backward;
    const order = (exprs: string[]) => exprs.map((x) => `${x} ${down ? "DESC" : "ASC"}`).join(", ");
    const cmp = down ? "<" : ">";
    const beyond = (vals: unknown[], id: string) => seekBeyond(cols, cmp, [...vals, id]);
    const valuesRegion = (cond: string, p: unknown[], n: number, by = cols) =>
      run(`${nullable ? `${keys[0]!.expr} IS NOT NULL AND ` : ""}${cond}`, order(by), p, n);
    const nullRegion = (cond: string, p: unknown[], n: number) => (nullable ? run(`${keys[0]!.expr} IS NULL AND ${cond}`, order(["e.id"]), p, n) : []);
    const anchorNull = anchor !== null && anchor.vals[0] === null;
    // One key: the entries that share the anchor's value (after its id), then those beyond the
    // value, each an exact seek on (model_id, x, id). In one statement, `x <= v AND (x < v OR
    // e.id < ?)`, SQLite seeks to the value and then reads every entry of it before the anchor,
    // each with its table row: 137 entries a day in the bench's 100,000 posts, and page 400 took
    // 410 us against 87 for page 1. The second statement runs only when the first leaves room.
    const afterAnchor = (a: { vals: unknown[]; id: string }, n: number): EntryRowOut[] => {
      if (cols.length !== 2 || rowValued(cols[0]!)) return valuesRegion(...beyond(a.vals, a.id), n);
      // Ordered by id alone: with the value fixed SQLite reads the index in order (ordered by the
      // value too, it sorted every entry of the value in a temporary tree). `= +?`: with a bare
      // parameter SQLite spent about 13 us more on every run of the statement than with a literal
      // (page 400 took 1.25x page 1); `+?` is the same value, compared the same way, on the same seek.
      const same = valuesRegion(`${cols[0]} = +? AND e.id ${cmp} ?`, [a.vals[0], a.id], n, ["e.id"]);
      return same.length < n ? [...same, ...valuesRegion(`${cols[0]} ${cmp} ?`, [a.vals[0]], n - same.length)] : same;
    };
    if (!backward) {
      if (anchor && anchorNull) return nullRegion(`e.id ${cmp} ?`, [anchor.id], want);
      const first = anchor ? afterAnchor(anchor, want) : valuesRegion("1", [], want);
      return first.length < want ? [...first, ...nullRegion("1", [], want - first.length)] : first;
    }
    // Backward: the null region (reversed) comes first, then the values region reversed.
    if (anchor && !anchorNull) return afterAnchor(anchor, want);
    const nulls = fromEnd || !anchor ? nullRegion("1", [], want) : nullRegion(`e.id ${cmp} ?`, [anchor.id], want);
    return nulls.length < want ? [...nulls, ...valuesRegion("1", [], want - nulls.length)] : nulls;
  }
  // General case: ORDER BY with nulls last per key and the lexicographic keyset condition.
  const lastDesc = keys[keys.length - 1]!.desc;
  const flip = (d: boolean) => (backward ? !d : d);
  const order = [
    ...keys.flatMap((k) =>
      k.nullable
        ? [`(${k.expr} IS NULL) ${backward ? "DESC" : "ASC"}`, `${k.expr} ${flip(k.desc) ? "DESC" : "ASC"}`]
        : [`${k.expr} ${flip(k.desc) ? "DESC" : "ASC"}`],
    ),
    `e.id ${flip(lastDesc) ? "DESC" : "ASC"}`,
  ].join(", ");
  if (!anchor) return run("1", order, [], want);
  const p: unknown[] = [];
  const build = (i: number): string => {
    if (i === keys.length) {
      p.push(anchor.id);
      return `e.id ${flip(lastDesc) ? "<" : ">"} ?`;
    }
    const k = keys[i]!;
    const v = anchor.vals[i];
    const d = flip(k.desc);
    let beyond: string;
    let same: string;
    if (v === null) {
      // Forward from a null: nothing beyond on this key; backward: every present value is beyond.
      beyond = backward ? `${k.expr} IS NOT NULL` : "0";
      same = `${k.expr} IS NULL`;
    } else {
      p.push(v);
      beyond = backward ? `(${k.expr} ${d ? "<" : ">"} ?)` : `(${k.expr} IS NULL OR ${k.expr} ${d ? "<" : ">"} ?)`;
      p.push(v);
      same = `${k.expr} = ?`;
    }
    return `(${beyond} OR (${same} AND ${build(i + 1)}))`;
  };
  return run(build(0), order, p, want);
}
