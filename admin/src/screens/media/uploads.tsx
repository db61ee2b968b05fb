// Uploading into the library: the Upload button (several files at once) and files dropped on the
// library both feed one queue. Every file is its own POST /v2/media, so each row shows its own
// progress and, when refused (too large, empty, unreadable), the reason beside that file.
import { type DragEvent, type ReactNode, useCallback, useId, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type MediaFile, mediaApi, mediaKeys, uploadProblem } from "../../api/media.ts";

/** One file of the queue. */
export interface Upload {
  key: number;
  name: string;
  /** The share of the bytes sent, 0 to 1. */
  sent: number;
  state: "sending" | "done" | "failed";
  problem?: string;
  file?: MediaFile;
}

let next = 0;

/** The queue of uploads into `folder` (null: no folder) of a project's library. */
export function useUploads(project: string, folder: string | null) {
  const client = useQueryClient();
  const [items, setItems] = useState<Upload[]>([]);
  const add = useCallback(
    (files: File[]) => {
      for (const f of files) {
        const key = ++next;
        const patch = (p: Partial<Upload>) => setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...p } : x)));
        setItems((xs) => [...xs, { key, name: f.name, sent: 0, state: "sending" }]);
        mediaApi.upload(f, { folder, onProgress: (sent) => patch({ sent }) }).then(
          (file) => {
            patch({ state: "done", sent: 1, file });
            void client.invalidateQueries({ queryKey: mediaKeys.all(project) });
          },
          (e) => patch({ state: "failed", problem: uploadProblem(e) }),
        );
      }
    },
    [client, project, folder],
  );
  const clear = useCallback(() => setItems((xs) => xs.filter((x) => x.state === "sending")), []);
  return { items, add, clear };
}

/** The Upload button: a file input for several files, styled as a button. */
export function UploadButton({ onFiles }: { onFiles(files: File[]): void }) {
  const id = useId();
  return (
    <label className="btn btn-primary" htmlFor={id}>
      Upload
      <input
        id={id}
        type="file"
        multiple
        className="visually-hidden"
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          // The same file chosen again is a new upload.
          e.target.value = "";
        }}
      />
    </label>
  );
}

/** The uploads of this visit: progress while sending, then Uploaded (a link to the file) or the refusal. */
export function UploadList({ items, onClear }: { items: Upload[]; onClear(): void }) {
  if (items.length === 0) return null;
  const sending = items.filter((x) => x.state === "sending").length;
  return (
    <section className="card upload-list" aria-labelledby="uploads-title">
      <div className="toolbar">
        <h2 id="uploads-title">Uploads</h2>
        <span className="muted" aria-live="polite">
          {sending ? `${sending} sending` : "All finished"}
        </span>
        <span className="spacer" />
        {sending < items.length && (
          <button type="button" className="btn btn-quiet" onClick={onClear}>
            Clear finished
          </button>
        )}
      </div>
      <ul>
        {items.map((x) => (
          <li key={x.key}>
            <span className="upload-name">
              {x.file ? (
                <Link to="/media/$mediaId" params={{ mediaId: x.file.id }}>
                  {x.name}
                </Link>
              ) : (
                x.name
              )}
            </span>
            {x.state === "failed" ? <span /> : <progress max={1} value={x.sent} aria-label={`Upload of ${x.name}`} />}
            <span className={x.state === "failed" ? "form-error" : "muted"}>
              {x.state === "sending" ? `${Math.round(x.sent * 100)}%` : x.state === "done" ? "Uploaded" : x.problem}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Whether a drag carries files (not text or a link from the page). */
function carriesFiles(e: DragEvent): boolean {
  return [...e.dataTransfer.types].includes("Files");
}

/**
 * A region (named by the heading `labelledBy`) that takes dropped files when `onFiles` is given,
 * saying `label` while files are over it. Dropping is for pointers; Upload is the keyboard's way.
 */
export function DropZone(props: { onFiles: ((files: File[]) => void) | null; label: string; labelledBy: string; children: ReactNode }) {
  const { onFiles, label, labelledBy, children } = props;
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for every child crossed; count them to know when the drag left.
  const depth = useRef(0);
  if (!onFiles) {
    return (
      <section className="drop-zone" aria-labelledby={labelledBy}>
        {children}
      </section>
    );
  }
  return (
    <section
      aria-labelledby={labelledBy}
      className={over ? "drop-zone dropping" : "drop-zone"}
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return;
        depth.current++;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (carriesFiles(e)) e.preventDefault();
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        const files = [...e.dataTransfer.files];
        if (files.length) onFiles(files);
      }}
    >
      {over && (
        <p className="drop-hint" aria-hidden="true">
          {label}
        </p>
      )}
      {children}
    </section>
  );
}
