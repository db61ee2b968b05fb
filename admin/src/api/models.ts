// Small facts about models the screens share: the title field and a field's label.
import type { Entry, Field, Model } from "./types.ts";

/** The field that names an entry: a text field called `title`, else the first text field. */
export function titleField(m: Model): Field | null {
  return m.fields.find((f) => f.namespace === "title" && f.type === "string") ?? m.fields.find((f) => f.type === "string") ?? null;
}

/** An entry's title, from its draft. */
export function entryTitle(m: Model, e: Entry): string {
  const f = titleField(m);
  const v = f ? e.draft.data[f.namespace] : null;
  return typeof v === "string" && v.trim() !== "" ? v : "Untitled entry";
}

/** The words a field's input is labelled with: its label, or its namespace when it has none (decisions.md 11). */
export function labelOf(f: Field): string {
  return f.label?.trim() || f.namespace;
}

/** The word shown for a status, beside its colour. */
export const STATUS_WORDS = { draft: "Draft", published: "Published", changed: "Changed" } as const;

/**
 * The model's preview URL for an entry: `{token}`, `{id}` and `{model}` filled in, and `{<field>}`
 * with the field's draft value (URL-encoded; empty when it has none), or null without a template.
 */
export function previewUrlFor(m: Model, e: Entry, token: string): string | null {
  if (!m.previewUrl) return null;
  const known: Record<string, string> = { token, id: e.id, model: m.namespace };
  return m.previewUrl.replace(/\{([A-Za-z0-9_$-]{1,64})\}/g, (_, name: string) => {
    if (name in known) return encodeURIComponent(known[name]!);
    const v = e.draft.data[name];
    return v === null || v === undefined || typeof v === "object" ? "" : encodeURIComponent(String(v));
  });
}
