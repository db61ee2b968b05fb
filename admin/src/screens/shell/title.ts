// The document title of every screen (issue 27, the shell): the most specific part first, then the
// project and the app, so browser tabs, history and bookmarks tell screens apart:
// `<entry title> · <model> · <project> · Capa`, `Media · <project> · Capa`, `Sign in · Capa`.
import { useContext, useEffect } from "react";
import { ProjectContext } from "./project-context.ts";

/** The title of `parts` (empty ones left out) in a project, or outside any. */
export function titleOf(parts: readonly (string | null | undefined)[], project: string | null): string {
  return [...parts, project, "Capa"].filter((p): p is string => typeof p === "string" && p.trim() !== "").join(" · ");
}

/** Sets the document title while the calling screen is shown; inside the shell the project's name is added. */
export function useTitle(...parts: (string | null | undefined)[]): void {
  const project = useContext(ProjectContext)?.project.name ?? null;
  const title = titleOf(parts, project);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
