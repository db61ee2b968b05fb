// The frame (issue 27, the shell): the left rail (project switcher, workspace, the project's
// screens, the person's account menu) and, beside it, the top bar over the main area. The rail
// and the top bar stay in view on long pages, each with its own scroll; at phone widths the rail
// leaves the page and the top bar's `Menu` opens it as a dialog, which closes on navigation and
// Escape. A navigation moves focus to the new screen's main heading.
import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { api, keys, actInProject } from "../../api/client.ts";
import { meKey, profileApi } from "../../api/profile.ts";
import { lastProject, ProjectContext, rememberProject, type ProjectState } from "./project-context.ts";
import { PaletteHost } from "../palette/palette-host.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { RailContent } from "./rail-content.tsx";
import { focusHeadingSoon } from "./focus-heading.ts";
import { useNarrow } from "./use-narrow.ts";
import { useHeadingTitle, useTitle } from "./title.ts";
import { homeApi, homeKey } from "../../api/home.ts";
import { NewProject } from "../projects/new-project.tsx";

/** The shell around every signed-in screen. */
export function Shell() {
  const projects = useQuery({ queryKey: keys.projects(), queryFn: api.projects.list });
  const me = useQuery({ queryKey: meKey, queryFn: profileApi.me });
  const [chosen, setChosen] = useState<string | null>(lastProject);
  const navigate = useNavigate();
  const client = useQueryClient();
  const narrow = useNarrow();
  const [menu, setMenu] = useState(false);
  const main = useRef<HTMLElement>(null);
  // The screen shown: the location once its route has loaded (its chunk and its loaders).
  const shown = useRouterState({ select: (s) => (s.resolvedLocation ?? s.location).pathname });
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs for each new screen shown, which `shown` names.
  useEffect(() => {
    // A new screen: the menu closes, the page starts at its top, and focus goes to its heading
    // (not on the first screen after a load, where the skip link is the first stop).
    setMenu(false);
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    return main.current ? focusHeadingSoon(main.current) : undefined;
  }, [shown]);

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

  useHeadingTitle(main, state?.project.name ?? "");

  if (projects.isPending) return <p className="main">Loading…</p>;
  if (projects.isError) return <p className="main form-error">{projects.error.message}</p>;
  if (!state)
    return (
      <NoProject
        onCreated={(id) => {
          rememberProject(id);
          setChosen(id);
        }}
      />
    );

  const person = me.data ? (me.data.name ?? me.data.email) : "…";
  return (
    <ProjectContext.Provider value={state}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell">
        {!narrow && (
          <aside className="rail" aria-label="Sidebar">
            <RailContent person={person} />
          </aside>
        )}
        <div className="main-column">
          <header className="topbar">
            {narrow && (
              <button type="button" className="btn" aria-haspopup="dialog" aria-expanded={menu} onClick={() => setMenu(true)}>
                Menu
              </button>
            )}
            <span className="topbar-project" title="The project you are in">
              {state.project.name}
            </span>
            <span className="spacer" />
            <PaletteHost />
          </header>
          <main className="main" id="main" tabIndex={-1} ref={main}>
            <Outlet />
          </main>
        </div>
      </div>
      {narrow && (
        <Dialog open={menu} title="Menu" className="menu-dialog" onCancel={() => setMenu(false)}>
          {/* A link followed in the menu closes it once the link has handled the click (closing it in the
              capture phase removed the link first, and the browser then loaded the page afresh). The
              links themselves are the interactive elements; Enter on one is a click too. */}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: the click is the links', heard as it bubbles. */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: a link's Enter fires this click. */}
          <div className="rail" onClick={(e) => (e.target as HTMLElement).closest("a[href]") && queueMicrotask(() => setMenu(false))}>
            <RailContent person={person} />
          </div>
          <button type="button" className="btn menu-close" onClick={() => setMenu(false)}>
            Close menu
          </button>
        </Dialog>
      )}
    </ProjectContext.Provider>
  );
}

/** A person in no project yet: say so, and offer a project of their own when they may make one. */
function NoProject({ onCreated }: { onCreated(id: string): void }) {
  useTitle("Welcome");
  const home = useQuery({ queryKey: homeKey(null), queryFn: homeApi.get });
  return (
    <main className="main" id="main">
      <h1>Welcome to Capa</h1>
      <p>You are not a member of any project yet: an invitation from a project's owner or admin brings you in.</p>
      {home.data?.canCreateProjects && <NewProject onCreated={onCreated} />}
    </main>
  );
}
