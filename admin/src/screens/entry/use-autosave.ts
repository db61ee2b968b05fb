// Autosave (issue 26 item 6): a few seconds after typing stops, an existing entry's changes are
// saved as an autosave (PATCH ?autosave=true replaces one's own recent autosave version instead
// of piling up versions; an unchanged draft adds none). It goes through the writer's queue with
// If-Match like every save, so it never races a manual Save. A new entry is not created by
// autosave: it waits for its first Save or Publish (its changes are kept in the tab meanwhile).
import { useEffect, useRef } from "react";

/** How long after the last change an autosave starts. */
export const AUTOSAVE_AFTER_MS = 3000;

export function useAutosave(on: boolean, values: unknown, dirty: boolean, autosave: () => Promise<void>) {
  const run = useRef(autosave);
  run.current = autosave;
  // biome-ignore lint/correctness/useExhaustiveDependencies: every change of `values` starts the wait again.
  useEffect(() => {
    if (!on || !dirty) return;
    const t = setTimeout(() => void run.current(), AUTOSAVE_AFTER_MS);
    return () => clearTimeout(t);
  }, [on, dirty, values]);
}
