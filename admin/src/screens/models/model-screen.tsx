// One model: its name, description and single-entry switch, and its fields (add, edit, remove,
// reorder, each a PATCH /v2/models/:id). An edit that answers 409 field_change_required opens the plan.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { api, ApiError, keys } from "../../api/client.ts";
import { changeApi, type FieldEdit, modelApi, type Plan } from "../../api/model-admin.ts";
import type { Field, Model } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { Field as LabelledField } from "../../ui/field.tsx";
import { FieldForm } from "./field-form.tsx";
import { FieldsTable } from "./fields-table.tsx";
import { canShape } from "./models-screen.tsx";
import { PlanView } from "./plan-view.tsx";
import { ChangeProgress } from "./change-progress.tsx";
import { ChangeHistory, historyKey } from "./change-history.tsx";

function Details({ model, shape }: { model: Model; shape: boolean }) {
  const { project } = useProject();
  const client = useQueryClient();
  const [name, setName] = useState(model.name);
  const [description, setDescription] = useState(model.description ?? "");
  const [single, setSingle] = useState(model.singleEntry);
  const [previewUrl, setPreviewUrl] = useState(model.previewUrl ?? "");
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => modelApi.update(model.id, { name, description: description || null, singleEntry: single, previewUrl: previewUrl.trim() || null }),
    onSuccess: () => {
      setSaved(true);
      void client.invalidateQueries({ queryKey: keys.models(project.id) });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    save.mutate();
  }
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="model-details-title">
      <h2 id="model-details-title">Details</h2>
      <div className="field">
        <label htmlFor="model-edit-name">Name</label>
        <input id="model-edit-name" value={name} readOnly={!shape} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="model-edit-description">Description</label>
        <textarea id="model-edit-description" value={description} readOnly={!shape} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <label>
        <input type="checkbox" checked={single} disabled={!shape} onChange={(e) => setSingle(e.target.checked)} /> Single entry
      </label>
      <LabelledField
        id="model-edit-preview"
        label="Preview URL"
        hint={
          <>
            The page of your site that shows a draft, for the editor's preview pane. Placeholders: <code>{"{token}"}</code> (a preview token, valid an hour),{" "}
            <code>{"{id}"}</code>, <code>{"{model}"}</code> and <code>{"{<field>}"}</code> (a field's value by namespace, such as <code>{"{slug}"}</code>). For
            example <code>{"https://site.example/blog/{slug}?preview={token}"}</code>. Empty: no preview.
          </>
        }
        error={save.error instanceof ApiError && save.error.field === "previewUrl" ? save.error.message : null}
      >
        {(aria) => <input {...aria} type="url" value={previewUrl} readOnly={!shape} onChange={(e) => setPreviewUrl(e.target.value)} />}
      </LabelledField>
      {save.error && !(save.error instanceof ApiError && save.error.field === "previewUrl") && <Refusal error={save.error} />}
      <div aria-live="polite">{saved && <p className="notice">Model saved.</p>}</div>
      {shape && (
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save details
          </button>
        </div>
      )}
    </form>
  );
}

type Open =
  | { kind: "add" }
  | { kind: "edit"; field: Field }
  | { kind: "remove"; field: Field }
  | { kind: "plan"; field: Field; plan: Plan; edit: FieldEdit }
  | null;

