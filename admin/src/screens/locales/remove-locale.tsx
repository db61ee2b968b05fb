// The confirmation of removing a locale that holds values: the server's counts (409
// locale_in_use), then "Remove and drop the values" sends the removal again with ?force=true.
import type { LocaleInUse } from "../../api/locales.ts";
import { Dialog } from "../../ui/dialog.tsx";

const n = (k: number, one: string, many: string) => `${k.toLocaleString("en")} ${k === 1 ? one : many}`;

export function RemoveLocaleDialog(props: {
  open: boolean;
  name: string;
  code: string;
  counts: LocaleInUse[];
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}) {
  const mine = props.counts.find((c) => c.code === props.code) ?? props.counts[0];
  return (
    <Dialog open={props.open} title={`Remove ${props.name} (${props.code})?`} onCancel={props.onCancel}>
      <div className="form-stack">
        <p>
          {mine
            ? `${n(mine.entries, "entry holds", "entries hold")} ${n(mine.values, "value", "values")} in ${props.code}. Removing the locale drops them from every draft, published copy and version; an entry published only in ${props.code} goes offline.`
            : `Entries hold values in ${props.code}. Removing the locale drops them.`}
        </p>
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={props.busy} onClick={props.onConfirm}>
            Remove and drop the values
          </button>
          <button type="button" className="btn" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
