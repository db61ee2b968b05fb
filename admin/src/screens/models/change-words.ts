// The words the field-change screens share: a state in words, and what a change did.
import { KIND_WORDS, type ChangeSide, type FieldChange } from "../../api/model-admin.ts";

export const STATE_WORDS: Record<FieldChange["state"], string> = {
  planned: "Planned",
  queued: "Queued",
  converting: "Converting entries",
  moving: "Moving the model to its new fields",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** States the server resumes from (interface.md: resume a failed or cancelled change). */
export const RESUMABLE = new Set(["failed", "cancelled"]);

function kind(s: ChangeSide): string {
  return s.type === "array" && s.arrayType ? `List of ${KIND_WORDS[s.arrayType]}` : KIND_WORDS[s.type];
}

/** What a change did, in a few words per field: `title: Text → Number`. */
export function summary(c: FieldChange): string {
  return c.ops
    .map((o) => {
      if (o.kind === "remove" || !o.to) return `${o.from.namespace} removed`;
      const name = o.to.namespace === o.from.namespace ? o.from.namespace : `${o.from.namespace} → ${o.to.namespace}`;
      return o.kind === "rename" ? `${name} renamed` : `${name}: ${kind(o.from)} → ${kind(o.to)}`;
    })
    .join("; ");
}
