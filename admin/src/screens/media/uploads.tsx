// Uploading into the library: the Upload button (several files at once), files dropped on the
// library and files pasted all feed one queue (upload-queue.ts). Every file is its own POST
// /v2/media, so each row shows its own progress and, when refused (too large, empty, unreadable),
// the reason beside that file; bytes the library holds already offer the file it has.
import { type DragEvent, memo, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link } from "@tanstack/react-router";
import type { Upload } from "./upload-queue.ts";

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

/** The queue's count in words: what is done, sending and waiting. */
function summary(items: Upload[]): string {
  const n = (state: Upload["state"]) => items.filter((x) => x.state === state).length;
  const [done, sending, waiting, failed, dup] = [n("done"), n("sending"), n("waiting"), n("failed"), n("duplicate")];
  const parts = [`${done} of ${items.length} uploaded`];
  if (sending) parts.push(`${sending} sending`);
  if (waiting) parts.push(`${waiting} waiting`);
  if (dup) parts.push(`${dup} already in the library`);
  if (failed) parts.push(`${failed} refused`);
  return sending || waiting ? parts.join(", ") : `All finished: ${parts.join(", ")}`;
}

/** What a row says after its bar: its progress, Uploaded, the refusal, or the file the library has. */
function RowState({ x, onKeepCopy }: { x: Upload; onKeepCopy(key: number): void }) {
  if (x.state === "failed") return <span className="form-error">{x.problem}</span>;
  if (x.state === "duplicate" && x.file) {
    return (
      <span className="upload-duplicate">
        Already in the library as{" "}
        <Link to="/media/$mediaId" params={{ mediaId: x.file.id }}>
          {x.file.filename}
        </Link>
        .{" "}
        <button type="button" className="btn btn-quiet" aria-label={`Upload a copy of ${x.name} anyway`} onClick={() => onKeepCopy(x.key)}>
          Upload a copy anyway
        </button>
      </span>
    );
  }
  return <span className="muted">{x.state === "waiting" ? "Waiting" : x.state === "sending" ? `${Math.round(x.sent * 100)}%` : "Uploaded"}</span>;
}

/** One file's row; only the rows whose upload moved render again (200 rows, 3 sending). */
const UploadRow = memo(function UploadRow({ x, onKeepCopy }: { x: Upload; onKeepCopy(key: number): void }) {
  return (
    <li>
      <span className="upload-name">
        {x.file && x.state === "done" ? (
          <Link to="/media/$mediaId" params={{ mediaId: x.file.id }}>
            {x.name}
          </Link>
        ) : (
          x.name
        )}
      </span>
      {x.state === "failed" || x.state === "duplicate" ? <span /> : <progress max={1} value={x.sent} aria-label={`Upload of ${x.name}`} />}
      <RowState x={x} onKeepCopy={onKeepCopy} />
    </li>
  );
});

/** The uploads of this visit: waiting, progress while sending, then Uploaded (a link to the file) or why not. */
export function UploadList({ items, onClear, onKeepCopy }: { items: Upload[]; onClear(): void; onKeepCopy(key: number): void }) {
  if (items.length === 0) return null;
  const busy = items.filter((x) => x.state === "sending" || x.state === "waiting").length;
  return (
    <section className="card upload-list" aria-labelledby="uploads-title">
      <div className="toolbar">
        <h2 id="uploads-title">Uploads</h2>
        <span className="muted" role="status">
          {summary(items)}
        </span>
        <span className="spacer" />
        {busy < items.length && (
          <button type="button" className="btn btn-quiet" onClick={onClear}>
            Clear finished
          </button>
        )}
      </div>
      <ul>
        {items.map((x) => (
          <UploadRow key={x.key} x={x} onKeepCopy={onKeepCopy} />
        ))}
      </ul>
    </section>
  );
}

/** Files pasted anywhere on the screen (a screenshot, files copied in a file manager) are uploaded, unless typed into a field. */
export function usePastedFiles(onFiles: ((files: File[]) => void) | null) {
  useEffect(() => {
    if (!onFiles) return;
    const onPaste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      onFiles(files);
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [onFiles]);
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
