// Acting on the selected entries: Publish or Unpublish, after a dry run whose count the
// confirmation shows; the real request sends that count as `expectedCount`, so a selection
// that changed in between is refused rather than acted on (design/admin.md, Lists).
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { Dialog } from "../../ui/dialog.tsx";

type Action = "publish" | "unpublish";
const WORD = { publish: "Publish", unpublish: "Unpublish" } as const;
const DONE = { publish: "Published", unpublish: "Unpublished" } as const;

const entries = (n: number) => (n === 1 ? "1 entry" : `${n} entries`);

/** The bar shown while entries are selected. */
export function BulkBar({ ids, onDone }: { ids: string[]; onDone(message: string): void }) {
  const [pending, setPending] = useState<{ action: Action; count: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dry = useMutation({
    mutationFn: (action: Action) => api.entries.bulk(action, ids, { dryRun: true }).then((r) => ({ action, count: r.count })),
    onSuccess: (p) => {
      setError(null);
      setPending(p);
    },
    onError: (e) => setError(e.message),
  });
  const run = useMutation({
    mutationFn: (p: { action: Action; count: number }) => api.entries.bulk(p.action, ids, { expectedCount: p.count }).then((r) => ({ ...p, r })),
    onSuccess: ({ action, r }) => {
      setPending(null);
      const c = r.counts;
      if (!c) onDone(`${WORD[action]} of ${entries(r.count)} queued.`);
      else onDone(`${DONE[action]} ${entries(c.done)}${c.skipped ? `, ${c.skipped} skipped` : ""}${c.failed ? `, ${c.failed} failed` : ""}.`);
    },
    onError: (e) => {
      setPending(null);
      setError(e.message);
    },
  });

  return (
    <section className="bulk-bar" aria-label="Selection">
      <span>{entries(ids.length)} selected</span>
      <button type="button" className="btn" disabled={dry.isPending} onClick={() => dry.mutate("publish")}>
        Publish
      </button>
      <button type="button" className="btn" disabled={dry.isPending} onClick={() => dry.mutate("unpublish")}>
        Unpublish
      </button>
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
      <Dialog open={!!pending} title={pending ? `${WORD[pending.action]} ${entries(pending.count)}?` : ""} onCancel={() => setPending(null)}>
        {pending && (
          <>
            <p>
              {pending.action === "publish"
                ? `The current drafts of ${entries(pending.count)} go live. Entries already live are skipped.`
                : `${entries(pending.count)} stop being live; their drafts stay.`}
            </p>
            <div className="toolbar">
              <button type="button" className="btn btn-primary" disabled={run.isPending} onClick={() => run.mutate(pending)}>
                {`${WORD[pending.action]} ${entries(pending.count)}`}
              </button>
              <button type="button" className="btn" onClick={() => setPending(null)}>
                Cancel
              </button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}
