// Focus after navigation (issue 27, the shell): a screen changed by a link, the palette or the
// menu moves focus to its main heading, so a screen reader announces where the person is and Tab
// goes on from the top of the new screen. Screens load their chunk and data first, so the
// heading is waited for (a few seconds at most). Focus the screen placed itself (an input it
// focuses, a field with an error) is left where it is.

/** How long a screen may take to show its heading. */
const WAIT_MS = 4000;

/** Whether focus is somewhere a navigation started from, or nowhere: then the heading may take it. */
function mayMove(main: HTMLElement): boolean {
  const at = document.activeElement as HTMLElement | null;
  if (!at || at === document.body || !at.isConnected || at === main) return true;
  // The rail, the top bar and the menu are where navigation starts; focus left there stays behind.
  return !!at.closest(".rail, .topbar, dialog.menu-dialog");
}

/** Moves focus to the first h1 of `main` once it shows; the answer stops waiting. */
export function focusHeadingSoon(main: HTMLElement): () => void {
  let done = false;
  const stop = () => {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
  };
  const tryNow = () => {
    if (done) return;
    const h1 = main.querySelector("h1");
    if (!h1) return;
    stop();
    // The next frame: a menu dialog closing in this one hands focus back to its button first.
    requestAnimationFrame(() => {
      if (!mayMove(main)) return;
      h1.tabIndex = -1;
      h1.focus({ preventScroll: true });
    });
  };
  const observer = new MutationObserver(tryNow);
  observer.observe(main, { childList: true, subtree: true });
  const timer = setTimeout(stop, WAIT_MS);
  tryNow();
  return stop;
}
