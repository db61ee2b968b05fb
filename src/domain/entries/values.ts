// An entry's values on their way in and out: a body's `data`, tags and folder checked against
// the model (each value against its field's kind, relations against live entries of the target
// model, media references against the library) and merged over the stored draft; defaults for a
// new entry; stored data shown keyed by namespace; and whether two saves hold the same values.
import { badField } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { checkValue } from "../access/body-check.ts";
import type { Model } from "../models/catalog.ts";
import { allModels } from "../models/catalog.ts";
import { type FieldDef, fieldValue, fits, isLibraryRef, isMediaField, isRelation } from "../models/fields.ts";
import { defaultLocale, type EntryLocale, projectCode } from "../locales/entry-locale.ts";
import { setSlot, valueIn } from "../locales/values.ts";
import { Data, Folder, Tags } from "./bodies.ts";

// Tags, folder and the data object follow the body models (bodies.ts) here too: the demo and the
// tests create entries without the route.
export function checkTags(v: unknown): string[] {
  checkValue(Tags, v, "tags");
  return [...new Set(v)];
}

export function checkFolder(v: unknown): string | null {
  checkValue(Folder, v, "folder");
  return v;
}

/**
 * Validates `data` (keyed by field namespace) against the model and merges it over `base`
 * (keyed by field id). Relation ids must name live entries of the target model. A localized
 * field is written in `loc`'s locale (decisions.md 13), or, with `?locale=*`, from an object keyed
 * by code (the codes it names; null empties every locale); a blank value empties the locale.
 */
export function mergeData(h: ProjectHandle, m: Model, data: unknown, base: Record<string, unknown>, loc?: EntryLocale): Record<string, unknown> {
  checkValue(Data, data, "data");
  const byNs = new Map(m.fields.map((f) => [f.namespace, f]));
  const out: Record<string, unknown> = { ...base };
  const one = (f: FieldDef, v: unknown, path: string) => {
    const stored = fieldValue(f, v, path);
    if (stored !== null && isRelation(f)) checkTargets(h, f.relation!, Array.isArray(stored) ? (stored as string[]) : [stored as string], path);
    if (stored !== null && isMediaField(f)) checkMediaRefs(h, stored, path);
    return stored;
  };
  for (const [ns, v] of Object.entries(data as Record<string, unknown>)) {
    const f = byNs.get(ns);
    if (!f) badField(`data.${ns}`, `The model ${m.namespace} has no field "${ns}"`);
    if (!f.localized) {
      out[f.id] = one(f, v, `data.${ns}`);
      continue;
    }
    const l = loc ?? defaultLocale(allModels(h).locales);
    if (!l.all) {
      setSlot(out, f, l.code, one(f, v, `data.${ns}`));
      continue;
    }
    if (v === null) {
      delete out[f.id];
      continue;
    }
    if (typeof v !== "object" || Array.isArray(v)) badField(`data.${ns}`, `data.${ns} is localized: with locale=* send an object keyed by locale code`);
    const pl = allModels(h).locales;
    for (const [raw, x] of Object.entries(v as Record<string, unknown>)) {
      const code = projectCode(pl, raw, `data.${ns}.${raw}`);
      setSlot(out, f, code, one(f, x, `data.${ns}.${code}`));
    }
  }
  return out;
}

/**
 * The defaults of the fields a new entry's `data` leaves out (sent as null is sent: no default);
 * a localized field gets its default in the locale written (the default locale with `*`).
 */
export function withDefaults(m: Model, data: unknown, merged: Record<string, unknown>, code?: string): Record<string, unknown> {
  const sent = data !== null && typeof data === "object" ? (data as Record<string, unknown>) : {};
  for (const f of m.fields) {
    if (f.default === undefined || Object.hasOwn(sent, f.namespace)) continue;
    if (f.localized && code !== undefined) setSlot(merged, f, code, structuredClone(f.default));
    else if (!f.localized) merged[f.id] = structuredClone(f.default);
  }
  return merged;
}

/** Refuses a media reference naming no file of this project's library (full objects are not checked). */
function checkMediaRefs(h: ProjectHandle, stored: unknown, path: string): void {
  const ids = [...new Set((Array.isArray(stored) ? stored : [stored]).filter(isLibraryRef).map((v) => v.id))];
  if (ids.length === 0) return;
  const found = h.sqlite.query("SELECT id FROM media WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as { id: string }[];
  const have = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !have.has(id));
  if (missing !== undefined) badField(path, `${path} names ${missing}, which is not a media file of this project`);
}

/** Refuses relation ids that name no live entry of the target model (an entry in the trash names none). */
function checkTargets(h: ProjectHandle, modelId: string, ids: string[], path: string): void {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = h.sqlite
    .query(`SELECT id FROM entries WHERE model_id = ? AND deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))`)
    .all(modelId, JSON.stringify(unique)) as {
    id: string;
  }[];
  if (found.length !== unique.length) {
    const have = new Set(found.map((r) => r.id));
    const missing = unique.find((id) => !have.has(id));
    badField(path, `${path} names ${missing}, which is not an entry of the related model`);
  }
}

/**
 * Stored data (keyed by field id) as the API shows it: keyed by namespace, in model order, misfits
 * as null; a localized field in `loc`'s locale (no fallback: what that locale holds), or with
 * `*` as an object of every project locale.
 */
export function dataOut(m: Model, stored: Record<string, unknown>, loc: EntryLocale): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shown = (f: FieldDef, v: unknown) => (v === undefined || !fits(f, v) ? null : v);
  for (const f of m.fields) {
    if (!f.localized) out[f.namespace] = shown(f, stored[f.id]);
    else if (!loc.all) out[f.namespace] = shown(f, valueIn(stored, f, loc.code));
    else out[f.namespace] = Object.fromEntries(loc.codes.map((c) => [c, shown(f, valueIn(stored, f, c))]));
  }
  return out;
}

/** JSON text with object keys sorted and null-valued keys left out, so equal values compare equal. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .filter((k) => x[k] !== null && x[k] !== undefined)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
}

/** Whether a save holds what the draft holds: the same values (an absent value and null alike), tags and folder. */
export function sameCopy(
  a: { data: Record<string, unknown>; tags: string[]; folder: string | null },
  b: { data: Record<string, unknown>; tags: string[]; folder: string | null },
): boolean {
  return a.folder === b.folder && JSON.stringify(a.tags) === JSON.stringify(b.tags) && canonical(a.data) === canonical(b.data);
}
