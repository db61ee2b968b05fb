// The person's projects with their role in each and when they last opened it (issue 14 item 9),
// from the list the shell already holds; `Open` switches to one.
import type { Project } from "../../api/types.ts";
import { ROLE_WORDS } from "../../api/people.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The overview table. */
export function ProjectsOverview(props: { projects: Project[]; current: string; choose(id: string): void }) {
  return (
    <section className="screen-section" aria-labelledby="projects-title">
      <h2 id="projects-title">Your projects</h2>
      <table>
        <caption className="visually-hidden">Your projects</caption>
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col">Your role</th>
            <th scope="col">Last opened</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.projects.map((p) => (
            <tr key={p.id}>
              <th scope="row">
                {p.name} <span className="mono muted">{p.slug}</span>
              </th>
              <td>{ROLE_WORDS[p.role] ?? p.role}</td>
              <td>{p.lastOpenedAt ? <time dateTime={p.lastOpenedAt}>{when.format(new Date(p.lastOpenedAt))}</time> : <span className="muted">Never</span>}</td>
              <td>
                {p.id === props.current ? (
                  <span className="muted">Open now</span>
                ) : (
                  <button type="button" className="btn btn-quiet" aria-label={`Open ${p.name}`} onClick={() => props.choose(p.id)}>
                    Open
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
