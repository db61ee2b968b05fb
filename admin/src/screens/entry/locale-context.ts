// What the editor's parts know of the locales of the entry being edited (issue 28): the
// project's locales, the locale edited, the entry read in every locale (`?locale=*`) and the
// locales a publish moves by default. Null in a project with one locale or a model without
// localized fields, where the editor shows nothing of locales.
import { createContext, useContext } from "react";
import type { Locales } from "../../api/locales.ts";
import type { Entry, Model } from "../../api/types.ts";
import { blank } from "./locale-beside.tsx";

export interface EntryLocales {
  all: Locales;
  current: string;
  /** The entry in every locale (localized fields as objects keyed by code); undefined while it loads or for a new entry. */
  every: Entry | undefined;
  /** The model of the entry (its localized fields). */
  model: Model;
}

export const EntryLocaleContext = createContext<EntryLocales | null>(null);

export function useEntryLocales(): EntryLocales | null {
  return useContext(EntryLocaleContext);
}

/** A localized field's value in `code`, from the entry read in every locale. */
export function valueIn(every: Entry | undefined, ns: string, code: string): unknown {
  const v = every?.draft.data[ns];
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>)[code] : undefined;
}

/**
 * The locales a publish moves by default, as the server decides it: every locale whose draft
 * holds a value (the one on screen counted from the form's `values`, when given; else as saved),
 * else the default locale.
 */
export function publishDefault(l: EntryLocales, model: Model, values?: Record<string, unknown>): string[] {
  const localized = model.fields.filter((f) => f.localized);
  const holds = (code: string) =>
    code === l.current && values ? localized.some((f) => !blank(values[f.namespace])) : localized.some((f) => !blank(valueIn(l.every, f.namespace, code)));
  const codes = l.all.locales.map((x) => x.code).filter(holds);
  return codes.length > 0 ? codes : [l.all.default];
}

/** The locales published now (published or changed), by the saved entry's per-locale status. */
export function publishedLocales(e: Entry | null): string[] {
  return Object.entries(e?.locales ?? {})
    .filter(([, s]) => s.status !== "draft")
    .map(([c]) => c);
}
