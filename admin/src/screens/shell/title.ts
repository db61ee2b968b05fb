// The document title of every screen (issue 27, the shell): the most specific part first, then the
// project and the app, so browser tabs, history and bookmarks tell screens apart:
// `<entry title> · <model> · <project> · Capa`, `Media · <project> · Capa`, `Sign in · Capa`.
// A screen with more to say than its heading calls `useTitle`; every other screen inside the
// shell is titled by its main heading (useHeadingTitle), so no screen is left with the app's
// bare name and a new screen needs nothing to get a title.
import { type RefObject, useContext, useEffect } from "react";
import { ProjectContext } from "./project-context.ts";

/** The title of `parts` (empty ones left out) in a project, or outside any. */
export function titleOf(parts: readonly (string | null | undefined)[], project: string | null): string {
  return [...parts, project, "Capa"].filter((p): p is string => typeof p === "string" && p.trim() !== "").join(" · ");
}

/** How many mounted screens set their own title; while one does, the heading does not. */
let claimed = 0;
/** The shell's heading check, run again when the last screen that titled itself goes. */
let recheck: (() => void) | null = null;

/** Sets the document title while the calling screen is shown; inside the shell the project's name is added. */
export function useTitle(...parts: (string | null | undefined)[]): void {
  const project = useContext(ProjectContext)?.project.name ?? null;
  const title = titleOf(parts, project);
  useEffect(() => {
    claimed++;
    document.title = title;
    return () => {
      claimed--;
      // The next screen's heading may have rendered while this one still held the title.
      if (claimed === 0) queueMicrotask(() => recheck?.());
    };
  }, [title]);
}

/**
 * Titles the shell's screens that do not title themselves by their main heading (`Media · Demo ·
 * Capa`), following the heading as it loads or changes.
 */
export function useHeadingTitle(main: RefObject<HTMLElement | null>, project: string): void {
  useEffect(() => {
    const at = main.current;
    if (!at) return;
    const update = () => {
      if (claimed > 0) return;
      const heading = at.querySelector("h1")?.textContent?.trim();
      if (!heading) return;
      const title = titleOf([heading], project);
      if (document.title !== title) document.title = title;
    };
    const observer = new MutationObserver(update);
    observer.observe(at, { childList: true, subtree: true, characterData: true });
    recheck = update;
    update();
    return () => {
      observer.disconnect();
      if (recheck === update) recheck = null;
    };
  }, [main, project]);
}
