// One file of the library (decisions.md section 10): its preview with the focal point picked on
// the picture, the record's words (filename, title, alt text) and folder, saved with one PATCH of
// what changed; its facts; the entries that use it; and Delete with the in-use warning.
import { type FormEvent, useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { type MediaFile, type MediaPatch, mediaApi, mediaKeys, sizeWords } from "../../api/media.ts";
import { KIND_WORDS } from "../../api/types.ts";
import { canEditMedia, Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";
import { type Focal, FocalInputs, FocalPointPicker } from "./focal-point.tsx";
import { folderPath, NO_FOLDER } from "./folder-nav.tsx";
import { dimensionsOf } from "./media-table.tsx";
import { ReplaceFile } from "./replace.tsx";
import { DeleteFile, UsageList } from "./usage.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The editable part of a record, as the form holds it. */
type Draft = { filename: string; title: string; alt: string; folder: string | null; focalPoint: Focal };

const draftOf = (f: MediaFile): Draft => ({ filename: f.filename, title: f.title, alt: f.alt, folder: f.folder, focalPoint: f.focalPoint });

/** What differs between the record and the form: the PATCH body. */
function changes(f: MediaFile, d: Draft): MediaPatch {
  const out: MediaPatch = {};
  if (d.filename !== f.filename) out.filename = d.filename;
  if (d.title !== f.title) out.title = d.title;
  if (d.alt !== f.alt) out.alt = d.alt;
  if (d.folder !== f.folder) out.folder = d.folder;
  if (JSON.stringify(d.focalPoint) !== JSON.stringify(f.focalPoint)) out.focalPoint = d.focalPoint;
  return out;
}

/** The screen. */
export function MediaFileScreen() {
  const { project } = useProject();
  const { mediaId } = useParams({ from: "/app/media/$mediaId" });
  const file = useQuery({ queryKey: mediaKeys.file(project.id, mediaId), queryFn: () => mediaApi.get(mediaId) });
  useTitle(file.data?.filename, "Media");
  if (file.isError) {
    return (
      <>
        <p>
          <Link to="/media">Media</Link>
        </p>
        <Refusal error={file.error} />
      </>
    );
  }
  if (!file.data) return <p>Loading…</p>;
  return <RecordEditor key={file.data.id} file={file.data} />;
}

function RecordEditor({ file }: { file: MediaFile }) {
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const canEdit = canEditMedia(project.role);
  const folders = useQuery({ queryKey: keys.mediaFolders(project.id), queryFn: api.mediaFolders.list });
  const usage = useQuery({ queryKey: mediaKeys.usage(project.id, file.id), queryFn: () => mediaApi.usage(file.id) });
  const [draft, setDraft] = useState<Draft>(() => draftOf(file));
  const [saved, setSaved] = useState(false);
  // A replaced file (new checksum: new name and facts) starts the form again from its new record.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a replace resets the form, not every save.
  useEffect(() => setDraft(draftOf(file)), [file.checksum]);
  const patch = changes(file, draft);
  const dirty = Object.keys(patch).length > 0;
  const save = useMutation({
    mutationFn: () => mediaApi.update(file.id, patch),
    onSuccess: (next) => {
      client.setQueryData(mediaKeys.file(project.id, file.id), next);
      // The form starts again from what the server now holds.
      setDraft(draftOf(next));
      void client.invalidateQueries({ queryKey: mediaKeys.all(project.id), predicate: (q) => q.queryKey[2] === "list" });
      setSaved(true);
    },
  });
  const set = (p: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...p }));
  };
  useEffect(() => {
    // Ctrl/Cmd+S saves, as in the entry editor.
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === "s" && canEdit) {
        e.preventDefault();
        if (dirty && !save.isPending) save.mutate();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (dirty) save.mutate();
  }

  const path = folderPath(folders.data ?? [], file.folder);
  const back = { folder: file.folder ?? NO_FOLDER };
  const error = save.error as (Error & { field?: string | null }) | null;
  const fieldError = (name: string) => (error?.field?.split(".")[0] === name ? error.message : null);
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted">
        <Link to="/media">Media</Link>
        {path.map((f) => (
          <span key={f.id}>
            {" / "}
            <Link to="/media" search={{ folder: f.id }}>
              {f.name}
            </Link>
          </span>
        ))}
      </nav>
      <div className="toolbar">
        <h1>{file.filename}</h1>
        <span className="spacer" />
        {canEdit && (
          <DeleteFile
            project={project.id}
            file={file}
            onDeleted={() =>
              // Leave first, then forget the file: asking for it again would only answer 404.
              void navigate({ to: "/media", search: back }).then(() => {
                client.removeQueries({ queryKey: mediaKeys.file(project.id, file.id) });
                client.removeQueries({ queryKey: mediaKeys.usage(project.id, file.id) });
                void client.invalidateQueries({ queryKey: mediaKeys.all(project.id) });
              })
            }
          />
        )}
      </div>
      {!canEdit && <p className="notice">Your role ({project.role}) can look at this file; owners, admins and editors change it.</p>}
      <div className="editor-grid">
        <div>
          {file.kind === "image" && (
            <section className="card" aria-labelledby="preview-title">
              <h2 id="preview-title">Preview</h2>
              <FocalPointPicker file={file} value={draft.focalPoint} onChange={canEdit ? (focalPoint) => set({ focalPoint }) : undefined} />
            </section>
          )}
          <form className="card record-form" onSubmit={submit} aria-labelledby="record-title">
            <h2 id="record-title">Record</h2>
            <fieldset className="plain" disabled={!canEdit}>
              <TextField
                id="media-filename"
                label="Filename"
                value={draft.filename}
                error={fieldError("filename")}
                onChange={(filename) => set({ filename })}
              />
              <TextField id="media-title" label="Title" value={draft.title} error={fieldError("title")} onChange={(title) => set({ title })} />
              <TextField
                id="media-alt"
                label="Alt text"
                value={draft.alt}
                error={fieldError("alt")}
                onChange={(alt) => set({ alt })}
                hint="What the picture shows, for people who cannot see it."
              />
              <div className="field">
                <label htmlFor="media-folder">Folder</label>
                <select id="media-folder" value={draft.folder ?? ""} onChange={(e) => set({ folder: e.target.value || null })}>
                  <option value="">Not in a folder</option>
                  {(folders.data ?? []).map((f) => (
                    <option key={f.id} value={f.id}>
                      {folderPath(folders.data ?? [], f.id)
                        .map((x) => x.name)
                        .join(" / ")}
                    </option>
                  ))}
                </select>
              </div>
            </fieldset>
            {file.kind === "image" && <FocalInputs value={draft.focalPoint} onChange={(focalPoint) => set({ focalPoint })} disabled={!canEdit} />}
            {error && !error.field && <Refusal error={error} />}
            {canEdit && (
              <div className="toolbar">
                <button type="submit" className="btn btn-primary" disabled={!dirty || save.isPending}>
                  Save
                </button>
                <span aria-live="polite" className="muted">
                  {saved ? "Saved." : dirty ? "Unsaved changes" : ""}
                </span>
              </div>
            )}
          </form>
        </div>
        <div>
          <section className="card" aria-labelledby="facts-title">
            <h2 id="facts-title">Details</h2>
            <dl>
              <dt>Kind</dt>
              <dd>{`${KIND_WORDS[file.kind] ?? file.kind} (${file.mimeType})`}</dd>
              <dt>Size</dt>
              <dd>{sizeWords(file.size)}</dd>
              <dt>Dimensions</dt>
              <dd>{dimensionsOf(file)}</dd>
              <dt>Uploaded</dt>
              <dd>
                <time dateTime={file.createdAt}>{when.format(new Date(file.createdAt))}</time>
              </dd>
              <dt>URL</dt>
              <dd className="mono">
                <a href={file.url} target="_blank" rel="noopener noreferrer">
                  {file.url}
                </a>
              </dd>
            </dl>
            {canEdit && <ReplaceFile project={project.id} file={file} />}
          </section>
          <section className="card" aria-labelledby="usage-title">
            <h2 id="usage-title">Usage</h2>
            {usage.isError ? <Refusal error={usage.error} /> : usage.data ? <UsageList project={project.id} entries={usage.data} /> : <p>Loading…</p>}
          </section>
        </div>
      </div>
    </>
  );
}

/** A labelled text input with its hint and the server's refusal naming it. */
function TextField(props: { id: string; label: string; value: string; error: string | null; hint?: string; onChange(v: string): void }) {
  const described = [props.hint ? `${props.id}-hint` : null, props.error ? `${props.id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && (
        <p className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p className="error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}
