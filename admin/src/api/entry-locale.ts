// The locale the entry editor works in (issue 28). It is sent as `?locale=` on every route of
// the entry being edited (read, save, autosave, validate, publish, versions, restore, duplicate),
// so the editor's code that writes an entry stays the same in every locale: the server reads and
// writes localized fields in it. Kept apart from locales.ts, which calls the client, so the
// client can read it without an import cycle.

let editing: string | null = null;

/** Sets (or clears, with null) the locale sent on the routes of the entry being edited. */
export function editInLocale(code: string | null): void {
  editing = code;
}

// The routes of one entry: /v2/model-instances/<id>[/...], not the list's own routes.
const ENTRY_ROUTE = /^\/v2\/model-instances\/(?!bulk-|export|columns)[^/?]+/;

/** The locale to add to a request of `path`, if any. */
export function localeFor(path: string): string | null {
  return editing && ENTRY_ROUTE.test(path) ? editing : null;
}
