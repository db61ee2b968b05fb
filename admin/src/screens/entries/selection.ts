// Which entries of a list are selected (design/admin.md, Lists): ticked one by one, a range with
// Shift (every row between the last one ticked and this one takes this one's new state, as in a
// file manager), or every entry that matches the list's filter, which may be far more than the
// page shows. Pure functions, unit-tested beside.

/** The ticked ids, the row a Shift-click ranges from, and whether every matching entry is meant. */
export interface Selection {
  ids: ReadonlySet<string>;
  anchor: string | null;
  allMatching: boolean;
}

export const EMPTY: Selection = { ids: new Set(), anchor: null, allMatching: false };

/**
 * The selection after a click on `id`'s box among `rows` (the page's ids in order). With `range`
 * and an anchor on the page, every row from the anchor to `id` takes the state `id` takes. Any
 * click leaves "all that match" (the person is choosing rows again).
 */
export function toggle(sel: Selection, rows: readonly string[], id: string, range: boolean): Selection {
  const on = !sel.ids.has(id);
  const next = new Set(sel.allMatching ? rows : sel.ids);
  const from = range && sel.anchor ? rows.indexOf(sel.anchor) : -1;
  const to = rows.indexOf(id);
  if (from >= 0 && to >= 0) {
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      if (on) next.add(rows[i]!);
      else next.delete(rows[i]!);
    }
  } else if (on) next.add(id);
  else next.delete(id);
  return { ids: next, anchor: id, allMatching: false };
}

/** Every row of the page ticked, or none when they all were. */
export function togglePage(sel: Selection, rows: readonly string[]): Selection {
  const all = rows.length > 0 && rows.every((r) => sel.ids.has(r));
  const next = new Set(sel.ids);
  for (const r of rows) {
    if (all) next.delete(r);
    else next.add(r);
  }
  return { ids: next, anchor: null, allMatching: false };
}

/** How many entries the selection acts on: the list's total when every match is meant. */
export function countOf(sel: Selection, total: number): number {
  return sel.allMatching ? total : sel.ids.size;
}
