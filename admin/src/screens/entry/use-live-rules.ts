// Unique and slug as one types (issue 26 item 7): a moment after a unique or slug field changes,
// the server's validate route is asked what a save would say of the values on screen (writing
// nothing), and a value another entry holds is said beside its field ("Slug is already used by
// ...") before any save. Typing never waits for it; a failed ask says nothing.
import { useEffect, useMemo, useState } from "react";
import { editingApi, fieldOf } from "../../api/editing.ts";
import type { Model } from "../../api/types.ts";
import { plainValues } from "../../fields/pending-text.ts";

const ASK_AFTER_MS = 400;
const LIVE_RULES = new Set(["unique", "slug"]);

/** Messages by namespace for the unique and slug fields whose values on screen break their rule. */
export function useLiveRules(model: Model, entryId: string | null, values: Record<string, unknown>, on: boolean): Record<string, string> {
  const watched = useMemo(() => model.fields.filter((f) => f.unique || f.slug).map((f) => f.namespace), [model]);
  const key = JSON.stringify(watched.map((ns) => values[ns] ?? null));
  const [found, setFound] = useState<Record<string, string>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again only when a watched value changes (`key`).
  useEffect(() => {
    if (!on || watched.length === 0) return;
    let stale = false;
    const t = setTimeout(async () => {
      const data = plainValues(Object.fromEntries(watched.map((ns) => [ns, values[ns] ?? null])));
      try {
        const answer = await editingApi.validate(entryId ? { id: entryId, data } : { model: model.namespace, data });
        if (stale) return;
        const out: Record<string, string> = {};
        for (const e of answer.errors) if (LIVE_RULES.has(e.rule) && watched.includes(fieldOf(e))) out[fieldOf(e)] ??= e.message;
        setFound(out);
      } catch {
        // Said at the next save instead.
      }
    }, ASK_AFTER_MS);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [key, on, entryId]);
  return found;
}
