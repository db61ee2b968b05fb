// The command palette's search (GET /v2/search): entries of every model by title, and media files
// by name, title and alt text, in one request.
import type { SearchAnswer } from "../../../src/shared/people.ts";
import { call } from "./client.ts";

export type { SearchAnswer };

export const searchApi = {
  search: (q: string, limit: number) => call<SearchAnswer>("GET", "/v2/search", { query: { q, limit } }),
};
