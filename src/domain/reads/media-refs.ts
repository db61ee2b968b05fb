// Media references in entry reads (decisions.md section 10): a stored `{ id, alt }` reference
// reads as the six keys `id, url, alt, type, width, height`, resolved from the library with one
// query per page. A reference to a deleted file reads null (dropped from a list, as a missing
// relation is) and its id goes to meta.missingReferences. Full objects written by clients before
// the library existed read as stored. Read side only: no import of the write side.
import type { ProjectHandle } from "../../storage/pool.ts";
import { isLibraryRef } from "../models/fields.ts";
import { fileSegment, mediaUrl } from "../media/url.ts";

/** A media value of a rendered entry waiting for the library's answer. */
export interface MediaSlot {
  obj: Record<string, unknown>;
  key: string;
  value: unknown;
}

/** Notes a rendered media value if it holds library references. */
export function noteMedia(slots: MediaSlot[], obj: Record<string, unknown>, key: string, value: unknown): void {
  if (Array.isArray(value) ? value.some(isLibraryRef) : isLibraryRef(value)) slots.push({ obj, key, value });
}

interface FileRow {
  id: string;
  filename: string;
  kind: string;
  alt: string;
  width: number | null;
  height: number | null;
  revision: number;
}

/**
 * Resolves every noted reference with one query; adds the ids of deleted files to `missing`, and
 * tells `onMissing` which slot each belonged to (GraphQL names only those its answer holds).
 */
export function resolveMedia(
  h: ProjectHandle,
  base: string,
  slots: MediaSlot[],
  missing: Set<string>,
  onMissing?: (obj: Record<string, unknown>, key: string, id: string) => void,
): void {
  if (slots.length === 0) return;
  const ids = new Set<string>();
  for (const s of slots) for (const v of Array.isArray(s.value) ? s.value : [s.value]) if (isLibraryRef(v)) ids.add(v.id);
  const rows = h.sqlite
    .query("SELECT id, filename, kind, alt, width, height, revision FROM media WHERE id IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify([...ids])) as FileRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const one = (s: MediaSlot, v: unknown): unknown => {
    if (!isLibraryRef(v)) return v;
    const f = byId.get(v.id);
    if (!f) {
      missing.add(v.id);
      onMissing?.(s.obj, s.key, v.id);
      return null;
    }
    // The field's own alt wins; an empty one falls back to the file's alt.
    return {
      id: f.id,
      url: mediaUrl(base, h.id, fileSegment(f.id, f.revision), f.filename),
      alt: v.alt || f.alt,
      type: f.kind,
      width: f.width,
      height: f.height,
    };
  };
  for (const s of slots) s.obj[s.key] = Array.isArray(s.value) ? s.value.map((v) => one(s, v)).filter((x) => x !== null) : one(s, s.value);
}
