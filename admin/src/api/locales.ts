// The project's locales (GET/PUT /v2/locales, decisions.md 13). The locale the entry editor
// works in is kept in entry-locale.ts.
import { useQuery } from "@tanstack/react-query";
import type { LocalesBody } from "../../../src/shared/bodies.ts";
import type { Locales } from "../../../src/shared/settings.ts";
import { call } from "./client.ts";
import type { Model } from "./types.ts";

export type { Locale, LocaleInUse, Locales } from "../../../src/shared/settings.ts";

export const localesApi = {
  get: () => call<Locales>("GET", "/v2/locales"),
  /** Saves the whole list; `force` drops the values of removed locales (after a 409 locale_in_use). */
  put: (body: LocalesBody, force = false) => call<Locales>("PUT", "/v2/locales", { body, query: force ? { force: "true" } : {} }),
};

export const localeKeys = { all: (project: string) => ["locales", project] as const };

/** The project's locales (cached a minute: they change rarely and a change here invalidates them). */
export function useLocales(projectId: string) {
  return useQuery({ queryKey: localeKeys.all(projectId), queryFn: localesApi.get, staleTime: 60_000 });
}

/** Whether locales show for a model: the project has more than one and the model has a localized field. */
export function localizedModel(locales: Locales | undefined, model: Model): boolean {
  return !!locales && locales.locales.length > 1 && model.fields.some((f) => f.localized);
}

/** A locale's name with its code: `German (de)`. */
export function localeLabel(locales: Locales | undefined, code: string): string {
  const l = locales?.locales.find((x) => x.code === code);
  return l ? `${l.name} (${l.code})` : code;
}
