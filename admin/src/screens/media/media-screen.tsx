// The media library (issue 14, decisions.md section 10): the project's files as a grid of
// previews or a list, by folder, searched and filtered by kind (all in the URL), paged by cursor;
// Upload, drag and drop and paste with progress per file (a queue, a few at a time); folders made,
// renamed and deleted here; files selected to move or delete together. Each file opens its record
// editor (media-file-screen.tsx). Viewers read; they get no controls.
import { type FormEvent, useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { type MediaFilter, sizeWords } from "../../api/media.ts";
import { KIND_WORDS, type MediaKind } from "../../api/types.ts";
import type { MediaView } from "../../router.tsx";
import { LoadMore, MediaGrid, useMediaPages } from "../../ui/media-grid.tsx";
import { canEditMedia, Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";
import { FolderNav, folderPath, NO_FOLDER } from "./folder-nav.tsx";
import { MediaTable } from "./media-table.tsx";
import { BulkBar } from "./bulk.tsx";
import { useFileSelection } from "./selection.tsx";
import { useUploads } from "./upload-queue.ts";
import { DropZone, UploadButton, UploadList, usePastedFiles } from "./uploads.tsx";

const VIEW = "capa.media.view";

/** The view last chosen in this browser (UI state, like the rail's folders). */
function rememberedView(): MediaView {
  try {
    return localStorage.getItem(VIEW) === "list" ? "list" : "grid";
  } catch {
    return "grid";
  }
}

/** The screen. */
export function MediaScreen() {
  const { project } = useProject();
  const search = useSearch({ from: "/app/media" });
  const navigate = useNavigate({ from: "/media" });
  const canEdit = canEditMedia(project.role);
  useTitle("Media");
  const folders = useQuery({ queryKey: keys.mediaFolders(project.id), queryFn: api.mediaFolders.list });
  // The folder shown: uploads go into it (by id, even before the folder list has come).
  const folderId = search.folder && search.folder !== NO_FOLDER ? search.folder : null;
  const folder = folders.data?.find((f) => f.id === folderId) ?? null;
  const filter: MediaFilter = { folder: search.folder === NO_FOLDER ? "" : search.folder, kind: search.kind, q: search.q };
  const pages = useMediaPages(project.id, filter);
  const uploads = useUploads(project.id, folderId);
  const view = search.view ?? rememberedView();
  usePastedFiles(canEdit ? uploads.add : null);
  const [text, setText] = useState(search.q ?? "");
  useEffect(() => setText(search.q ?? ""), [search.q]);
  // Search as you type: the URL (and the list) follow the box once typing pauses.
  useEffect(() => {
    if (text === (search.q ?? "")) return;
    const t = setTimeout(() => void navigate({ search: (s) => ({ ...s, q: text || undefined }) }), 300);
    return () => clearTimeout(t);
  }, [text, search.q, navigate]);
  const selection = useFileSelection(pages.files, JSON.stringify(filter));

  // `/` focuses the search box, as in the entry list (design/admin.md, Keyboard).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) return;
      e.preventDefault();
      document.getElementById("media-search")?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  function choose(next: MediaView) {
    try {
      localStorage.setItem(VIEW, next);
    } catch {
      // Without storage the choice holds for this URL.
    }
    void navigate({ search: (s) => ({ ...s, view: next }) });
  }
  function submitSearch(e: FormEvent) {
    e.preventDefault();
    void navigate({ search: (s) => ({ ...s, q: text || undefined }) });
  }

  const place =
    search.folder === NO_FOLDER
      ? "Not in a folder"
      : folder
        ? folderPath(folders.data ?? [], folder.id)
            .map((f) => f.name)
            .join(" / ")
        : "All files";
  const n = pages.files.length;
  const pick = canEdit ? selection.pick : undefined;
  return (
    <>
      <div className="toolbar">
        <h1>Media</h1>
        <span className="spacer" />
        {canEdit && <UploadButton onFiles={uploads.add} />}
      </div>
      {!canEdit && <p className="notice">Your role ({project.role}) can look at the library; owners, admins and editors upload and change files.</p>}
      <div className="media-layout">
        {folders.isError ? (
          <Refusal error={folders.error} />
        ) : (
          <FolderNav project={project.id} folders={folders.data ?? []} search={search} canEdit={canEdit} />
        )}
        <DropZone onFiles={canEdit ? uploads.add : null} label={`Drop to upload into ${folder ? folder.name : "the library"}`} labelledBy="files-title">
          <h2 id="files-title">{place}</h2>
          <div className="toolbar">
            <form className="field" onSubmit={submitSearch}>
              <label htmlFor="media-search">Search</label>
              <input id="media-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
            </form>
            <div className="field">
              <label htmlFor="media-kind">Kind</label>
              <select
                id="media-kind"
                value={search.kind ?? ""}
                onChange={(e) => void navigate({ search: (s) => ({ ...s, kind: (e.target.value || undefined) as MediaKind | undefined }) })}
              >
                <option value="">Any kind</option>
                {(Object.keys(KIND_WORDS) as MediaKind[]).map((k) => (
                  <option key={k} value={k}>
                    {KIND_WORDS[k]}
                  </option>
                ))}
              </select>
            </div>
            <span className="spacer" />
            <fieldset className="view-toggle">
              <legend className="visually-hidden">View</legend>
              {(["grid", "list"] as const).map((v) => (
                <button key={v} type="button" className="btn" aria-pressed={view === v} onClick={() => choose(v)}>
                  {v === "grid" ? "Grid" : "List"}
                </button>
              ))}
            </fieldset>
          </div>
          <UploadList items={uploads.items} onClear={uploads.clear} onKeepCopy={uploads.keepCopy} />
          {canEdit && <p className="muted">Drop or paste files here to upload them into {folder ? folder.name : "the library"}.</p>}
          <div className="toolbar">
            {canEdit && n > 0 && (
              <label className="check">
                <input type="checkbox" checked={selection.allPicked} onChange={(e) => selection.setAll(e.target.checked)} /> Select all shown
              </label>
            )}
            <p className="muted" aria-live="polite">
              {pages.isSuccess && `${n === 1 ? "1 file" : `${n} files`}${pages.hasNextPage ? " shown; more below" : ""}`}
            </p>
          </div>
          {canEdit && <BulkBar project={project.id} selected={selection.selected} onDone={selection.clear} />}
          {pages.isError ? (
            <Refusal error={pages.error} />
          ) : pages.isPending ? (
            <p>Loading…</p>
          ) : n === 0 ? (
            <p>{search.q || search.kind ? "No files match." : canEdit ? "No files here yet. Use “Upload” or drop files here." : "No files here yet."}</p>
          ) : view === "list" ? (
            <MediaTable files={pages.files} caption={`Files: ${place}`} pick={pick} />
          ) : (
            <MediaGrid
              files={pages.files}
              label={`Files: ${place}`}
              control={(f, body) => (
                <Link to="/media/$mediaId" params={{ mediaId: f.id }}>
                  {body}
                </Link>
              )}
              meta={(f) => `${KIND_WORDS[f.kind] ?? f.kind} · ${sizeWords(f.size)}`}
              pick={pick}
            />
          )}
          <LoadMore pages={pages} />
        </DropZone>
      </div>
    </>
  );
}
