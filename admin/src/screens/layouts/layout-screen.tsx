// The entry layout of one model (/admin/models/<id>/layout). Owners, admins and developers edit
// it (decisions.md 2: layouts are theirs, `model:update` on the route); everyone else sees the
// preview of the editor it produces and one sentence saying who changes it.
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { canShape } from "../models/models-screen.tsx";
import { LayoutEditor } from "./layout-editor.tsx";
import { LayoutPreview } from "./layout-preview.tsx";

/** The layout screen of a model. */
export function LayoutScreen() {
  const { modelId } = useParams({ from: "/app/models/$modelId/layout" });
  const { project } = useProject();
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const model = models.data?.find((m) => m.id === modelId);
  if (models.isError) return <Refusal error={models.error} />;
  if (!models.data) return <p>Loading…</p>;
  if (!model) return <p role="alert">This model does not exist (any more) in {project.name}.</p>;
  const edit = canShape(project.role);
  return (
    <>
      <p>
        <Link to="/models/$modelId" params={{ modelId: model.id }}>
          Back to {model.name}
        </Link>
      </p>
      <div className="toolbar">
        <h1>Layout of {model.name}</h1>
        <span className="mono muted">{model.namespace}</span>
      </div>
      {edit ? (
        <LayoutEditor key={model.id} model={model} models={models.data} projectId={project.id} />
      ) : (
        <>
          <p className="notice">Your role ({project.role}) can see this layout; owners, admins and developers change it.</p>
          <LayoutPreview model={model} models={models.data} projectId={project.id} layout={model.layout} />
        </>
      )}
    </>
  );
}
