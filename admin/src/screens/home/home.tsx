// The first screen after sign-in: the project's models, each opening its entry list.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { useProject } from "../shell/project-context.ts";

/** The project's home: a list of its models. */
export function Home() {
  const { project } = useProject();
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  return (
    <>
      <h1>{project.name}</h1>
      {models.isPending && <p>Loading…</p>}
      {models.data && models.data.length === 0 && <p>This project has no models yet. Create one under Models.</p>}
      {models.data && models.data.length > 0 && (
        <>
          <h2 className="muted">Content</h2>
          <ul>
            {models.data.map((m) => (
              <li key={m.id}>
                <Link to="/content/$model" params={{ model: m.namespace }}>
                  {m.name}
                </Link>
                {m.description ? <span className="muted"> — {m.description}</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
