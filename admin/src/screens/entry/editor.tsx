// The entry editor: the header (title, status, Save, Publish or Unpublish, Preview, Delete), the
// form, server errors at the fields they name, the live preview pane, the offer to restore
// unsaved changes found in this tab, and the guards against leaving with unsaved changes.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useBlocker } from "@tanstack/react-router";
import { entryTitle, labelOf } from "../../api/models.ts";
import type { Entry, Model } from "../../api/types.ts";
import { LeaveDialog } from "../../ui/leave-dialog.tsx";
import { canEditEntries } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { ConflictDialog } from "./conflict-dialog.tsx";
import { DeleteDialog } from "./delete-dialog.tsx";
import { type Backup, backupKey, differing, dropBackup, readBackup, writeBackup } from "./draft-backup.ts";
import { EntryDetails } from "./entry-details.tsx";
import { EntryForm } from "./entry-form.tsx";
import { EntryToolbar } from "./entry-toolbar.tsx";
import { useTitle } from "../shell/title.ts";
import { PreviewPane } from "./preview-pane.tsx";
import { PublishPanel } from "./publish-panel.tsx";
import { useAutosave } from "./use-autosave.ts";
import { useLiveRules } from "./use-live-rules.ts";
import { fieldOf } from "../../api/editing.ts";
import { RestorePrompt } from "./restore-prompt.tsx";
import { useDraft } from "./use-draft.ts";
import { useEditorLocales } from "./editor-locales.tsx";
import { useEntryLocales } from "./locale-context.ts";
import { carried, useEntryWriter, type Writer } from "./use-entry-writer.ts";

/** How long after the last change the unsaved values are copied to this tab's storage. */
const BACKUP_AFTER_MS = 600;

/** The values a new entry starts with: the fields' defaults (decisions.md 15). */
function defaults(model: Model): Record<string, unknown> {
  return Object.fromEntries(model.fields.filter((f) => f.default !== undefined && f.default !== null).map((f) => [f.namespace, f.default]));
}

