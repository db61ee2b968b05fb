// Keeping the stored text of a rich text field (issue 26 item 5): "opening and saving without an
// edit keeps the stored Markdown or HTML byte for byte, and an edit changes only what was edited".
//
// The editor cannot write the stored text back by itself: parsing and serialising normalise it
// (`*` bullets become `-`, `__bold__` becomes `**bold**`, attributes change quotes, unknown HTML
// is dropped). So the text saved after an edit is a three-way merge:
//   base   = serialise(parse(stored))   what the editor would have written for the text as opened
//   ours   = stored                     the person's (or a script's) own way of writing it
//   theirs = serialise(edited document) what the editor writes now
// The differences base→ours are the stored text's own style; the differences base→theirs are
// the edit. Where they do not touch, both are kept, so every byte outside the edit stays as
// stored; where they touch, the edit wins for that stretch only. A pure function, so it is
// unit-tested without a browser (test/admin/rich-text-merge.test.ts).
import diff from "fast-diff";

/** A stretch of `base` ([start, end)) replaced by `text`, from side 0 (ours) or side 1 (theirs). */
interface Hunk {
  start: number;
  end: number;
  text: string;
  side: 0 | 1;
}

/** The changes that turn `base` into `other`, as hunks in `base`'s positions. */
function hunks(base: string, other: string, side: 0 | 1): Hunk[] {
  const out: Hunk[] = [];
  let pos = 0;
  let cur: Hunk | null = null;
  for (const [op, s] of diff(base, other)) {
    if (op === 0) {
      if (cur) out.push(cur);
      cur = null;
      pos += s.length;
      continue;
    }
    cur ??= { start: pos, end: pos, text: "", side };
    if (op === -1) {
      pos += s.length;
      cur.end = pos;
    } else cur.text += s;
  }
  if (cur) out.push(cur);
  return out;
}

/** `base[start, end)` with the hunks of one side applied (hunks sorted, inside the range). */
function apply(base: string, start: number, end: number, hs: Hunk[]): string {
  let out = "";
  let pos = start;
  for (const h of hs) {
    out += base.slice(pos, h.start) + h.text;
    pos = h.end;
  }
  return out + base.slice(pos, end);
}

/**
 * Merges an edit (`theirs`, against `base`) into `ours`: every change of either side is kept;
 * where a change of ours touches a change of theirs, theirs is taken for that stretch.
 */
export function merge3(base: string, ours: string, theirs: string): string {
  if (theirs === base) return ours;
  if (ours === base) return theirs;
  const all = [...hunks(base, ours, 0), ...hunks(base, theirs, 1)].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let pos = 0;
  let i = 0;
  while (i < all.length) {
    // A cluster: hunks that overlap or touch (an insertion at the edge of another counts).
    const cluster = [all[i]!];
    let end = all[i]!.end;
    i++;
    while (i < all.length && all[i]!.start <= end) {
      cluster.push(all[i]!);
      end = Math.max(end, all[i]!.end);
      i++;
    }
    const start = cluster[0]!.start;
    const mine = cluster.filter((h) => h.side === 0);
    const edit = cluster.filter((h) => h.side === 1);
    out += base.slice(pos, start) + apply(base, start, end, edit.length > 0 ? edit : mine);
    pos = end;
  }
  return out + base.slice(pos);
}
