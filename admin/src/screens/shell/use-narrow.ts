// Whether the window is narrow (a phone): the rail then leaves the page for the menu dialog. The
// width matches the stylesheet's breakpoint (shell.css), so layout and markup switch together.
import { useSyncExternalStore } from "react";

/** The breakpoint of the narrow layout, as in shell.css. */
export const NARROW = "(max-width: 720px)";

function subscribe(fn: () => void): () => void {
  const q = window.matchMedia(NARROW);
  q.addEventListener("change", fn);
  return () => q.removeEventListener("change", fn);
}

/** True at phone widths; follows the window as it is resized or turned. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
}
