// The entry a relation value points at, read once per id and shared by every field showing it.
// A 404 means it is gone (deleted, or in the trash): the field then says "Deleted entry", never
// the raw id (issue 26 item 5).
import { useQuery } from "@tanstack/react-query";
import { api, ApiError, keys } from "../../api/client.ts";
import type { Entry } from "../../api/types.ts";

/** The related entry: its record, `missing` when the server no longer has it, or loading. */
export function useRelated(projectId: string, id: string): { entry: Entry | null; missing: boolean } {
  const q = useQuery({
    queryKey: keys.entry(projectId, id),
    queryFn: () => api.entries.get(id),
    // A missing entry stays missing: asking again would only repeat the 404.
    retry: (n, e) => !(e instanceof ApiError && e.status === 404) && n < 2,
  });
  return { entry: q.data ?? null, missing: q.error instanceof ApiError && q.error.status === 404 };
}
