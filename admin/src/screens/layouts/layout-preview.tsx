// The live preview: the entry editor's own form (screens/entry/entry-form.tsx) drawn with the
// layout being edited and empty values, so what people see here is what editors will get.
// Values typed into the preview stay in the page; nothing is saved.
import { useCallback, useState } from "react";
import type { Layout, Model } from "../../api/types.ts";
import { EntryForm } from "../entry/entry-form.tsx";

/** The entry editor of `model` as `layout` lays it out. */
export function LayoutPreview({ model, models, projectId, layout }: { model: Model; models: Model[]; projectId: string; layout: Layout | null }) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  const onChange = useCallback((ns: string, v: unknown) => setValues((old) => ({ ...old, [ns]: v })), []);
  // A card's folding is read when it first renders, so a change to it draws the form afresh.
  const folding = layout ? [...layout.main, ...layout.aside].map((c) => `${c.id}:${c.collapsible}:${c.collapsed}`).join(",") : "plain";
  return (
    <section className="screen-section layout-preview" aria-labelledby="layout-preview-title">
      <h2 id="layout-preview-title">Preview</h2>
      <p className="muted">
        The editor of a new {model.name} entry with this layout. Values typed here are not saved.
        {layout && layout.main.length + layout.aside.length === 0 ? " With no cards, the editor shows every field in one column." : ""}
      </p>
      <EntryForm key={folding} model={{ ...model, layout }} models={models} projectId={projectId} values={values} errors={{}} onChange={onChange} />
    </section>
  );
}
