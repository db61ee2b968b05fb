// The entry editor's two screens: an existing entry, and a new entry of a model. Both load what
// they need once and hand it to the editor (editor.tsx).
import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { canEditEntries } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { Editor } from "./editor.tsx";

/** An existing entry in the editor. */
export function EntryScreen() {
  const { project } = useProject();
  const { model: ns, entryId } = useParams({ from: "/app/content/$model/$entryId" });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const entry = useQuery({ queryKey: keys.entry(project.id, entryId), queryFn: () => api.entries.get(entryId) });
  if (models.isError || entry.isError) return <p role="alert">{(models.error ?? entry.error)?.message}</p>;
  const model = models.data?.find((m) => m.namespace === ns);
  if (!models.data || !entry.data) return <p>Loading…</p>;
  if (!model) return <p role="alert">No model “{ns}” in this project.</p>;
  // Keyed by entry: another entry starts a fresh form; a save keeps what is on screen.
  return <Editor key={entry.data.id} model={model} models={models.data} entry={entry.data} />;
}

/** A new entry of a model. */
export function NewEntryScreen() {
  const { project } = useProject();
  const { model: ns } = useParams({ from: "/app/content/$model/new" });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  // A viewer reads entries only: the screen says so instead of a form the server would refuse.
  if (!canEditEntries(project.role)) {
    return (
      <>
        <h1>New entry</h1>
        <p className="notice">Your role ({project.role}) can read entries but not write them. Owners, admins, developers and editors can.</p>
      </>
    );
  }
  if (!models.data) return <p>Loading…</p>;
  const model = models.data.find((m) => m.namespace === ns);
  if (!model) return <p role="alert">No model “{ns}” in this project.</p>;
  return <Editor model={model} models={models.data} entry={null} />;
}
