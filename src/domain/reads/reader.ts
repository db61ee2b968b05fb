// One place for what a reader may see: a key's instance:read grants (computed once when the key
// is loaded), the signature under which keys with the same grants share cached answers, and the
// Reader that queries use. Plain data in, plain functions out: read workers import this too.
import { DRAFTS, PUBLISHED, previewVis, type Vis } from "./names.ts";
import type { Reader } from "./query.ts";

/** The instance:read grants among a key's scopes (`instance:read` or `instance:read:<modelId>`). */
export function readGrantsOf(scopes: Iterable<string>): string[] {
  return [...scopes].filter((x) => x === "instance:read" || x.startsWith("instance:read:")).sort();
}

/** The part of a key that changes what it may read: keys with equal signatures share answers. */
export function grantSignature(grants: readonly string[]): string {
  return grants.join(",");
}

/** Which copy a read sees: published (production), drafts, or published plus a preview token's drafts. */
export function visOf(production: boolean, preview: { entryIds: string[] | null; modelId: string | null } | null): Vis {
  if (!production) return DRAFTS;
  return preview ? previewVis(preview.entryIds, preview.modelId) : PUBLISHED;
}

/** The Reader of a set of grants: which models it may read, which copy it sees. */
export function readerOf(grants: readonly string[], vis: Vis, graphql?: boolean): Reader {
  const all = grants.includes("instance:read");
  const set = new Set(grants);
  return { vis, readable: (mid) => all || set.has(`instance:read:${mid}`), graphql };
}