/** The screen of one model. */
export function ModelScreen() {
  const { modelId } = useParams({ from: "/app/models/$modelId" });
  const { project } = useProject();
  const client = useQueryClient();
  const shape = canShape(project.role);
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const model = models.data?.find((m) => m.id === modelId);
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [started, setChangeId] = useState<string | null>(null);
  // A change still running when the screen opens (after a reload, or started elsewhere) is
  // followed too; one started here takes its place.
  const running = useQuery({ queryKey: ["field-change-current", project.id, modelId], queryFn: () => changeApi.current(modelId) });
  const changeId = started ?? running.data?.id ?? null;
  const done = (message: string) => {
    setOpen(null);
    setNotice(message);
    void client.invalidateQueries({ queryKey: keys.models(project.id) });
  };
  const change = useMutation({
    mutationFn: async (v: { patch: Parameters<typeof modelApi.update>[1]; message: string; field?: Field }) => {
      try {
        await modelApi.update(modelId, v.patch);
        return { message: v.message };
      } catch (e) {
        // A shape change on a model with entries needs a plan: fetch it and show it instead.
        if (e instanceof ApiError && e.code === "field_change_required" && v.field && v.patch.editFields) {
          return { plan: await modelApi.plan(modelId, { editFields: v.patch.editFields }), field: v.field, edit: v.patch.editFields[0]! };
        }
        throw e;
      }
    },
    onSuccess: (r) => {
      if ("plan" in r && r.plan) setOpen({ kind: "plan", field: r.field!, plan: r.plan, edit: r.edit! });
      else done(r.message!);
    },
  });
  const apiError =
    change.error instanceof ApiError
      ? { field: change.error.field, message: change.error.message }
      : change.error
        ? { field: null, message: change.error.message }
        : null;

  if (models.isError) return <Refusal error={models.error} />;
  if (!models.data) return <p>Loading…</p>;
  if (!model) return <p role="alert">This model does not exist (any more) in {project.name}.</p>;
  const close = () => {
    change.reset();
    setOpen(null);
  };
  return (
    <>
      <p>
        <Link to="/models">All models</Link>
      </p>
      <div className="toolbar">
        <h1>{model.name}</h1>
        <span className="mono muted">{model.namespace}</span>
        <span className="spacer" />
        <Link className="btn" to="/models/$modelId/layout" params={{ modelId: model.id }}>
          {shape ? "Edit layout" : "View layout"}
        </Link>
        <Link className="btn" to="/content/$model" params={{ model: model.namespace }}>
          Open entries
        </Link>
      </div>
      <Details key={model.id} model={model} shape={shape} />
      {changeId && <ChangeProgress id={changeId} project={project.id} />}
      <section className="screen-section" aria-labelledby="fields-title">
        <div className="toolbar">
          <h2 id="fields-title">Fields</h2>
          <span className="spacer" />
          {shape && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                change.reset();
                setOpen({ kind: "add" });
              }}
            >
              Add field
            </button>
          )}
        </div>
        <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
        {model.fields.length === 0 ? (
          <p>No fields yet. Use “Add field”.</p>
        ) : (
          <FieldsTable
            model={model}
            models={models.data}
            shape={shape}
            busy={change.isPending}
            onEdit={(f) => {
              change.reset();
              setOpen({ kind: "edit", field: f });
            }}
            onRemove={(f) => {
              change.reset();
              setOpen({ kind: "remove", field: f });
            }}
            onOrder={(fieldOrder, f, words) => change.mutate({ patch: { fieldOrder }, message: `Field ${f.namespace} ${words}.` })}
          />
        )}
        {/* A refused reorder has no dialog to show it in. */}
        {!open && change.error && <Refusal error={change.error} />}
      </section>
      <ChangeHistory
        model={model}
        project={project.id}
        shape={shape}
        onResumed={(c) => {
          // The progress card follows the resumed change; it may be the one it already shows.
          client.setQueryData(["field-change", project.id, c.id], c);
          setChangeId(c.id);
        }}
      />
      <Dialog open={open?.kind === "add"} title="Add field" onCancel={close}>
        {open?.kind === "add" && (
          <FieldForm
            models={models.data}
            fields={model.fields}
            busy={change.isPending}
            submitWord="Add field"
            error={apiError}
            onCancel={close}
            onSubmit={(f) => change.mutate({ patch: { addFields: [f] }, message: `Field ${f.namespace} added.` })}
          />
        )}
      </Dialog>
      <Dialog open={open?.kind === "edit"} title={`Edit ${open?.kind === "edit" ? open.field.namespace : ""}`} onCancel={close}>
        {open?.kind === "edit" && (
          <FieldForm
            models={models.data}
            fields={model.fields}
            initial={open.field}
            busy={change.isPending}
            submitWord="Save field"
            error={apiError}
            onCancel={close}
            onSubmit={(f) => change.mutate({ patch: { editFields: [{ ...f, id: open.field.id }] }, message: `Field ${f.namespace} saved.`, field: open.field })}
          />
        )}
      </Dialog>
      <Dialog open={open?.kind === "plan"} title={`Change ${open?.kind === "plan" ? open.field.namespace : ""}: the plan`} onCancel={close}>
        {open?.kind === "plan" && (
          <PlanView
            modelId={model.id}
            plan={open.plan}
            editFields={[open.edit]}
            onCancel={close}
            onApplied={(c) => {
              setChangeId(c.id);
              void client.invalidateQueries({ queryKey: historyKey(project.id, model.id) });
              done(`The change of ${open.field.namespace} is ${c.state}; the entries are converted in the background.`);
            }}
          />
        )}
      </Dialog>
      <Dialog open={open?.kind === "remove"} title={`Remove ${open?.kind === "remove" ? open.field.namespace : ""}?`} onCancel={close}>
        {open?.kind === "remove" && (
          <>
            <p>The field and every value of it in every entry of {model.name} go. This cannot be undone.</p>
            {change.error && <Refusal error={change.error} />}
            <div className="toolbar">
              <button
                type="button"
                className="btn btn-danger-solid"
                disabled={change.isPending}
                onClick={() => change.mutate({ patch: { removeIds: [open.field.id] }, message: `Field ${open.field.namespace} removed.` })}
              >
                Remove
              </button>
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
            </div>
          </>
        )}
      </Dialog>
    </>
  );
}
