// A status shown as a coloured dot with its word, never colour alone (design/admin.md, Look).
import type { EntryStatus } from "../api/types.ts";
import { STATUS_WORDS } from "../api/models.ts";

/** An entry's status. */
export function StatusBadge({ status }: { status: EntryStatus }) {
  return <span className={`status status-${status}`}>{STATUS_WORDS[status]}</span>;
}
