// One cell of the entry list: a field's value by its kind's list-cell display (fields/table.ts,
// the form kit's `Cell`), or a system column's fact in words: the status with its dot, a time,
// who saved the latest version ("Last edited by"), the tags, the id.
import type { Editor, ListColumn, ListedEntry } from "../../api/entry-lists.ts";
import type { Field, Model } from "../../api/types.ts";
import { kindOf } from "../../fields/table.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Who saved an entry last, in words: the person's name (their e-mail without one), the key's name, or what did it. */
export function editorWords(e: Editor | null | undefined): string {
  if (!e) return "—";
  switch (e.kind) {
    case "user":
      return e.name ?? e.email ?? "A person";
    case "api_key":
      return e.name ? `API key ${e.name}` : "An API key";
    case "schedule":
      return "Scheduled action";
    default:
      return "Capa";
  }
}

function Time({ at }: { at: string | null }) {
  return at ? <time dateTime={at}>{when.format(new Date(at))}</time> : "—";
}

/** The cell of `column` for `entry`; `field` is the column's field when it is one. */
export function Cell(props: { column: ListColumn; field: Field | undefined; entry: ListedEntry; models: Model[] }) {
  const { column, field, entry } = props;
  if (field) {
    const FieldCell = kindOf(field).Cell;
    return <FieldCell field={field} value={entry.draft.data[field.namespace]} models={props.models} />;
  }
  switch (column.key) {
    case "$id":
      return (
        <span className="mono" title={entry.id}>
          {entry.id.slice(0, 8)}
        </span>
      );
    case "$status":
      return <StatusBadge status={entry.status} />;
    case "$createdAt":
      return <Time at={entry.createdAt} />;
    case "$updatedAt":
      return <Time at={entry.updatedAt} />;
    case "$publishedAt":
      return <Time at={entry.publishedAt} />;
    case "$lastEditedBy":
      return editorWords(entry.lastEditedBy);
    case "$tags":
      return entry.tags.length ? entry.tags.join(", ") : "—";
    default:
      return "—";
  }
}
