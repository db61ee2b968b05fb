// A bulk action over more than 50 entries runs as a batch in the background (docs/publishing.md):
// the list follows it (GET /v2/model-instances/bulk/:batchId, once a second) and says how far it
// got, then what it did, and shows the entries as they are after it.
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type BulkAction, listApi } from "../../api/entry-lists.ts";
import { doneWords } from "./bulk-bar.tsx";
import { entries } from "./words.ts";

const VERB = { publish: "Publishing", unpublish: "Unpublishing", delete: "Moving to the trash" } as const;

export function BatchProgress(p: { action: BulkAction; id: string; started: string; refresh: readonly unknown[] }) {
  const client = useQueryClient();
  const batch = useQuery({
    queryKey: ["bulk-batch", p.id],
    queryFn: () => listApi.batch(p.id),
    refetchInterval: (q) => (q.state.data?.status === "done" ? false : 1000),
  });
  const done = batch.data?.status === "done";
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list is refreshed once, when the batch ends.
  useEffect(() => {
    if (done) void client.invalidateQueries({ queryKey: p.refresh });
  }, [done]);
  const b = batch.data;
  if (!b) return <p className="notice">{p.started}</p>;
  if (b.status === "done") return <p className="notice">{doneWords(p.action, { count: b.total, counts: b.counts })}</p>;
  const through = b.total - b.counts.remaining;
  return <p className="notice">{`${VERB[p.action]} ${entries(b.total)}: ${through.toLocaleString("en")} done so far.`}</p>;
}
