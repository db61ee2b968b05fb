// Acting on the selected entries (design/admin.md, Lists): Publish, Unpublish and Delete (to the
// trash) first ask the server for a dry run and confirm with its count ("Publish 3 entries?"),
// then send that count as `expectedCount`, so a selection that changed in between is refused
// rather than acted on; Schedule sets one time for all of them; Export saves them as CSV or JSON.
// The selection is the ticked ids, or "every entry that matches" the list's own filter. With
// locales (issue 28), the list's locale rides as `?locale=` and Publish, Unpublish and Schedule
// let the person choose the locales they move (list-locales.tsx says what is checked first).
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { type BulkAction, listApi, type Selected } from "../../api/entry-lists.ts";
import type { Locales } from "../../api/locales.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { LocaleChecks } from "../entry/locale-choice.tsx";
import { ScheduleDialog } from "./schedule-dialog.tsx";
import { entries } from "./words.ts";

const WORD = { publish: "Publish", unpublish: "Unpublish", delete: "Delete" } as const;
const DONE = { publish: "Published", unpublish: "Unpublished", delete: "Moved to the trash:" } as const;

/** What a bulk answer did, in words: the counts of entries done in the request, or a batch started in the background. */
export function doneWords(action: BulkAction, r: { count: number; counts?: Record<string, number> }): string {
  const c = r.counts;
  if (!c) return `${WORD[action]} of ${entries(r.count)} started; it goes on in the background.`;
  const done = c.done ?? 0;
  const rest = [c.skipped ? `${c.skipped} skipped` : "", c.failed ? `${c.failed} failed` : ""].filter(Boolean).join(", ");
  return `${DONE[action]} ${entries(done)}${rest ? `, ${rest}` : ""}.`;
}

/** What the confirmation says will happen. */
function consequence(action: BulkAction, n: number): string {
  if (action === "publish") return `The current drafts of ${entries(n)} go live. Entries already live are skipped.`;
  if (action === "unpublish") return `${entries(n)} stop being live; their drafts stay.`;
  return `${entries(n)} move to the trash: they leave every read at once and can be restored from the Trash for 30 days.`;
}

interface Props {
  model: string;
  count: number;
  selected: Selected;
  /** What an export holds and in which order: the columns shown, the list's sort. */
  exportOf: { columns: string[]; sort: string };
  /** The action's words; `batch` when more than 50 entries were queued to run in the background. */
  onDone(message: string, batch?: { action: BulkAction; id: string }): void;
  onClear(): void;
  /** The list's locale when not the default (`?locale=` of every request here). */
  locale?: string;
  /** The project's locales and the boxes checked first, or null with one locale. */
  locales: { all: Locales; initial: { publish: string[]; unpublish: string[] } } | null;
}

/** The locales chosen for a publish or unpublish; `changed` false sends none (the server's default). */
export type Chosen = { codes: string[]; changed: boolean };

/** The bar shown while entries are selected. */
export function BulkBar(p: Props) {
  const [pending, setPending] = useState<{ action: BulkAction; count: number } | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const dry = useMutation({
    mutationFn: (action: BulkAction) => listApi.bulk(action, p.selected, { dryRun: true }, p.locale).then((r) => ({ action, count: r.count })),
    onSuccess: (x) => {
      setError(null);
      setPending(x);
      setChosen(p.locales && x.action !== "delete" ? { codes: p.locales.initial[x.action], changed: false } : null);
    },
    onError: setError,
  });
  const run = useMutation({
    mutationFn: (x: { action: BulkAction; count: number }) =>
      listApi
        .bulk(x.action, p.selected, { expectedCount: x.count, ...(chosen?.changed ? { locales: chosen.codes } : {}) }, p.locale)
        .then((r) => ({ ...x, r })),
    onSuccess: ({ action, r }) => {
      setPending(null);
      p.onDone(
        doneWords(action, "counts" in r ? r : { count: r.count }) + (chosen?.changed ? ` Locales: ${chosen.codes.join(", ")}.` : ""),
        "batchId" in r ? { action, id: r.batchId } : undefined,
      );
    },
    onError: (e) => {
      setPending(null);
      setError(e);
    },
  });
  const exporting = useMutation({
    mutationFn: async (format: "csv" | "json") => {
      const blob = await listApi.export({
        model: p.model,
        format,
        columns: p.exportOf.columns,
        sort: p.exportOf.sort || undefined,
        selected: p.selected,
        locale: p.locale,
      });
      saveFile(blob, `${p.model}-${new Date().toISOString().slice(0, 10)}.${format}`);
      return format;
    },
    onSuccess: (format) => p.onDone(`Exported ${entries(p.count)} as ${format.toUpperCase()}.`),
    onError: setError,
  });

  return (
    <section className="bulk-bar" aria-label="Selection">
      <span>{entries(p.count)} selected</span>
      {(["publish", "unpublish"] as const).map((a) => (
        <button key={a} type="button" className="btn" disabled={dry.isPending} onClick={() => dry.mutate(a)}>
          {WORD[a]}
        </button>
      ))}
      <button type="button" className="btn" onClick={() => setScheduling(true)}>
        Schedule
      </button>
      <button type="button" className="btn btn-danger" disabled={dry.isPending} onClick={() => dry.mutate("delete")}>
        Delete
      </button>
      <button type="button" className="btn" disabled={exporting.isPending} onClick={() => exporting.mutate("csv")}>
        Export CSV
      </button>
      <button type="button" className="btn" disabled={exporting.isPending} onClick={() => exporting.mutate("json")}>
        Export JSON
      </button>
      <button type="button" className="btn btn-quiet" onClick={p.onClear}>
        Clear selection
      </button>
      {error && <Refusal error={error} />}
      <Dialog open={!!pending} title={pending ? `${WORD[pending.action]} ${entries(pending.count)}?` : ""} onCancel={() => setPending(null)}>
        {pending && (
          <>
            <p>{consequence(pending.action, pending.count)}</p>
            {chosen && p.locales && pending.action !== "delete" && (
              <LocaleChecks
                all={p.locales.all}
                idPrefix={`bulk-${pending.action}`}
                legend={`Locales to ${pending.action}`}
                value={chosen.codes}
                onChange={(codes) => setChosen({ codes, changed: true })}
              />
            )}
            <div className="toolbar">
              <button
                type="button"
                className={pending.action === "delete" ? "btn btn-danger-solid" : "btn btn-primary"}
                disabled={run.isPending || chosen?.codes.length === 0}
                onClick={() => run.mutate(pending)}
              >
                {`${WORD[pending.action]} ${entries(pending.count)}`}
              </button>
              <button type="button" className="btn" onClick={() => setPending(null)}>
                Cancel
              </button>
            </div>
          </>
        )}
      </Dialog>
      {scheduling && (
        <ScheduleDialog
          selected={p.selected}
          count={p.count}
          locale={p.locale}
          locales={p.locales}
          onCancel={() => setScheduling(false)}
          onDone={(message) => {
            setScheduling(false);
            p.onDone(message);
          }}
        />
      )}
    </section>
  );
}

/** Hands a file to the browser to save (a link with `download`, clicked and let go). */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
