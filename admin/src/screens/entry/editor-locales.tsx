// The entry editor's locale parts (issue 28 item 8), gathered so editor.tsx stays about editing:
// the locale bar, the column beside the form, "Fill empty fields", and Publish and Unpublish
// "Publish in…" and "Take offline in…" asking which locales (the toolbar's Publish and Unpublish
// keep the server's default: every locale holding a value, every published locale). Nothing here renders in a project with one locale.
import { useCallback, useState, type ReactNode } from "react";
import { labelOf } from "../../api/models.ts";
import type { Entry, Field, Model } from "../../api/types.ts";
import type { Draft } from "./use-draft.ts";
import type { Writer } from "./use-entry-writer.ts";
import { BesideValue, blank } from "./locale-beside.tsx";
import { LocaleBar } from "./locale-bar.tsx";
import { LocaleActionDialog } from "./locale-choice.tsx";
import { publishDefault, publishedLocales, useEntryLocales, valueIn } from "./locale-context.ts";

export interface EditorLocales {
  /** The bar above the form, or null. */
  bar: ReactNode;
  /** The side-by-side column's content for a localized field, when a locale is shown beside. */
  beside: ((f: Field) => ReactNode) | undefined;
  /** The dialog choosing locales, while open. */
  dialog: ReactNode;
}

export function useEditorLocales(p: {
  model: Model;
  models: Model[];
  entry: Entry | null;
  saved: Entry | null;
  draft: Draft;
  w: Writer;
  readOnly: boolean;
  compare: string | null;
}): EditorLocales {
  const l = useEntryLocales();
  const { draft, w, model, models, readOnly, compare } = p;
  const [choosing, setChoosing] = useState<"publish" | "unpublish" | null>(null);
  const [, setFilled] = useState(0);
  const every = l?.every;
  const all = l?.all;
  const name = useCallback((code: string) => all?.locales.find((x) => x.code === code)?.name ?? code, [all]);
  const beside = useCallback(
    (f: Field) =>
      compare ? (
        <BesideValue
          field={f}
          value={valueIn(every, f.namespace, compare)}
          code={compare}
          name={name(compare)}
          models={models}
          readOnly={readOnly}
          onFill={draft.onChange}
        />
      ) : null,
    [compare, every, models, readOnly, draft.onChange, name],
  );
  if (!l) return { bar: null, beside: undefined, dialog: null };
  const own = l.all.locales.find((x) => x.code === l.current);
  // Whole-entry fill copies from the locale shown beside, else the first of this locale's
  // fallbacks, else the default locale.
  const fillFrom = compare ?? own?.fallback[0] ?? (l.current !== l.all.default ? l.all.default : null);
  const fill = () => {
    if (!fillFrom) return;
    const { values } = draft.now.current;
    const copied = Object.fromEntries(
      model.fields
        .filter((f) => f.localized && blank(values[f.namespace]) && !blank(valueIn(every, f.namespace, fillFrom)))
        .map((f) => [f.namespace, structuredClone(valueIn(every, f.namespace, fillFrom))]),
    );
    const n = Object.keys(copied).length;
    if (n > 0) draft.apply(copied);
    w.setNotice(
      n === 0
        ? `No empty field has a value in ${fillFrom}.`
        : `Filled ${n === 1 ? "1 empty field" : `${n} empty fields`} from ${name(fillFrom)} (${fillFrom}). Save to keep them.`,
    );
    setFilled((k) => k + 1);
  };
  const dialog = choosing && (
    <LocaleActionDialog
      action={choosing}
      all={l.all}
      initial={choosing === "publish" ? publishDefault(l, model, draft.now.current.values) : publishedLocales(p.saved)}
      onCancel={() => setChoosing(null)}
      onConfirm={(codes) => {
        setChoosing(null);
        void w.publish(choosing, codes);
      }}
    />
  );
  return {
    bar: (
      <LocaleBar
        l={l}
        model={model.namespace}
        entry={p.entry}
        compare={compare}
        fillFrom={fillFrom}
        readOnly={readOnly || w.busy}
        onFill={fill}
        onChoose={setChoosing}
        published={publishedLocales(p.saved).length > 0}
        localized={model.fields.filter((f) => f.localized).map(labelOf)}
      />
    ),
    beside: compare ? beside : undefined,
    dialog,
  };
}
