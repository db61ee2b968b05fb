// A media field's value (decisions.md section 10): a reference `{ id, alt? }` to a file of the
// project's library, chosen from the library or uploaded here, with the field's own alt text
// (the file's alt shows through when it is empty). A value written before the library existed
// (a full object with a url) is shown by its URL until it is replaced.
import { useId, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type MediaFile } from "../api/client.ts";
import { labelOf } from "../api/models.ts";
import { Dialog } from "../ui/dialog.tsx";
import type { InputProps } from "./kinds.tsx";

type MediaValue = { id: string; alt?: string; url?: string } | null;

/** The library kinds a field of each type takes (an image field lists images only). */
const KIND_OF: Record<string, string | undefined> = { image: "image", video: "video" };

/**
 * A small preview URL of a file: an image at 160 px in the best format the browser takes, from
 * this server's own /media path (the record's URL may name a CDN host the admin's CSP refuses).
 */
function thumb(f: MediaFile): string | null {
  return f.kind === "image" && !f.mimeType.includes("svg") ? `${new URL(f.url).pathname}?w=160&fm=auto` : null;
}

/** The library, searchable, as a list of files to choose from. */
function LibraryDialog(props: { open: boolean; label: string; kind: string | undefined; onChoose(f: MediaFile): void; onCancel(): void }) {
  const [q, setQ] = useState("");
  const files = useQuery({ queryKey: ["media", q, props.kind], queryFn: () => api.media.list(q, props.kind), enabled: props.open });
  return (
    <Dialog open={props.open} title={`Choose a file for ${props.label}`} onCancel={props.onCancel}>
      <input type="search" aria-label="Search the library" value={q} onChange={(e) => setQ(e.target.value)} />
      {files.isError && <p role="alert">{files.error.message}</p>}
      <ul className="media-grid">
        {(files.data ?? []).map((f) => (
          <li key={f.id}>
            <button type="button" className="btn btn-quiet" onClick={() => props.onChoose(f)}>
              {thumb(f) && <img src={thumb(f)!} alt="" width={80} height={60} />}
              {`Choose ${f.filename}`}
            </button>
          </li>
        ))}
        {files.data?.length === 0 && <li className="muted">No files match.</li>}
      </ul>
      <button type="button" className="btn" onClick={props.onCancel}>
        Cancel
      </button>
    </Dialog>
  );
}

/** The input of an image, video or file field. */
export function MediaInput(p: InputProps) {
  const client = useQueryClient();
  const label = labelOf(p.field);
  const uploadId = useId();
  const value = (p.value && typeof p.value === "object" && !Array.isArray(p.value) ? p.value : null) as MediaValue;
  const ref = value && !value.url ? value.id : null;
  const file = useQuery({ queryKey: ["media-file", ref], queryFn: () => api.media.get(ref!), enabled: ref !== null });
  const [choosing, setChoosing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (f: File | undefined) => {
    if (!f) return;
    setBusy(true);
    setProblem(null);
    try {
      const made = await api.media.upload(f);
      client.setQueryData(["media-file", made.id], made);
      p.onChange({ id: made.id });
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const shown = file.data ? thumb(file.data) : null;
  return (
    <div className="media-input">
      {value?.url && <p className="muted">{value.url}</p>}
      {file.data && (
        <figure>
          {shown && <img src={shown} alt={value?.alt || file.data.alt || ""} width={160} />}
          <figcaption>{file.data.filename}</figcaption>
        </figure>
      )}
      {ref && file.isError && <p role="alert">The file of this value is gone from the library.</p>}
      <div className="row">
        <button type="button" className="btn" id={p.id} aria-describedby={p.errorId} disabled={busy} onClick={() => setChoosing(true)}>
          Choose from library
        </button>
        <label className="btn" htmlFor={uploadId}>
          {busy ? "Uploading…" : "Upload"}
          <input
            id={uploadId}
            type="file"
            className="visually-hidden"
            aria-label={`Upload ${label}`}
            disabled={busy}
            onChange={(e) => void upload(e.target.files?.[0])}
          />
        </label>
        {value && (
          <button type="button" className="btn btn-quiet" aria-label={`Remove ${label}`} onClick={() => p.onChange(null)}>
            Remove
          </button>
        )}
      </div>
      {ref && (
        <input
          type="text"
          aria-label={`Alt text of ${label}`}
          placeholder={file.data?.alt ? `The file's: ${file.data.alt}` : "Describe the picture"}
          value={value?.alt ?? ""}
          onChange={(e) => p.onChange(e.target.value ? { id: ref, alt: e.target.value } : { id: ref })}
        />
      )}
      {problem && <p role="alert">{problem}</p>}
      <LibraryDialog
        open={choosing}
        label={label}
        kind={KIND_OF[p.field.type === "array" ? (p.field.arrayType ?? "") : p.field.type]}
        onCancel={() => setChoosing(false)}
        onChoose={(f) => {
          client.setQueryData(["media-file", f.id], f);
          p.onChange({ id: f.id });
          setChoosing(false);
        }}
      />
    </div>
  );
}
