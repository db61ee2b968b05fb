// The project the shell has chosen, for every screen inside it.
import { createContext, useContext } from "react";
import type { Project } from "../../api/types.ts";

/** The chosen project and the person's other projects. */
export interface ProjectState {
  project: Project;
  projects: Project[];
  choose(id: string): void;
}

/** Provided by the shell once a project is chosen. */
export const ProjectContext = createContext<ProjectState | null>(null);

/** The chosen project; only screens inside the shell call this. */
export function useProject(): ProjectState {
  const v = useContext(ProjectContext);
  if (!v) throw new Error("useProject is used outside the shell");
  return v;
}

const LAST = "capa.lastProject";

/** The project the person last chose in this browser (UI state, not a secret). */
export function lastProject(): string | null {
  try {
    return localStorage.getItem(LAST);
  } catch {
    return null;
  }
}

/** Remembers the chosen project in this browser. */
export function rememberProject(id: string): void {
  try {
    localStorage.setItem(LAST, id);
  } catch {
    // Storage may be off (private windows); the server remembers the current project too.
  }
}
