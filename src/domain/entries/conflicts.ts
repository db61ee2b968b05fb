// Edit conflicts (decisions.md section 3): saves and publishes may say which version they were
// based on (`If-Match: <version number>`); when the entry has moved on, nothing is written.
import { badField, fail } from "../../errors.ts";

/**
 * The version an edit was based on, from `If-Match: <version number>` (quotes allowed), or null
 * when the header is absent (then the last write wins).
 */
export function ifMatchVersion(header: string | null): number | null {
  if (header === null) return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m) badField("If-Match", "If-Match must be the entry's version number you edited, e.g. If-Match: 3");
  return Number(m[1]);
}

/** Refuses with 409 version_conflict when the entry's latest version is not the one the edit was based on. */
export function checkVersion(latest: number, expected: number | null): void {
  if (expected !== null && expected !== latest) {
    fail("version_conflict", { message: `The entry is at version ${latest}; your edit was based on version ${expected}.`, extra: { current: latest } });
  }
}
