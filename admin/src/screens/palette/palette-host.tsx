// The keys that work on every screen (design/admin.md, The frame): Ctrl/Cmd+K opens the command
// palette and `?` the list of shortcuts. Both are loaded when first opened, so the first screen
// carries only this listener and the button.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";

const CommandPalette = lazy(() => import("./command-palette.tsx").then((m) => ({ default: m.CommandPalette })));
const Shortcuts = lazy(() => import("./shortcuts.tsx").then((m) => ({ default: m.Shortcuts })));

/** Whether a key press is typing into a field (where `?` is a character, not a shortcut). */
function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

/** The palette's button for pointer users, and both overlays. */
export function PaletteHost() {
  const [open, setOpen] = useState<"palette" | "shortcuts" | null>(null);
  // Focus goes back where it was when an overlay closes.
  const before = useRef<HTMLElement | null>(null);
  const show = useCallback((which: "palette" | "shortcuts") => {
    if (document.activeElement instanceof HTMLElement && !document.activeElement.closest("dialog")) before.current = document.activeElement;
    setOpen(which);
  }, []);
  const close = useCallback(() => {
    setOpen(null);
    requestAnimationFrame(() => before.current?.focus());
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A key already taken (Ctrl+K makes a link in rich text) is not the palette's.
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        show("palette");
      } else if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
        e.preventDefault();
        show("shortcuts");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [show]);

  return (
    <>
      <button type="button" className="btn palette-button" aria-keyshortcuts="Control+K Meta+K" onClick={() => show("palette")}>
        Search and commands <kbd>Ctrl K</kbd>
      </button>
      <Suspense fallback={null}>
        {open === "palette" && <CommandPalette onClose={close} onShortcuts={() => setOpen("shortcuts")} />}
        {open === "shortcuts" && <Shortcuts onClose={close} />}
      </Suspense>
    </>
  );
}
