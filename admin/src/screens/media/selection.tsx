// Which files of the library are selected (for the Selected files bar, bulk.tsx): a checkbox per
// tile or row, Shift-click selecting the range from the last file clicked (as in the entry
// lists), Select all shown, and then "Select all N that match" (every file of the folder, kind
// and search, also those not loaded yet). The selection belongs to the files shown: another
// folder, kind, search or order starts afresh.
import { type MouseEvent, useEffect, useRef, useState } from "react";
import type { MediaFile } from "../../api/media.ts";

/** The selection over `files` (in the order shown); `resetKey` changing clears it. */
export function useFileSelection(files: MediaFile[], resetKey: string) {
  const [selected, setSelected] = useState<Map<string, MediaFile>>(new Map());
  // Every file that matches, loaded or not (the bar reads them all before acting).
  const [allMatching, setAllMatching] = useState(false);
  // The index last clicked, where a Shift-click range starts.
  const anchor = useRef<number | null>(null);
  const clear = () => {
    setSelected(new Map());
    setAllMatching(false);
    anchor.current = null;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the files shown changing is the reason to clear.
  useEffect(clear, [resetKey]);

  /** A click on file `i`'s checkbox, which has already taken its new state. */
  function click(i: number, e: MouseEvent<HTMLInputElement>) {
    const on = e.currentTarget.checked;
    const from = e.shiftKey && anchor.current !== null ? Math.min(anchor.current, i) : i;
    const to = e.shiftKey && anchor.current !== null ? Math.max(anchor.current, i) : i;
    anchor.current = i;
    // A click means choosing files again: "all that match" becomes the files shown, then the click.
    const base = allMatching ? new Map(files.map((f) => [f.id, f])) : selected;
    setAllMatching(false);
    const next = new Map(base);
    for (const f of files.slice(from, to + 1)) {
      if (on) next.set(f.id, f);
      else next.delete(f.id);
    }
    setSelected(next);
  }

  const allPicked = allMatching || (files.length > 0 && files.every((f) => selected.has(f.id)));
  return {
    selected: [...selected.values()],
    allPicked,
    allMatching,
    setAll: (on: boolean) => {
      setAllMatching(false);
      setSelected(on ? new Map(files.map((f) => [f.id, f])) : new Map());
    },
    selectAllMatching: () => setAllMatching(true),
    clear,
    /** The checkbox of a file. */
    pick: (f: MediaFile) => {
      const i = files.indexOf(f);
      return (
        <input
          type="checkbox"
          className="media-pick"
          aria-label={`Select ${f.filename}`}
          checked={allMatching || selected.has(f.id)}
          // The click carries Shift; React warns about a checked box without onChange.
          onClick={(e) => click(i, e)}
          onChange={() => undefined}
        />
      );
    },
  };
}

export type FileSelection = ReturnType<typeof useFileSelection>;
