// The Locales screen under Settings (decisions.md 13, issue 28 item 8): the project's locales in
// order, each with its fallback chain (add, reorder, remove a fallback), a form to add a locale,
// and Remove, which the server refuses with the values at stake (409 locale_in_use) until the
// person confirms and it is sent again with ?force=true. Another locale can be made the default
// (reads without a locale then get it). Every change is saved at once, as the whole list
// (PUT /v2/locales); the default locale cannot be removed.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { type Locale, type LocaleInUse, type Locales, localeKeys, localesApi, useLocales } from "../../api/locales.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { useProject } from "../shell/project-context.ts";
import { AddLocaleForm } from "./add-locale.tsx";
import { FallbackEditor } from "./fallback-editor.tsx";
import { RemoveLocaleDialog } from "./remove-locale.tsx";

/** The list without `code`, and without it in any chain (a chain may only name listed codes). */
export function without(l: Locales, code: string): Locales {
  return { default: l.default, locales: l.locales.filter((x) => x.code !== code).map((x) => ({ ...x, fallback: x.fallback.filter((c) => c !== code) })) };
}

/**
 * The list with `code` as the default: the default falls back to nothing, so its chain is emptied;
 * every other chain stays as it was (the old default falls back to nothing until one is added).
 */
export function withDefault(l: Locales, code: string): Locales {
  return { default: code, locales: l.locales.map((x) => (x.code === code ? { ...x, fallback: [] } : x)) };
}

export function LocalesScreen() {
  const { project } = useProject();
  const client = useQueryClient();
  const canEdit = project.role === "owner" || project.role === "admin";
  const locales = useLocales(project.id);
  const [notice, setNotice] = useState<string | null>(null);
  const [inUse, setInUse] = useState<{ code: string; counts: LocaleInUse[] } | null>(null);
  const save = useMutation({
    mutationFn: (v: { body: Locales; done: string; force?: boolean }) => localesApi.put(v.body, v.force),
    onSuccess: (saved, v) => {
      client.setQueryData(localeKeys.all(project.id), saved);
      // Entries show each locale's status and values: read them again.
      void client.invalidateQueries({ queryKey: ["entry", project.id] });
      void client.invalidateQueries({ queryKey: ["entries", project.id] });
      setInUse(null);
      setNotice(v.done);
    },
    onError: (e, v) => {
      const removed = locales.data?.locales.find((l) => !v.body.locales.some((x) => x.code === l.code));
      if (e instanceof ApiError && e.code === "locale_in_use" && removed) {
        setInUse({ code: removed.code, counts: (e.body?.locales as LocaleInUse[]) ?? [] });
      }
    },
  });
  if (locales.isError) return <Refusal error={locales.error} />;
  const l = locales.data;
  if (!l) return <p>Loading…</p>;
  const send = (body: Locales, done: string, force = false) => {
    setNotice(null);
    save.mutate({ body, done, force });
  };
  const replace = (next: Locale) => ({ default: l.default, locales: l.locales.map((x) => (x.code === next.code ? next : x)) });
  // A refusal of the new locale is shown at its Code field; the 409 of a removal in its dialog.
  const addError = save.error instanceof ApiError && save.error.field?.startsWith(`locales[${l.locales.length}]`) ? save.error.message : null;
  const refusal = save.error && !addError && !(save.error instanceof ApiError && save.error.code === "locale_in_use") ? save.error : null;

  return (
    <>
      <h1>Locales</h1>
      <p>
        Fields marked Localized keep one value per locale. A locale with fallbacks shows their values where it has none, in the order listed. The default locale
        ({l.default}) is what reads without a locale get.
      </p>
      {!canEdit && <p className="notice">Your role ({project.role}) can read the locales; owners and admins change them.</p>}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {refusal && <Refusal error={refusal} />}
      <ul className="locale-list" aria-label="Locales of the project">
        {l.locales.map((x) => (
          <li key={x.code} className="card form-stack">
            <h2>
              {x.name} <span className="mono">({x.code})</span>
              {x.code === l.default && <span className="status"> Default</span>}
            </h2>
            {x.code === l.default ? (
              <p className="hint">The default locale falls back to nothing and cannot be removed.</p>
            ) : (
              <FallbackEditor
                locale={x}
                all={l.locales}
                readOnly={!canEdit}
                busy={save.isPending}
                onChange={(fallback, done) => send(replace({ ...x, fallback }), done)}
              />
            )}
            {canEdit && x.code !== l.default && (
              <div className="toolbar">
                <button
                  type="button"
                  className="btn"
                  disabled={save.isPending}
                  onClick={() => send(withDefault(l, x.code), `${x.name} (${x.code}) is now the default locale.`)}
                >
                  Make {x.name} ({x.code}) the default
                </button>
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={save.isPending}
                  onClick={() => send(without(l, x.code), `Removed ${x.name} (${x.code}).`)}
                >
                  Remove {x.name} ({x.code})
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <AddLocaleForm
          key={l.locales.map((x) => x.code).join(",")}
          locales={l}
          busy={save.isPending}
          error={addError}
          onAdd={(x) => send({ default: l.default, locales: [...l.locales, x as Locale] }, x.name ? `Added ${x.name} (${x.code}).` : `Added ${x.code}.`)}
        />
      )}
      <RemoveLocaleDialog
        open={inUse !== null}
        name={inUse ? (l.locales.find((x) => x.code === inUse.code)?.name ?? inUse.code) : ""}
        code={inUse?.code ?? ""}
        counts={inUse?.counts ?? []}
        busy={save.isPending}
        onCancel={() => setInUse(null)}
        onConfirm={() => inUse && send(without(l, inUse.code), `Removed ${inUse.code} and its values.`, true)}
      />
    </>
  );
}