export function Editor({ model, models, entry, compare }: { model: Model; models: Model[]; entry: Entry | null; compare: string | null }) {
  const { project } = useProject();
  // A viewer sees the entry as it is: no inputs to change and no Save, Publish or Delete.
  const readOnly = !canEditEntries(project.role);
  const writer = useRef<Writer | null>(null);
  const draft = useDraft(entry?.draft.data ?? defaults(model), (ns) => writer.current?.clearError(ns));
  // The entry as last saved (details, preview).
  const [saved, setSaved] = useState<Entry | null>(entry);
  const locales0 = useEntryLocales();
  const locale = locales0?.current ?? null;
  // The entry's query key names the locale only when it is not the default (entry-screen.tsx).
  const w = useEntryWriter(model, entry, draft, project.id, setSaved, locale !== locales0?.all.default ? locale : null);
  writer.current = w;
  const dirty = draft.changed.size > 0;
  // Set before leaving on purpose (after Delete), so the guard does not ask.
  const leaving = useRef(false);
  const unsaved = () => draft.now.current.changed.size > 0 && !leaving.current;
  const blocker = useBlocker({ shouldBlockFn: unsaved, enableBeforeUnload: unsaved, withResolver: true });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  useAutosave(!!entry && !readOnly, draft.values, dirty, w.autosave);
  const live = useLiveRules(model, w.savedId, draft.values, !readOnly);
  const locales = useEditorLocales({ model, models, entry, saved, draft, w, readOnly, compare });
  // Beside each field: a refusal of the last save, else a unique value typed, else a rule the
  // saved draft breaks.
  const shown = useMemo(() => {
    const out: Record<string, string> = {};
    for (const r of w.rules) out[fieldOf(r)] ??= r.message;
    return { ...out, ...live, ...w.errors };
  }, [w.rules, live, w.errors]);

  // Set after the first render, so the live region exists before it changes and is announced.
  const entryId = entry?.id;
  useEffect(() => {
    const left = entryId ? carried.get(entryId) : undefined;
    if (!entryId || left === undefined) return;
    carried.delete(entryId);
    w.setNotice(left);
  }, [entryId, w.setNotice]);

  // Unsaved changes kept in this tab: offered back when the editor opens, or after a conflict's Reload.
  // Per locale: German changes kept in this tab are never offered back into the English form.
  const key = backupKey(project.id, `${entry?.id ?? `new:${model.namespace}`}${locale ? `@${locale}` : ""}`);
  const [offer, setOffer] = useState<(Backup & { fields: string[] }) | null>(() => {
    const b = readBackup(key);
    const fields = b ? differing(b, entry?.draft.data ?? {}) : [];
    return b && fields.length > 0 ? { ...b, fields } : null;
  });
  useEffect(() => {
    if (offer || readOnly) return;
    if (draft.changed.size === 0) {
      dropBackup(key);
      return;
    }
    const t = setTimeout(() => writeBackup(key, draft.values, draft.changed, w.basedOn?.version ?? null), BACKUP_AFTER_MS);
    return () => clearTimeout(t);
  }, [draft.values, draft.changed, offer, key, readOnly, w.basedOn]);

  const onRestored = useCallback(
    (e: Entry) => {
      // The restored values replace the form; changes not saved before are dropped.
      draft.replace(e.draft.data);
      setSaved(e);
      void writer.current?.refresh(e, `Restored as version ${e.version}.`);
    },
    [draft.replace],
  );

  // Ctrl+S (Cmd+S on a Mac) saves a draft, as in every editor (design/admin.md, The entry editor).
  const saveNow = useRef(() => {});
  saveNow.current = () => {
    if (!readOnly) void w.save();
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

  // The tab names the saved entry (not each keystroke of its title) and its model.
  useTitle(saved ? entryTitle(model, saved) : "New entry", model.name);
  const title = entry ? entryTitle(model, { ...entry, draft: { ...entry.draft, data: draft.values } }) : `New ${model.name}`;
  const status = saved?.status ?? "draft";
  const canPreview = !!(saved && model.previewUrl);

  return (
    <>
      <EntryToolbar
        title={title}
        status={entry ? status : null}
        dirty={dirty}
        readOnly={readOnly}
        busy={w.busy}
        savedAt={w.savedAt}
        onSave={() => void w.save()}
        onPublish={() => void w.publish("publish")}
        onUnpublish={entry ? () => void w.publish("unpublish") : null}
        preview={canPreview ? { open: previewing, toggle: () => setPreviewing(!previewing) } : null}
        onDelete={entry ? () => setConfirmDelete(true) : null}
        onDuplicate={entry && !model.singleEntry ? () => void w.duplicate() : null}
      />
      {locales.bar}
      {readOnly && <p className="notice">Your role ({project.role}) can read this entry but not change it.</p>}
      {offer && (
        <RestorePrompt
          model={model}
          fields={offer.fields}
          at={offer.at}
          newer={offer.version !== null && saved !== null && offer.version !== saved.version}
          onRestore={() => {
            draft.apply(Object.fromEntries(offer.fields.map((ns) => [ns, offer.values[ns]])));
            setOffer(null);
          }}
          onDiscard={() => {
            dropBackup(key);
            setOffer(null);
          }}
        />
      )}
      <div aria-live="polite">{w.notice && <p className="notice">{w.notice}</p>}</div>
      {w.general && (
        <p className="form-error" role="alert">
          {w.general}
        </p>
      )}
      {Object.keys(w.errors).length > 0 && (
        <p className="form-error" role="alert">
          {Object.entries(w.errors)
            .map(([ns, msg]) => `${labelOf(model.fields.find((f) => f.namespace === ns)!)}: ${msg}`)
            .join(" ")}
        </p>
      )}
      <div className={previewing && canPreview ? "with-preview" : undefined}>
        <EntryForm
          model={model}
          models={models}
          projectId={project.id}
          values={draft.values}
          errors={shown}
          onChange={draft.onChange}
          readOnly={readOnly}
          beside={locales.beside}
          aside={
            <>
              <PublishPanel model={model} rules={w.rules} />
              {saved && <EntryDetails entry={saved} model={model} onRestored={onRestored} />}
            </>
          }
        />
        {previewing && saved && model.previewUrl && <PreviewPane model={model} entry={saved} projectId={project.id} values={draft.values} title={title} />}
      </div>
      {locales.dialog}
      {entry && (
        <DeleteDialog
          open={confirmDelete}
          entryId={entry.id}
          projectId={project.id}
          title={title}
          onCancel={() => setConfirmDelete(false)}
          onDelete={() => {
            setConfirmDelete(false);
            leaving.current = true;
            void w.remove().finally(() => {
              leaving.current = false;
            });
          }}
        />
      )}
      {/* Mounted only while open, so every conflict reads the entry afresh (never a cached older copy). */}
      {w.conflict && w.savedId && (
        <ConflictDialog
          open={w.conflict}
          entryId={w.savedId}
          model={model}
          base={w.basedOn?.data ?? {}}
          mine={draft.changed}
          onCancel={() => w.setConflict(false)}
          onReload={(current) => {
            w.setConflict(false);
            // The changes dropped here stay in this tab, offered back above the form.
            const { values, changed } = draft.now.current;
            const mine = { at: new Date().toISOString(), version: current.version, values: Object.fromEntries([...changed].map((ns) => [ns, values[ns]])) };
            writeBackup(key, values, changed, current.version);
            draft.replace(current.draft.data);
            setSaved(current);
            setOffer({ ...mine, values: JSON.parse(JSON.stringify(mine.values)), version: null, fields: [...changed] });
            void w.refresh(current, `Reloaded version ${current.version}.`);
          }}
          onOverwrite={(current) => {
            w.setConflict(false);
            // Based on the newer version now: only the fields changed here replace its values.
            w.rebase(current);
            void w.save();
          }}
        />
      )}
      {/* Leaving on purpose drops the changes, and their copy in this tab with them. */}
      <LeaveDialog
        blocker={{
          status: blocker.status,
          reset: blocker.reset,
          proceed: () => {
            dropBackup(key);
            blocker.proceed?.();
          },
        }}
        what="this entry"
      />
    </>
  );
}
