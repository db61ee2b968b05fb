// Every write of the entry editor: Save, autosave, Publish, Unpublish and Delete. Saves go one at
// a time through one queue, each sending the fields changed when it starts and based (If-Match)
// on the version the previous one answered, so two saves close together (an autosave and a Save,
// a Save and Ctrl+S) never overwrite each other and nothing typed meanwhile is lost. After each
// save the server's rules are asked for (the validate route) and shown beside their fields.
import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { api, ApiError, keys } from "../../api/client.ts";
import { editingApi, fieldOf, type RuleError } from "../../api/editing.ts";
import type { Entry, Model } from "../../api/types.ts";
import { plainValues } from "../../fields/pending-text.ts";
import type { Draft } from "./use-draft.ts";
import { placeError } from "./place-error.ts";

/**
 * The notice of a new entry's first Save or Publish, left for the editor that opens at the entry's
 * own URL (a fresh component), so "Saved." or "Published." is still shown and announced there.
 */
export const carried = new Map<string, string>();

export interface Writer {
  busy: boolean;
  errors: Record<string, string>;
  general: string | null;
  notice: string | null;
  setNotice(n: string | null): void;
  /** The rules the saved draft breaks (it cannot be published until they hold), by namespace. */
  rules: RuleError[];
  /** When the last save (manual or automatic) was answered. */
  savedAt: Date | null;
  conflict: boolean;
  setConflict(c: boolean): void;
  /** The version the form is based on, and its values (for the conflict dialog). */
  basedOn: { version: number; data: Record<string, unknown> } | null;
  /** The entry's id once it exists. */
  savedId: string | null;
  save(): Promise<void>;
  /** Saves the changes as an autosave (an existing entry only); quiet: no notice, focus stays. */
  autosave(): Promise<void>;
  /** Publishes or unpublishes; `locales` names the locales that move (an entry with localized fields). */
  publish(action: "publish" | "unpublish", locales?: string[]): Promise<void>;
  remove(): Promise<void>;
  /** Saves what is unsaved, then makes a copy (a new draft) and opens it. */
  duplicate(): Promise<void>;
  /** The form now shows `e` (a reload, a restored version): based on it, errors cleared, `message` said. */
  refresh(e: Entry, message: string): Promise<void>;
  /** Takes a newer version as the base without changing the form (Overwrite). */
  rebase(e: Entry): void;
  /** Clears the error shown at a field when the person edits it. */
  clearError(ns: string): void;
}

