// The command palette's search (GET /v2/search): entries of every model by title, and media files
// by name, title and alt text, in one request.
import { call } from "./client.ts";
import type { MediaFile } from "./media.ts";
import type { EntryStatus } from "./types.ts";

/** What the search finds. */
export interface SearchAnswer {
  entries: { id: string; model: string; modelName: string; title: string | null; status: EntryStatus; updatedAt: string }[];
  media: (MediaFile & { thumbnail: { url: string; srcset: string } | null })[];
}

export const searchApi = {
  search: (q: string, limit: number) => call<SearchAnswer>("GET", "/v2/search", { query: { q, limit } }),
};
