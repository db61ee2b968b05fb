// The entry editor: the header (title, status, Save, Publish or Unpublish, Delete), the form,
// server errors at the field they name, and a guard against leaving with unsaved changes.
import { useCallback, useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useBlocker, useNavigate, useParams } from "@tanstack/react-router";
import { api, ApiError, keys } from "../../api/client.ts";
import { entryTitle, labelOf } from "../../api/models.ts";
import type { Entry, Model } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { canEditEntries } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { EntryForm } from "./entry-form.tsx";
import { EntryDetails } from "./entry-details.tsx";
import { ConflictDialog } from "./conflict-dialog.tsx";
import { EntryToolbar } from "./entry-toolbar.tsx";
import { openPreview } from "./preview.ts";
import { LeaveDialog } from "../../ui/leave-dialog.tsx";

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

/** Splits a server error into a message per field namespace (`data.<ns>` or `<ns>`), else a general one. */
function placeError(model: Model, err: unknown): { fields: Record<string, string>; general: string | null } {
  const message = err instanceof Error ? err.message : String(err);
  // A refusal for the person's role (a role changed while the editor was open, say) is said as such.
  if (err instanceof ApiError && err.status === 403) return { fields: {}, general: `Your role cannot do this here: ${message}` };
  if (err instanceof ApiError && err.field) {
    const ns = err.field.replace(/^data\./, "").split(/[.[]/)[0]!;
    if (model.fields.some((f) => f.namespace === ns)) return { fields: { [ns]: message }, general: null };
  }
  return { fields: {}, general: message };
}

/**
 * The notice of a new entry's first Save or Publish, left for the editor that opens at the entry's
 * own URL (a fresh component), so "Saved." or "Published." is still shown and announced there.
 */
const carried = new Map<string, string>();

function Editor({ model, models, entry }: { model: Model; models: Model[]; entry: Entry | null }) {
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  // A viewer sees the entry as it is: no inputs to change and no Save, Publish or Delete.
  const readOnly = !canEditEntries(project.role);
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...(entry?.draft.data ?? {}) }));
  const [changed, setChanged] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Set after the first render, so the live region below exists before it changes and is announced.
  const entryId = entry?.id;
  useEffect(() => {
    const left = entryId ? carried.get(entryId) : undefined;
    if (!entryId || left === undefined) return;
    carried.delete(entryId);
    setNotice(left);
  }, [entryId]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [conflict, setConflict] = useState(false);
  // The version this form's values are based on, sent as If-Match so a newer save elsewhere is not overwritten unseen.
  const basedOn = useRef<{ version: number; data: Record<string, unknown> } | null>(entry ? { version: entry.version, data: entry.draft.data } : null);
  const dirty = changed.size > 0;
  // Read by the guard at navigation time; cleared at once after a save, before React re-renders.
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;

  const blocker = useBlocker({ shouldBlockFn: () => dirtyNow.current, enableBeforeUnload: () => dirtyNow.current, withResolver: true });

  // Stable across renders, so the memoised fields that did not change are not rendered again.
  const onChange = useCallback((ns: string, v: unknown) => {
    setValues((old) => ({ ...old, [ns]: v }));
    setChanged((old) => (old.has(ns) ? old : new Set(old).add(ns)));
    setErrors((old) => {
      if (!(ns in old)) return old;
      const { [ns]: _, ...rest } = old;
      return rest;
    });
  }, []);

  function fail(err: unknown) {
    if (err instanceof ApiError && err.code === "version_conflict") {
      setConflict(true);
      return;
    }
    // A Publish may have saved before it failed: lists show the saved draft either way.
    void client.invalidateQueries({ queryKey: keys.entries(project.id, model.namespace) });
    const placed = placeError(model, err);
    setErrors(placed.fields);
    setGeneral(placed.general);
    setNotice(null);
    // Move focus to the first field in error, so keyboard and screen reader users land on it.
    const first = model.fields.find((f) => placed.fields[f.namespace]);
    if (first) requestAnimationFrame(() => document.getElementById(`f-${first.id}`)?.focus());
  }

  async function refresh(e: Entry, message: string) {
    basedOn.current = { version: e.version, data: e.draft.data };
    dirtyNow.current = false;
    setChanged(new Set());
    setErrors({});
    setGeneral(null);
    setNotice(message);
    client.setQueryData(keys.entry(project.id, e.id), e);
    await client.invalidateQueries({ queryKey: keys.entries(project.id, model.namespace) });
  }

  // Stable, so the memoised details card (versions, schedule) is not rendered again per keystroke.
  const refreshNow = useRef(refresh);
  refreshNow.current = refresh;
  const onRestored = useCallback((e: Entry) => {
    // The restored values replace the form; changes not saved before are dropped.
    setValues({ ...e.draft.data });
    void refreshNow.current(e, `Restored as version ${e.version}.`);
  }, []);

  // The entry this form writes to: the one opened, or the one its first save created, so a
  // failed Publish after that save never creates a second entry.
  const savedId = useRef<string | null>(entry?.id ?? null);

  /** Saves what is on screen (creating the entry on its first save) and marks the form clean. */
  async function persist(): Promise<Entry> {
    const saved = savedId.current
      ? await api.entries.update(savedId.current, Object.fromEntries([...changed].map((ns) => [ns, values[ns] ?? null])), basedOn.current?.version)
      : await api.entries.create(model.namespace, values);
    savedId.current = saved.id;
    basedOn.current = { version: saved.version, data: saved.draft.data };
    dirtyNow.current = false;
    setChanged(new Set());
    client.setQueryData(keys.entry(project.id, saved.id), saved);
    return saved;
  }

  /** After a write: the message, fresh lists, and the entry's own URL for a new entry. */
  async function settle(e: Entry, message: string) {
    await refresh(e, message);
    if (!entry) {
      carried.set(e.id, message);
      await navigate({ to: "/content/$model/$entryId", params: { model: model.namespace, entryId: e.id }, replace: true });
    }
  }

  const save = useMutation({
    mutationFn: persist,
    onSuccess: (e) => settle(e, "Saved."),
    onError: fail,
  });

  const publish = useMutation({
    mutationFn: async (action: "publish" | "unpublish") => {
      // Publishing publishes what is on screen: unsaved changes are saved first.
      const id = savedId.current && !dirty ? savedId.current : (await persist()).id;
      return action === "publish" ? api.entries.publish(id) : api.entries.unpublish(id);
    },
    onSuccess: (e, action) => settle(e, action === "publish" ? "Published." : "Unpublished."),
    onError: fail,
  });

  const remove = useMutation({
    mutationFn: () => api.entries.remove(entry!.id),
    onSuccess: async () => {
      dirtyNow.current = false;
      setChanged(new Set());
      setConfirmDelete(false);
      client.removeQueries({ queryKey: keys.entry(project.id, entry!.id) });
      await client.invalidateQueries({ queryKey: keys.entries(project.id, model.namespace) });
      await navigate({ to: "/content/$model", params: { model: model.namespace }, search: {} });
    },
    onError: (e) => {
      setConfirmDelete(false);
      fail(e);
    },
  });

  const busy = save.isPending || publish.isPending || remove.isPending;

  // Ctrl+S (Cmd+S on a Mac) saves a draft, as in every editor (design/admin.md, The entry editor).
  const saveNow = useRef(() => save.mutate());
  saveNow.current = () => {
    if (!busy && !readOnly) save.mutate();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        saveNow.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const title = entry ? entryTitle(model, { ...entry, draft: { ...entry.draft, data: values } }) : `New ${model.name}`;
  const status = entry?.status ?? "draft";

  return (
    <>
      <EntryToolbar
        title={title}
        status={entry ? status : null}
        dirty={dirty}
        readOnly={readOnly}
        busy={busy}
        onSave={() => save.mutate()}
        onPublish={() => publish.mutate("publish")}
        onUnpublish={entry ? () => publish.mutate("unpublish") : null}
        onPreview={entry && model.previewUrl ? () => void openPreview(model, entry) : null}
        onDelete={entry ? () => setConfirmDelete(true) : null}
      />
      {readOnly && <p className="notice">Your role ({project.role}) can read this entry but not change it.</p>}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {general && (
        <p className="form-error" role="alert">
          {general}
        </p>
      )}
      {Object.keys(errors).length > 0 && (
        <p className="form-error" role="alert">
          {Object.entries(errors)
            .map(([ns, msg]) => `${labelOf(model.fields.find((f) => f.namespace === ns)!)}: ${msg}`)
            .join(" ")}
        </p>
      )}
      <EntryForm
        model={model}
        models={models}
        projectId={project.id}
        values={values}
        errors={errors}
        onChange={onChange}
        readOnly={readOnly}
        aside={entry ? <EntryDetails entry={entry} model={model} onRestored={onRestored} /> : null}
      />
      <Dialog open={confirmDelete} title="Delete this entry?" onCancel={() => setConfirmDelete(false)}>
        <p>“{title}” and all its versions will be deleted. This cannot be undone.</p>
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" onClick={() => remove.mutate()}>
            Delete
          </button>
          <button type="button" className="btn" onClick={() => setConfirmDelete(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
      {/* Mounted only while open, so every conflict reads the entry afresh (never a cached older copy). */}
      {conflict && savedId.current && (
        <ConflictDialog
          open={conflict}
          entryId={savedId.current}
          model={model}
          base={basedOn.current?.data ?? {}}
          mine={changed}
          onCancel={() => setConflict(false)}
          onReload={(current) => {
            setConflict(false);
            setValues({ ...current.draft.data });
            void refresh(current, `Reloaded version ${current.version}.`);
          }}
          onOverwrite={(current) => {
            setConflict(false);
            // Based on the newer version now: only the fields changed here replace its values.
            basedOn.current = { version: current.version, data: current.draft.data };
            save.mutate();
          }}
        />
      )}
      <LeaveDialog blocker={blocker} what="this entry" />
    </>
  );
}
