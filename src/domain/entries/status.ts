// An entry's status, shared by the write side and the read side (read workers import this file
// alone, so it must not pull in the write side).

export type EntryStatus = "draft" | "published" | "changed";

/** draft: no published copy; published: the published copy is the latest version; changed: a newer draft exists. */
export function statusOf(r: { publishedVersionId: string | null; publishedVersion: number | null; draftVersion: number }): EntryStatus {
  if (!r.publishedVersionId) return "draft";
  return r.publishedVersion === r.draftVersion ? "published" : "changed";
}
