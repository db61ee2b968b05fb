// The entry editor's header: the title, the status, "Unsaved changes", and the actions the
// person's role allows (Save, Publish or Unpublish, Preview, Delete). An action that does not
// apply (no entry yet, no preview URL) is passed as null and not shown. Preview opens and closes
// the live preview pane beside the form.
import type { EntryStatus } from "../../api/types.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import { clockIn } from "../../ui/time-zones.ts";

interface Props {
  title: string;
  /** The saved entry's status; null for a new entry. */
  status: EntryStatus | null;
  dirty: boolean;
  readOnly: boolean;
  busy: boolean;
  /** When the last save was answered: "Saved at 09:45" once nothing is unsaved. */
  savedAt: Date | null;
  onSave(): void;
  onPublish(): void;
  onUnpublish: (() => void) | null;
  /** The preview pane's switch, when the model has a preview URL and the entry exists. */
  preview: { open: boolean; toggle(): void } | null;
  onDelete: (() => void) | null;
  onDuplicate: (() => void) | null;
}

export function EntryToolbar(p: Props) {
  const status = p.status ?? "draft";
  return (
    <div className="toolbar">
      <h1>{p.title}</h1>
      {p.status && <StatusBadge status={p.status} />}
      {/* Where the draft stands: a polite status, read out when it changes. */}
      <span className="muted" role="status">
        {p.busy ? "Saving…" : p.dirty ? "Unsaved changes" : p.savedAt ? `Saved at ${clockIn(p.savedAt.getTime())}` : ""}
      </span>
      <span className="spacer" />
      {!p.readOnly && (
        <button type="button" className="btn" disabled={p.busy} onClick={p.onSave}>
          Save
        </button>
      )}
      {!p.readOnly && (status !== "published" || p.dirty) && (
        <button type="button" className="btn btn-primary" disabled={p.busy} onClick={p.onPublish}>
          Publish
        </button>
      )}
      {!p.readOnly && p.onUnpublish && status !== "draft" && (
        <button type="button" className="btn" disabled={p.busy} onClick={p.onUnpublish}>
          Unpublish
        </button>
      )}
      {p.preview && (
        <button type="button" className="btn" aria-pressed={p.preview.open} onClick={p.preview.toggle}>
          Preview
        </button>
      )}
      {!p.readOnly && p.onDuplicate && (
        <button type="button" className="btn" disabled={p.busy} onClick={p.onDuplicate}>
          Duplicate
        </button>
      )}
      {!p.readOnly && p.onDelete && (
        <button type="button" className="btn btn-danger" disabled={p.busy} onClick={p.onDelete}>
          Delete
        </button>
      )}
    </div>
  );
}
