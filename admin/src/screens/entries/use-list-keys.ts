// The entry list's keys (design/admin.md, Keyboard; listed by `?`): `/` focuses the search box,
// `j` and `k` move between entries, `x` ticks or unticks the entry in focus, Enter opens it (a
// link's own key).
import { type RefObject, useEffect } from "react";

/** Whether a key press is typing into a field, where letters are letters. */
function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

export function useListKeys(table: RefObject<HTMLTableElement | null>, searchId: string): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      // Not while a dialog is open over the list.
      if (document.querySelector("dialog[open]")) return;
      if (e.key === "/") {
        e.preventDefault();
        document.getElementById(searchId)?.focus();
        return;
      }
      const links = [...(table.current?.querySelectorAll<HTMLAnchorElement>("tbody td.title-cell a") ?? [])];
      if (links.length === 0) return;
      const at = links.indexOf(document.activeElement as HTMLAnchorElement);
      if (e.key === "j" || e.key === "k") {
        const next = e.key === "j" ? Math.min(links.length - 1, at + 1) : Math.max(0, at === -1 ? 0 : at - 1);
        e.preventDefault();
        links[next]?.focus();
      } else if (e.key === "x" && at >= 0) {
        e.preventDefault();
        links[at]!.closest("tr")?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.click();
        // The click moved nothing: focus stays on the entry, so j and k go on from here.
        links[at]!.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [table, searchId]);
}
