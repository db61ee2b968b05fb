// The entry list in a locale (issue 28 item 8): a Locale choice above the list of a model with
// localized fields, in a project with more than one locale, kept in the URL as `?locale=de` (the
// default locale is no parameter, so its requests are exactly as before). The list's request, its
// bulk actions' selection and its export carry the locale; the titles, status and search are the
// locale's; a title opens the editor in it. Nothing here renders with one locale.
import { localeLabel, type Locales, localizedModel, useLocales } from "../../api/locales.ts";
import type { ListedEntry } from "../../api/entry-lists.ts";
import type { Model } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";

/** The list's locales: every locale of the project, the one shown, and the one sent (none for the default). */
export interface ListLocales {
  all: Locales;
  shown: string;
  sent: string | undefined;
}

/**
 * The locales of the list of `model`, or null (one locale, no localized field). "waiting" while a
 * locale in the URL cannot be known yet, so the list is not read first in the default locale. A
 * code the project lacks lists the default locale.
 */
export function useListLocales(model: Model | undefined, wanted: string | undefined): ListLocales | null | "waiting" {
  const { project } = useProject();
  const locales = useLocales(project.id);
  const all = locales.data;
  if (wanted && (locales.isPending || !model)) return "waiting";
  if (!all || !model || !localizedModel(all, model)) return null;
  const shown = wanted && all.locales.some((x) => x.code === wanted) ? wanted : all.default;
  return { all, shown, sent: shown === all.default ? undefined : shown };
}

/**
 * The boxes Publish and Unpublish check first, as the server's default would move them for the
 * selected rows on this page: a publish, every locale some entry holds a value in (else the
 * default); an unpublish, every locale some entry is published in. Left untouched, no `locales`
 * is sent and the server applies its default entry by entry, so "all N that match" is right too.
 */
export function bulkDefaults(all: Locales, rows: ListedEntry[]): { publish: string[]; unpublish: string[] } {
  const codes = all.locales.map((x) => x.code);
  const held = codes.filter((c) => rows.some((r) => r.locales?.[c]));
  const live = codes.filter((c) => rows.some((r) => (r.locales?.[c]?.status ?? "draft") !== "draft"));
  return { publish: held.length > 0 ? held : [all.default], unpublish: live };
}

/** The Locale choice beside Status. */
export function LocaleFilter({ l, onChange }: { l: ListLocales; onChange(code: string | undefined): void }) {
  return (
    <div className="field">
      <label htmlFor="list-locale">Locale</label>
      <select id="list-locale" value={l.shown} onChange={(e) => onChange(e.target.value === l.all.default ? undefined : e.target.value)}>
        {l.all.locales.map((x) => (
          <option key={x.code} value={x.code}>
            {localeLabel(l.all, x.code)}
          </option>
        ))}
      </select>
    </div>
  );
}
