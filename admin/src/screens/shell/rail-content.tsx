// What the rail holds, in the sidebar on wide screens and in the menu dialog on phones: the
// project switcher, the content (the workspace's tree or every model, with their saved views),
// the project's own screens under their own heading (so a model called "Settings" is never taken
// for the Settings screen), and the person's account menu.
import { Link } from "@tanstack/react-router";
import { useProject } from "./project-context.ts";
import { Rail } from "./rail.tsx";
import { screenLinksFor } from "./screen-links.ts";
import { AccountMenu } from "./account-menu.tsx";

/** The rail's parts; `person` is the signed-in person's name or e-mail. */
export function RailContent({ person }: { person: string }) {
  const state = useProject();
  return (
    <>
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
      <Rail key={state.project.id} projectId={state.project.id} />
      <div className="rail-foot">
        <nav aria-label="Screens" className="rail-screens">
          <p className="section-title" aria-hidden="true">
            Project
          </p>
          <ul>
            {screenLinksFor(state.project.role).map(([path, word]) => (
              <li key={path}>
                <Link to={`/${path}`}>{word}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <AccountMenu name={person} />
      </div>
    </>
  );
}
