// Where a server refusal is shown: at the field it names (`data.<ns>` or `<ns>`), else as one
// sentence for the form. A refusal for the person's role is said as such.
import { ApiError } from "../../api/client.ts";
import type { Model } from "../../api/types.ts";

/** A message per field namespace, or a general one. */
export function placeError(model: Model, err: unknown): { fields: Record<string, string>; general: string | null } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ApiError && err.status === 403) return { fields: {}, general: `Your role cannot do this here: ${message}` };
  if (err instanceof ApiError && err.field) {
    const ns = err.field.replace(/^data\./, "").split(/[.[]/)[0]!;
    if (model.fields.some((f) => f.namespace === ns)) return { fields: { [ns]: message }, general: null };
  }
  return { fields: {}, general: message };
}
