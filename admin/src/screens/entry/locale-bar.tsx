// The editor's locale bar (issue 28 item 8): one link per locale with its own status (the
// switcher; the URL keeps the locale as ?locale=), the locale shown beside the form (?compare=)
// and "Fill empty fields from <locale>" for the whole entry. Changing the locale is a navigation,
// so unsaved changes are guarded as when leaving the entry.
import { Link, useNavigate } from "@tanstack/react-router";
import type { Entry, EntryStatus } from "../../api/types.ts";
import { StatusBadge } from "../../ui/status-badge.tsx";
import type { EntryLocales } from "./locale-context.ts";

export function LocaleBar(props: {
  l: EntryLocales;
  model: string;
  entry: Entry | null;
  compare: string | null;
  /** The locale "Fill empty fields" copies from, or null when there is none to copy from. */
  fillFrom: string | null;
  readOnly: boolean;
  onFill(): void;
  /** Opens the choice of locales to publish or unpublish. */
  onChoose(action: "publish" | "unpublish"): void;
  /** The labels of the model's localized fields. */
  localized: string[];
  /** Whether any locale is published (Take offline in… shows then). */
  published: boolean;
}) {
  const { l, entry } = props;
  const status = (code: string): EntryStatus => entry?.locales?.[code]?.status ?? "draft";
  const name = (code: string) => l.all.locales.find((x) => x.code === code)?.name ?? code;
  return (
    <div className="locale-bar">
      {entry ? (
        <nav aria-label="Locales">
          <ul className="locale-tabs">
            {l.all.locales.map((x) => (
              <li key={x.code}>
                <Link
                  to="/content/$model/$entryId"
                  params={{ model: props.model, entryId: entry.id }}
                  search={{ locale: x.code, ...(props.compare && props.compare !== x.code ? { compare: props.compare } : {}) }}
                  aria-current={x.code === l.current ? "page" : undefined}
                >
                  {x.name} ({x.code}) <StatusBadge status={status(x.code)} />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <p className="muted">
          A new entry is written in {name(l.current)} ({l.current}); the other locales open once it is saved.
        </p>
      )}
      {entry && (
        <p className="hint">
          Localized fields ({localizedCount(props.localized)}) show {name(l.current)}; the other fields are shared by every locale.
        </p>
      )}
      {entry && (
        <div className="toolbar">
          <label htmlFor="locale-compare">Show beside</label>
          <CompareSelect l={l} model={props.model} entryId={entry.id} compare={props.compare} />
        </div>
      )}
      {entry && !props.readOnly && props.fillFrom && (
        <button type="button" className="btn" onClick={props.onFill}>
          Fill empty fields from {name(props.fillFrom)} ({props.fillFrom})
        </button>
      )}
      {entry && !props.readOnly && (
        <span className="toolbar">
          <button type="button" className="btn" onClick={() => props.onChoose("publish")}>
            Publish in…
          </button>
          {props.published && (
            <button type="button" className="btn" onClick={() => props.onChoose("unpublish")}>
              Take offline in…
            </button>
          )}
        </span>
      )}
    </div>
  );
}

/** "Title, Excerpt and Body". */
function localizedCount(labels: string[]): string {
  return labels.length <= 1 ? (labels[0] ?? "") : `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

/** The choice of the locale shown beside the form (none, or another locale), kept in the URL. */
function CompareSelect(props: { l: EntryLocales; model: string; entryId: string; compare: string | null }) {
  const navigate = useNavigate();
  return (
    <select
      id="locale-compare"
      value={props.compare ?? ""}
      onChange={(e) =>
        void navigate({
          to: "/content/$model/$entryId",
          params: { model: props.model, entryId: props.entryId },
          search: { locale: props.l.current, ...(e.target.value ? { compare: e.target.value } : {}) },
          replace: true,
        })
      }
    >
      <option value="">Nothing</option>
      {props.l.all.locales
        .filter((x) => x.code !== props.l.current)
        .map((x) => (
          <option key={x.code} value={x.code}>
            {x.name} ({x.code})
          </option>
        ))}
    </select>
  );
}
