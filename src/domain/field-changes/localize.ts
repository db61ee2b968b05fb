// Turning `localized` on or off for a field of a model with entries (decisions.md 13): a field
// change whose `localize` op moves each stored value into the default locale (on), or keeps the
// default locale's value and drops the others (off). The plan's counts name the values kept and
// dropped, and a model edit that would drop values answers 409 field_change_required with them.
// Pure value work, and one counting statement for the refusal.
import type { ProjectHandle } from "../../storage/pool.ts";
import type { FieldDef } from "../models/fields.ts";
import { isBlank } from "../locales/values.ts";

/** What turning localized on or off does to one stored value. */
export interface Localized {
  /** The new stored value; undefined leaves the field absent. */
  value: unknown;
  kept: number;
  dropped: number;
  /** The locales whose values are dropped (off). */
  droppedLocales: string[];
}

/**
 * One stored value of `f` (its shape before the change) turned localized (`on`) or shared, with
 * `def` the default locale: on, a value becomes the default locale's (a blank one none, so it
 * falls back); off, the default locale's value stays and the others go.
 */
export function localizeValue(f: FieldDef, v: unknown, on: boolean, def: string): Localized {
  if (on) {
    if (v === undefined || v === null) return { value: v, kept: 0, dropped: 0, droppedLocales: [] };
    if (isBlank(f, v)) return { value: undefined, kept: 0, dropped: 0, droppedLocales: [] };
    return { value: { [def]: v }, kept: 1, dropped: 0, droppedLocales: [] };
  }
  if (v === undefined) return { value: undefined, kept: 0, dropped: 0, droppedLocales: [] };
  const slots = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const droppedLocales = Object.keys(slots).filter((c) => c !== def && slots[c] !== null && slots[c] !== undefined);
  const kept = slots[def];
  return { value: kept === undefined ? null : kept, kept: kept === undefined || kept === null ? 0 : 1, dropped: droppedLocales.length, droppedLocales };
}

/**
 * How many values of `f` a change of `localized` keeps and drops over the latest drafts and the
 * published copies of the model's entries (a published copy that is the draft's version counts
 * once, as plans count).
 */
export function countLocalize(h: ProjectHandle, modelId: string, f: FieldDef, on: boolean, def: string): { values: number; kept: number; dropped: number } {
  const rows = h.sqlite
    .query(
      `SELECT draft_data -> ?1 AS d, CASE WHEN published_version_id IS NOT NULL AND published_version_id <> draft_version_id THEN published_data -> ?1 END AS p
         FROM entries WHERE model_id = ?2`,
    )
    .all(`$."${f.id}"`, modelId) as { d: string | null; p: string | null }[];
  const out = { values: 0, kept: 0, dropped: 0 };
  for (const r of rows) {
    for (const text of [r.d, r.p]) {
      if (text === null) continue;
      const x = localizeValue(f, JSON.parse(text), on, def);
      out.kept += x.kept;
      out.dropped += x.dropped;
      out.values += x.kept + x.dropped;
    }
  }
  return out;
}
