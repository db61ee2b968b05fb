// The frame: the left rail (project switcher, workspace, screens, the person's account menu) and
// the main area.
import { useMemo, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Outlet, useNavigate } from "@tanstack/react-router";
import { api, keys, actInProject } from "../../api/client.ts";
import { meKey, profileApi } from "../../api/profile.ts";
import { screenLinksFor } from "./screen-links.ts";
import { lastProject, ProjectContext, rememberProject, type ProjectState } from "./project-context.ts";
import { Rail } from "./rail.tsx";
import { PaletteHost } from "../palette/palette-host.tsx";
import { AccountMenu } from "./account-menu.tsx";

/** The shell around every signed-in screen. */
export function Shell() {
  const projects = useQuery({ queryKey: keys.projects(), queryFn: api.projects.list });
  const me = useQuery({ queryKey: meKey, queryFn: profileApi.me });
  const [chosen, setChosen] = useState<string | null>(lastProject);
  const navigate = useNavigate();
  const client = useQueryClient();

  const state = useMemo<ProjectState | null>(() => {
    const list = projects.data ? [...projects.data].sort((a, b) => a.name.localeCompare(b.name)) : null;
    if (!list || list.length === 0) return null;
    // The project chosen in this browser, else the one the server says was opened last.
    const byRecent = [...list].sort((a, b) => (b.lastOpenedAt ?? "").localeCompare(a.lastOpenedAt ?? ""));
    const project = list.find((p) => p.id === chosen) ?? byRecent[0]!;
    // Set before children render, so their first requests already act in this project.
    actInProject(project.id);
    return {
      project,
      projects: list,
      choose(id: string) {
        rememberProject(id);
        setChosen(id);
        actInProject(id);
        void api.projects.setCurrent(id).then(() => client.invalidateQueries({ queryKey: keys.projects() }));
        void navigate({ to: "/" });
      },
    };
  }, [projects.data, chosen, navigate, client]);

  if (projects.isPending) return <p className="main">Loading…</p>;
  if (projects.isError) return <p className="main form-error">{projects.error.message}</p>;
  if (!state) return <p className="main">You are not a member of any project yet.</p>;

  return (
    <ProjectContext.Provider value={state}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <aside className="rail" aria-label="Sidebar">
          <div className="field">
            <label htmlFor="project-switch">Project</label>
            <select id="project-switch" value={state.project.id} onChange={(e) => state.choose(e.target.value)}>
              {state.projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <PaletteHost />
          <Rail key={state.project.id} projectId={state.project.id} />
          <div className="rail-foot">
            <nav aria-label="Screens">
              <ul>
                {screenLinksFor(state.project.role).map(([path, word]) => (
                  <li key={path}>
                    <Link to={`/${path}`}>{word}</Link>
                  </li>
                ))}
              </ul>
            </nav>
            <AccountMenu name={me.data ? (me.data.name ?? me.data.email) : "…"} />
          </div>
        </aside>
        <main className="main" id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </ProjectContext.Provider>
  );
}
