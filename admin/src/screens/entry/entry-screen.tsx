// The entry editor's two screens: an existing entry, and a new entry of a model. Both load what
// they need once and hand it to the editor (editor.tsx).
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams, useSearch } from "@tanstack/react-router";
import { editInLocale } from "../../api/entry-locale.ts";
import { localizedModel, useLocales } from "../../api/locales.ts";
import { api, keys } from "../../api/client.ts";
import { canEditEntries } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { Editor } from "./editor.tsx";
import { EntryLocaleContext } from "./locale-context.ts";

/** An existing entry in the editor, in the locale of the URL (`?locale=`, default: the project's). */
export function EntryScreen() {
  const { project } = useProject();
  const { model: ns, entryId } = useParams({ from: "/app/content/$model/$entryId" });
  const search = useSearch({ from: "/app/content/$model/$entryId" });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const locales = useLocales(project.id);
  const model = models.data?.find((m) => m.namespace === ns);
  // With one locale, or a model without localized fields, no locale is sent: the editor is as it was.
  const localized = !!model && localizedModel(locales.data, model);
  const locale = localized ? (locales.data!.locales.find((l) => l.code.toLowerCase() === search.locale?.toLowerCase())?.code ?? locales.data!.default) : null;
  // The default locale is what the server reads and writes without `?locale=`: requests in it stay as they were.
  const sent = locale && locale !== locales.data?.default ? locale : null;
  editInLocale(sent, entryId);
  useEffect(() => () => editInLocale(null), []);
  // Without ?locale= the entry is read at once, as before (the default locale needs no parameter);
  // with one, once the locales say whether it applies.
  const ready = !!models.data && (!!locales.data || locales.isError);
  const entry = useQuery({ queryKey: keys.entry(project.id, entryId, sent), queryFn: () => api.entries.get(entryId, sent), enabled: !search.locale || ready });
  const every = useQuery({ queryKey: keys.entry(project.id, entryId, "*"), queryFn: () => api.entries.get(entryId, "*"), enabled: ready && localized });
  if (models.isError || entry.isError) return <p role="alert">{(models.error ?? entry.error)?.message}</p>;
  // The form waits for the locales too: its key names the locale, and a form shown before they
  // arrived was remade when they did, dropping what had been typed in between.
  if (!models.data || !entry.data || !ready) return <p>Loading…</p>;
  if (!model) return <p role="alert">No model “{ns}” in this project.</p>;
  const compare = locale && search.compare && search.compare !== locale ? (locales.data!.locales.find((l) => l.code === search.compare)?.code ?? null) : null;
  // Keyed by entry and locale: another entry or locale starts a fresh form; a save keeps what is on screen.
  return (
    <EntryLocaleContext.Provider value={locale ? { all: locales.data!, current: locale, every: every.data, model } : null}>
      <Editor key={`${entry.data.id}:${locale ?? ""}`} model={model} models={models.data} entry={entry.data} compare={compare} />
    </EntryLocaleContext.Provider>
  );
}

/** A new entry of a model. */
export function NewEntryScreen() {
  const { project } = useProject();
  const { model: ns } = useParams({ from: "/app/content/$model/new" });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const locales = useLocales(project.id);
  // A viewer reads entries only: the screen says so instead of a form the server would refuse.
  if (!canEditEntries(project.role)) {
    return (
      <>
        <h1>New entry</h1>
        <p className="notice">Your role ({project.role}) can read entries but not write them. Owners, admins, developers and editors can.</p>
      </>
    );
  }
  if (!models.data) return <p>Loading…</p>;
  const model = models.data.find((m) => m.namespace === ns);
  if (!model) return <p role="alert">No model “{ns}” in this project.</p>;
  // A new entry is written in the default locale (the server's default for a create).
  const l = localizedModel(locales.data, model) ? { all: locales.data!, current: locales.data!.default, every: undefined, model } : null;
  return (
    <EntryLocaleContext.Provider value={l}>
      <Editor model={model} models={models.data} entry={null} compare={null} />
    </EntryLocaleContext.Provider>
  );
}
