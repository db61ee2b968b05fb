// A media field's value (decisions.md section 10): a reference `{ id, alt? }` to a file of the
// project's library, chosen from the library or uploaded here, with the field's own alt text
// (the file's alt shows through when it is empty). A value written before the library existed
// (a full object with a url) is shown by its URL until it is replaced. The picker is the
// library's own grid (ui/media-grid.tsx), searched on the server and paged by cursor.
import { useId, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { mediaApi, mediaKeys, uploadProblem } from "../../api/media.ts";
import type { MediaKind } from "../../api/types.ts";
import { labelOf } from "../../api/models.ts";
import { useProject } from "../../screens/shell/project-context.ts";
import { LibraryDialog } from "./library-dialog.tsx";
import { MediaThumb } from "../../ui/media-thumb.tsx";
import type { InputProps } from "../types.ts";

type MediaValue = { id: string; alt?: string; url?: string } | null;

/** The library kinds a field of each type takes (an image field lists images only). */
const KIND_OF: Record<string, MediaKind | undefined> = { image: "image", video: "video" };

/** The input of an image, video or file field. */
export function MediaInput(p: InputProps) {
  const client = useQueryClient();
  const { project } = useProject();
  const label = labelOf(p.field);
  const uploadId = useId();
  const value = (p.value && typeof p.value === "object" && !Array.isArray(p.value) ? p.value : null) as MediaValue;
  const ref = value && !value.url ? value.id : null;
  const file = useQuery({ queryKey: mediaKeys.file(project.id, ref ?? ""), queryFn: () => mediaApi.get(ref!), enabled: ref !== null });
  const [choosing, setChoosing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The share of the upload sent, while one runs.
  const [sent, setSent] = useState<number | null>(null);
  const busy = sent !== null;

  const upload = async (f: File | undefined) => {
    if (!f) return;
    setSent(0);
    setProblem(null);
    try {
      const made = await mediaApi.upload(f, { onProgress: setSent });
      client.setQueryData(mediaKeys.file(project.id, made.id), made);
      void client.invalidateQueries({ queryKey: mediaKeys.all(project.id) });
      p.onChange({ id: made.id });
    } catch (e) {
      setProblem(uploadProblem(e));
    } finally {
      setSent(null);
    }
  };

  return (
    <div className="media-input">
      {value?.url && <p className="muted">{value.url}</p>}
      {file.data && (
        <figure>
          <MediaThumb file={file.data} width={160} alt={value?.alt || file.data.alt || ""} />
          <figcaption>{file.data.filename}</figcaption>
        </figure>
      )}
      {ref && file.isError && <p role="alert">The file of this value is gone from the library.</p>}
      <div className="row">
        <button type="button" className="btn" id={p.id} aria-describedby={p.describedBy} disabled={busy} onClick={() => setChoosing(true)}>
          Choose from library
        </button>
        <label className="btn" htmlFor={uploadId}>
          {sent !== null ? `Uploading… ${Math.round(sent * 100)}%` : "Upload"}
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
        <div className="field">
          <label htmlFor={`${p.id}-alt`}>
            Alt text<span className="visually-hidden"> of {label}</span>
          </label>
          <input
            id={`${p.id}-alt`}
            type="text"
            placeholder={file.data?.alt ? `The file's: ${file.data.alt}` : "Describe the picture"}
            value={value?.alt ?? ""}
            onChange={(e) => p.onChange(e.target.value ? { id: ref, alt: e.target.value } : { id: ref })}
          />
        </div>
      )}
      {problem && <p role="alert">{problem}</p>}
      <LibraryDialog
        open={choosing}
        title={`Choose a file for ${label}`}
        kind={KIND_OF[p.field.type === "array" ? (p.field.arrayType ?? "") : p.field.type]}
        onCancel={() => setChoosing(false)}
        onChoose={(f) => {
          client.setQueryData(mediaKeys.file(project.id, f.id), f);
          p.onChange({ id: f.id });
          setChoosing(false);
        }}
      />
    </div>
  );
}
