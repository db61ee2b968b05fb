// The media library as a dialog to choose a file from (media fields, images in rich text): wide,
// titled, a labelled search asked of the server, the library's own grid of thumbnails and
// "Load more" by cursor. It asks for nothing until it opens.
import { useDeferredValue, useId, useState } from "react";
import type { MediaFile } from "../../api/media.ts";
import type { MediaKind } from "../../api/types.ts";
import { useProject } from "../../screens/shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { LoadMore, MediaGrid, useMediaPages } from "../../ui/media-grid.tsx";

/** The library, searchable, as a grid of files to choose from; `title` names what it chooses for. */
export function LibraryDialog(props: { open: boolean; title: string; kind: MediaKind | undefined; onChoose(f: MediaFile): void; onCancel(): void }) {
  const { project } = useProject();
  const searchId = useId();
  const [search, setSearch] = useState("");
  // Typing never waits for the network: the grid follows the text a little behind.
  const q = useDeferredValue(search.trim());
  const pages = useMediaPages(project.id, { q: q || undefined, kind: props.kind }, props.open);
  return (
    <Dialog open={props.open} title={props.title} onCancel={props.onCancel} wide>
      <div className="field">
        <label htmlFor={searchId}>Search the library</label>
        <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {pages.isError && <p role="alert">{pages.error.message}</p>}
      <div className="dialog-scroll">
        <MediaGrid
          files={pages.files}
          label="Files of the library"
          control={(f, body) => (
            <button type="button" className="btn btn-quiet media-choice" onClick={() => props.onChoose(f)}>
              <span className="visually-hidden">Choose </span>
              {body}
            </button>
          )}
        />
        {pages.isSuccess && pages.files.length === 0 && <p className="muted">No files match.</p>}
        <LoadMore pages={pages} />
      </div>
      <div className="toolbar">
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
