// The first screen after sign-in (issue 27, home): what to do next. For a new project, its three
// first steps (make a model, add an entry, make a key), each a link; then the entries the person
// saved last, the scheduled actions coming up, the deliveries that failed (for roles that see
// webhooks), the project's models and the person's projects, with New project for those who may
// make one. One request: GET /v2/home.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { homeApi, homeKey } from "../../api/home.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { canEditEntries, canIntegrate, Refusal } from "../../ui/refusal.tsx";
import { NewProject } from "../projects/new-project.tsx";
import { useProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";
import { FirstSteps } from "./first-steps.tsx";
import { EVENT_WORDS } from "../../api/webhooks.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const at = (iso: string) => <time dateTime={iso}>{when.format(new Date(iso))}</time>;

/** The home screen of the project the shell has chosen. */
export function Home() {
  const { project, projects, choose } = useProject();
  useTitle("Home");
  const home = useQuery({ queryKey: homeKey(project.id), queryFn: homeApi.get });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const h = home.data;
  return (
    <>
      <div className="toolbar">
        <h1>{project.name}</h1>
        <span className="spacer" />
        {h?.canCreateProjects && <NewProject onCreated={choose} />}
      </div>
      {home.isError && <Refusal error={home.error} />}
      {!h ? (
        !home.isError && <p>Loading…</p>
      ) : (
        <div className="home-grid">
          {h.firstSteps && !h.firstSteps.done && (
            <FirstSteps
              steps={h.firstSteps}
              firstModel={models.data?.[0]?.namespace ?? null}
              canKeys={canIntegrate(project.role)}
              canWrite={canEditEntries(project.role)}
            />
          )}
          <section className="card" aria-labelledby="recent-title">
            <h2 id="recent-title">Your recent entries</h2>
            {h.recentEntries.length === 0 ? (
              <p className="muted">Entries you save show here.</p>
            ) : (
              <ul className="home-list">
                {h.recentEntries.map((e) => (
                  <li key={e.id}>
                    <Link to="/content/$model/$entryId" params={{ model: e.model, entryId: e.id }}>
                      {e.title?.trim() || "Untitled entry"}
                    </Link>{" "}
                    <span className="muted">{e.modelName}</span> <StatusBadge status={e.status} />{" "}
                    <span className="muted">saved {at(e.editedAt ?? e.updatedAt)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card" aria-labelledby="upcoming-title">
            <h2 id="upcoming-title">Coming up</h2>
            {h.scheduled.length === 0 ? (
              <p className="muted">Nothing is scheduled.</p>
            ) : (
              <ul className="home-list">
                {h.scheduled.map((s) => (
                  <li key={s.id}>
                    {s.action === "publish" ? "Publish" : "Unpublish"}{" "}
                    {s.target.type === "instance" && s.target.model ? (
                      <Link to="/content/$model/$entryId" params={{ model: s.target.model, entryId: s.target.id }}>
                        {s.target.title?.trim() || "Untitled entry"}
                      </Link>
                    ) : (
                      (s.target.title ?? "a deleted entry")
                    )}{" "}
                    <span className="muted">{at(s.runAt)}</span>
                  </li>
                ))}
              </ul>
            )}
            <Link to="/scheduled">Everything scheduled</Link>
          </section>
          {h.failedDeliveries && (
            <section className="card" aria-labelledby="failed-title">
              <h2 id="failed-title">Failed deliveries</h2>
              {h.failedDeliveries.total === 0 ? (
                <p className="muted">No webhook delivery has failed.</p>
              ) : (
                <>
                  <p>
                    {h.failedDeliveries.total === 1 ? "1 delivery failed" : `${h.failedDeliveries.total} deliveries failed`} and{" "}
                    {h.failedDeliveries.total === 1 ? "was" : "were"} not sent again.
                  </p>
                  <ul className="home-list">
                    {h.failedDeliveries.data.map((d) => (
                      <li key={d.id}>
                        <Link to="/webhooks/$webhookId" params={{ webhookId: d.endpointId }}>
                          {EVENT_WORDS[d.eventType] ?? d.eventType} to {d.url ?? "a deleted webhook"}
                        </Link>{" "}
                        <span className="muted">
                          {d.lastStatus ? `HTTP ${d.lastStatus}, ` : ""}
                          {d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`}
                          {d.failedAt ? ", " : ""}
                          {d.failedAt && at(d.failedAt)}
                        </span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </section>
          )}
          {models.data && models.data.length > 0 && (
            <section className="card" aria-labelledby="content-title">
              <h2 id="content-title">Content</h2>
              <ul className="home-list">
                {models.data.map((m) => (
                  <li key={m.id}>
                    <Link to="/content/$model" params={{ model: m.namespace }}>
                      {m.name}
                    </Link>
                    {m.description ? <span className="muted"> — {m.description}</span> : null}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <section className="card" aria-labelledby="projects-title">
            <h2 id="projects-title">Your projects</h2>
            <ul className="home-list">
              {projects.map((p) => (
                <li key={p.id}>
                  {p.id === project.id ? (
                    <span>
                      {p.name} <span className="muted">(open now)</span>
                    </span>
                  ) : (
                    <button type="button" className="btn btn-quiet" onClick={() => choose(p.id)}>
                      Open {p.name}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </>
  );
}
