// The media library (issue 14, decisions.md section 10): the project's files as a grid of
// previews or a list, by folder, searched as you type, filtered by kind and sorted (all in the
// URL), 40 at a time by cursor with the count of every match;
// Upload, drag and drop and paste with progress per file (a queue, a few at a time); folders made,
// renamed and deleted here; files selected to move or delete together. Each file opens its record
// editor (media-file-screen.tsx). Viewers read; they get no controls.
import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { type MediaFilter, sizeWords } from "../../api/media.ts";
import { KIND_WORDS } from "../../api/types.ts";
import type { MediaSearch, MediaView } from "../../router.tsx";
import { LoadMore, MediaGrid, useMediaPages } from "../../ui/media-grid.tsx";
import { canEditMedia, Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";
import { FolderNav, folderPath, NO_FOLDER } from "./folder-nav.tsx";
import { MediaTable } from "./media-table.tsx";
import { BulkBar } from "./bulk.tsx";
import { MediaToolbar } from "./media-toolbar.tsx";
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

const count = (x: number) => x.toLocaleString("en");

/** "Files 1–40 of 523": the files loaded so far of every one that matches. */
function countWords(shown: number, total: number): string {
  if (total === 0) return "No files";
  if (shown === total) return total === 1 ? "1 file" : `${count(total)} files`;
  return `Files 1–${count(shown)} of ${count(total)}`;
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
  const filter: MediaFilter = {
    folder: search.folder === NO_FOLDER ? "" : search.folder,
    kind: search.kind,
    q: search.q,
    sort: search.sort,
    limit: search.limit,
  };
  const pages = useMediaPages(project.id, filter);
  const uploads = useUploads(project.id, folderId);
  const view = search.view ?? rememberedView();
  usePastedFiles(canEdit ? uploads.add : null);
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
  const change = (patch: Partial<MediaSearch>) => void navigate({ search: (s) => ({ ...s, ...patch }) });

  const place =
    search.folder === NO_FOLDER
      ? "Not in a folder"
      : folder
        ? folderPath(folders.data ?? [], folder.id)
            .map((f) => f.name)
            .join(" / ")
        : "All files";
  const n = pages.files.length;
  const total = pages.data?.pages.at(-1)?.total ?? 0;
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
          <MediaToolbar search={search} view={view} onChange={change} onView={choose} />
          <UploadList items={uploads.items} onClear={uploads.clear} onKeepCopy={uploads.keepCopy} />
          {canEdit && <p className="muted">Drop or paste files here to upload them into {folder ? folder.name : "the library"}.</p>}
          <div className="toolbar">
            {canEdit && n > 0 && (
              <label className="check">
                <input type="checkbox" checked={selection.allPicked} onChange={(e) => selection.setAll(e.target.checked)} /> Select all shown
              </label>
            )}
            <p className="muted" aria-live="polite">
              {pages.isSuccess && countWords(n, total)}
            </p>
            {canEdit && selection.allPicked && !selection.allMatching && total > n && (
              <button type="button" className="btn btn-quiet" onClick={selection.selectAllMatching}>
                {`Select all ${total.toLocaleString("en")} that match`}
              </button>
            )}
          </div>
          {canEdit && (
            <BulkBar project={project.id} selected={selection.selected} matching={selection.allMatching ? { filter, total } : null} onDone={selection.clear} />
          )}
          {pages.isError ? (
            <Refusal error={pages.error} />
          ) : pages.isPending ? (
            <p>Loading…</p>
          ) : n === 0 ? (
            <p>{search.q || search.kind ? "No files match." : canEdit ? "No files here yet. Use “Upload” or drop files here." : "No files here yet."}</p>
          ) : view === "list" ? (
            <MediaTable
              files={pages.files}
              caption={`Files: ${place}`}
              pick={pick}
              sort={search.sort ?? "-createdAt"}
              onSort={(sort) => change({ sort: sort === "-createdAt" ? undefined : sort })}
            />
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
