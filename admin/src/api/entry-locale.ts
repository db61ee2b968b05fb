// The locale the entry editor works in (issue 28). It is sent as `?locale=` on every route of
// the entry being edited (read, save, autosave, validate, publish, versions, restore, duplicate),
// so the editor's code that writes an entry stays the same in every locale: the server reads and
// writes localized fields in it. Kept apart from locales.ts, which calls the client, so the
// client can read it without an import cycle.

let editing: { code: string; id: string } | null = null;

/**
 * Sets the locale sent on the routes of entry `id` (or clears it, with null). Only that entry's
 * routes carry it: a related entry the form reads (its title in a picker) is read as always, so
 * its cached record is never one locale's, later shown in another's form.
 */
export function editInLocale(code: string | null, id?: string): void {
  editing = code && id ? { code, id } : null;
}

// The routes of one entry: /v2/model-instances/<id>[/...].
const ENTRY_ROUTE = /^\/v2\/model-instances\/([^/?]+)/;

/** The locale to add to a request of `path`, if any: the edited entry's routes, and the rules check. */
export function localeFor(path: string): string | null {
  if (!editing) return null;
  if (path === "/v2/model-instances/validate") return editing.code;
  return ENTRY_ROUTE.exec(path)?.[1] === editing.id ? editing.code : null;
}
