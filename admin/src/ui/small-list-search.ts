// The URL state of the small lists (keys, webhooks, people): apart from ui/small-list.tsx so the
// router reads it without loading the lists' parts into the first screen.

/** A small list's state in the URL: the search text and the sort (`key` or `-key`). */
export interface SmallListSearch {
  q?: string;
  sort?: string;
}

/** The sorts of each list, by column. */
export const KEY_SORTS = ["name", "version", "status", "lastUsed"] as const;
export const WEBHOOK_SORTS = ["url", "status"] as const;
export const MEMBER_SORTS = ["member", "role"] as const;

/** Reads `q` and `sort` from a URL's search; `keys` are the sorts the list has. */
export function parseSmallListSearch(keys: readonly string[]) {
  return (s: Record<string, unknown>): SmallListSearch => ({
    ...(typeof s.q === "string" && s.q !== "" ? { q: s.q } : {}),
    ...(typeof s.sort === "string" && keys.includes(s.sort.replace(/^-/, "")) ? { sort: s.sort } : {}),
  });
}