export function useEntryWriter(
  model: Model,
  entry: Entry | null,
  draft: Draft,
  projectId: string,
  onSaved: (e: Entry) => void,
  /** The locale edited when it is not the default (a project with several), part of the entry's query key. */
  locale: string | null = null,
): Writer {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [rules, setRules] = useState<RuleError[]>([]);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [pending, setPending] = useState(0);
  const basedOn = useRef<{ version: number; data: Record<string, unknown> } | null>(entry ? { version: entry.version, data: entry.draft.data } : null);
  // The entry this form writes to: the one opened, or the one its first save created, so a
  // failed Publish after that save never creates a second entry.
  const savedId = useRef<string | null>(entry?.id ?? null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef<Entry | null>(entry);
  // An entry opened with broken rules shows them at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, for the entry opened.
  useEffect(() => {
    if (entry) void check(entry.id);
  }, []);

  /** Runs `job` after every write before it; the busy count covers it. */
  function queued<T>(job: () => Promise<T>): Promise<T> {
    setPending((n) => n + 1);
    const run = queue.current.catch(() => undefined).then(job);
    queue.current = run;
    return run.finally(() => setPending((n) => n - 1));
  }

  /** The rules the saved draft breaks, asked of the server (a failure to ask changes nothing). */
  async function check(id: string) {
    try {
      setRules((await editingApi.validate({ id })).errors);
    } catch {
      // The rules are shown again at the next save or publish.
    }
  }

  /** Saves what is on screen (creating the entry on its first save); no request when nothing changed. */
  const persist = (auto = false) =>
    queued(async (): Promise<Entry> => {
      const { values, changed } = draft.now.current;
      const fields = [...changed];
      if (savedId.current && fields.length === 0 && latest.current) return latest.current;
      const data = plainValues(Object.fromEntries(fields.map((ns) => [ns, values[ns] ?? null])));
      const saved = !savedId.current
        ? await api.entries.create(model.namespace, plainValues(values))
        : auto
          ? await editingApi.autosave(savedId.current, data, basedOn.current?.version)
          : await api.entries.update(savedId.current, data, basedOn.current?.version);
      savedId.current = saved.id;
      latest.current = saved;
      basedOn.current = { version: saved.version, data: saved.draft.data };
      draft.saved(values, fields);
      setSavedAt(new Date());
      client.setQueryData(keys.entry(projectId, saved.id, locale), saved);
      onSaved(saved);
      void check(saved.id);
      return saved;
    });

  /** Shows a refusal at its fields; `quiet` (an autosave) leaves focus and the notice alone. */
  function fail(err: unknown, quiet = false) {
    if (err instanceof ApiError && err.code === "version_conflict") {
      setConflict(true);
      return;
    }
    // Publish refused on rules: every broken rule beside its field and in the publish panel.
    const broken = err instanceof ApiError && err.code === "validation_failed" ? (err.body?.errors as RuleError[] | undefined) : undefined;
    if (broken) {
      setRules(broken);
      setErrors({});
      setGeneral(null);
      setNotice(null);
      const first = model.fields.find((f) => broken.some((b) => fieldOf(b) === f.namespace));
      if (first) requestAnimationFrame(() => document.getElementById(`f-${first.id}`)?.focus());
      return;
    }
    if (quiet && !(err instanceof ApiError && err.field)) return;
    // A Publish may have saved before it failed: lists show the saved draft either way.
    void client.invalidateQueries({ queryKey: keys.entries(projectId, model.namespace) });
    const placed = placeError(model, err);
    setErrors(placed.fields);
    setGeneral(placed.general);
    if (quiet) return;
    setNotice(null);
    // Move focus to the first field in error, so keyboard and screen reader users land on it.
    const first = model.fields.find((f) => placed.fields[f.namespace]);
    if (first) requestAnimationFrame(() => document.getElementById(`f-${first.id}`)?.focus());
  }

  async function refresh(e: Entry, message: string) {
    basedOn.current = { version: e.version, data: e.draft.data };
    latest.current = e;
    void check(e.id);
    setErrors({});
    setGeneral(null);
    setNotice(message);
    client.setQueryData(keys.entry(projectId, e.id, locale), e);
    // The other locales' statuses and values (the locale bar, the column beside) are read again.
    void client.invalidateQueries({ queryKey: keys.entry(projectId, e.id, "*") });
    await client.invalidateQueries({ queryKey: keys.entries(projectId, model.namespace) });
  }

  /** After a write: the message, fresh lists, and the entry's own URL for a new entry. */
  async function settle(e: Entry, message: string) {
    await refresh(e, message);
    if (!entry) {
      carried.set(e.id, message);
      await navigate({ to: "/content/$model/$entryId", params: { model: model.namespace, entryId: e.id }, replace: true });
    }
  }

  return {
    busy: pending > 0,
    errors,
    general,
    notice,
    setNotice,
    conflict,
    setConflict,
    rules,
    savedAt,
    basedOn: basedOn.current,
    savedId: savedId.current,
    async save() {
      try {
        await settle(await persist(), "Saved.");
      } catch (e) {
        fail(e);
      }
    },
    async autosave() {
      if (!savedId.current || conflict) return;
      try {
        await persist(true);
      } catch (e) {
        fail(e, true);
      }
    },
    async publish(action, locales) {
      try {
        // A new entry that breaks a rule is not created: the rules are checked first.
        if (!savedId.current && action === "publish") {
          const answer = await editingApi.validate({ model: model.namespace, data: plainValues(draft.now.current.values) });
          if (!answer.valid) return fail(new ApiError(400, answer.errors[0]!.message, "validation_failed", answer.errors[0]!.field, { errors: answer.errors }));
        }
        // Publishing publishes what is on screen: unsaved changes are saved first.
        const id = (await persist()).id;
        const e = await queued(() => (action === "publish" ? api.entries.publish(id, locales) : api.entries.unpublish(id, locales)));
        latest.current = e;
        onSaved(e);
        const word = action === "publish" ? "Published" : "Unpublished";
        await settle(e, locales ? `${word} in ${locales.join(", ")}.` : `${word}.`);
      } catch (e) {
        fail(e);
      }
    },
    async remove() {
      try {
        await queued(() => api.entries.remove(entry!.id));
        client.removeQueries({ queryKey: keys.entry(projectId, entry!.id) });
        await client.invalidateQueries({ queryKey: keys.entries(projectId, model.namespace) });
        await navigate({ to: "/content/$model", params: { model: model.namespace }, search: {} });
      } catch (e) {
        fail(e);
      }
    },
    async duplicate() {
      try {
        const id = (await persist()).id;
        const copy = await queued(() => editingApi.duplicate(id));
        await client.invalidateQueries({ queryKey: keys.entries(projectId, model.namespace) });
        carried.set(copy.id, "Duplicated: this is the copy, a new draft.");
        await navigate({ to: "/content/$model/$entryId", params: { model: model.namespace, entryId: copy.id } });
      } catch (e) {
        fail(e);
      }
    },
    refresh,
    rebase(e) {
      basedOn.current = { version: e.version, data: e.draft.data };
      latest.current = e;
    },
    clearError(ns) {
      setErrors((old) => {
        if (!(ns in old)) return old;
        const { [ns]: _, ...rest } = old;
        return rest;
      });
    },
  };
}
