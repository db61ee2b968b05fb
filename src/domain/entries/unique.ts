// `unique` and slugs (decisions.md 15). A unique field (and every slug field) may not hold a
// value that the latest draft or the published copy of another entry of the model holds; empty
// values are not compared, and entries in the trash do not count. It is checked on every save
// (create, PATCH, version restore, duplicate, restore from the trash) inside the write, so two
// saves racing for one value cannot both win. A slug field left empty is filled from its source
// field and made unique with -2, -3, ...
import { fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { Model } from "../models/catalog.ts";
import { type FieldDef, instantKey, itemType } from "../models/fields.ts";
import { fieldName, isEmpty } from "../models/rules.ts";
import { ensureIndex } from "../reads/indexes.ts";
import { DRAFTS, fieldExpr, PUBLISHED } from "../reads/names.ts";

/** The fields whose values must be unique in the model: `unique` ones and slugs. */
export function uniqueFields(m: Model): FieldDef[] {
  return m.fields.filter((f) => (f.unique || f.slug) && f.type !== "array");
}

/** The value a stored value is compared by: dates as instants (through the keys column), the rest as stored. */
function compared(f: FieldDef, v: unknown): unknown {
  return itemType(f) === "date" ? instantKey(v) : v;
}

/** The two compared expressions of a field (latest draft, published copy), with their indexes made once. */
function exprs(h: ProjectHandle, m: Model, f: FieldDef): { draft: string; published: string } {
  const draft = fieldExpr(DRAFTS, "e", f);
  const published = fieldExpr(PUBLISHED, "e", f);
  // The same partial expression indexes a filter on the field uses, so the lookup is a seek.
  ensureIndex(h, DRAFTS, m, draft);
  ensureIndex(h, PUBLISHED, m, published);
  return { draft, published };
}

/** The oldest other live entry whose draft or published copy holds `v` in field `f`, or null. */
export function holderOf(h: ProjectHandle, m: Model, f: FieldDef, v: unknown, selfId: string | null): string | null {
  const key = compared(f, v);
  if (isEmpty(key) || typeof key === "boolean" || typeof key === "object") return null;
  const { draft, published } = exprs(h, m, f);
  // The model id is inlined (a UUID of our own) so the partial indexes, made per model, apply.
  const row = h.sqlite
    .query(
      `SELECT e.id FROM entries e WHERE e.model_id = '${m.id}' AND e.deleted_at IS NULL AND e.id <> ?2
         AND (${draft} = ?1 OR (e.published_version_id IS NOT NULL AND ${published} = ?1))
       ORDER BY e.created_at, e.id LIMIT 1`,
    )
    .get(key as string | number, selfId ?? "") as { id: string } | null;
  return row?.id ?? null;
}

/** Refuses with 409 not_unique when another entry holds a value of a unique field of `data` (stored form, keyed by field id). */
export function checkUnique(h: ProjectHandle, m: Model, selfId: string | null, data: Record<string, unknown>): void {
  for (const f of uniqueFields(m)) {
    const v = data[f.id];
    if (isEmpty(v)) continue;
    const holder = holderOf(h, m, f, v, selfId);
    if (holder) {
      fail("not_unique", {
        message: `${fieldName(f)} must be unique: another entry of this model already has ${JSON.stringify(v)}.`,
        param: `data.${f.namespace}`,
        extra: { field: `data.${f.namespace}`, entryId: holder },
      });
    }
  }
}

/** Text as a slug: ASCII letters (accents dropped) and digits, lowercase, single hyphens; at most 200 characters. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 200)
    .replace(/^-+|-+$/g, "");
}

/** `base` when no other entry holds it, else the first free `base-2`, `base-3`, ... */
export function freeSlug(h: ProjectHandle, m: Model, f: FieldDef, base: string, selfId: string | null): string {
  const { draft, published } = exprs(h, m, f);
  // Every value equal to base or starting with "base-" ('.' sorts right after '-'): a range the index serves.
  const inRange = (x: string) => `(${x} = ?1 OR (${x} > ?2 AND ${x} < ?3))`;
  const rows = h.sqlite
    .query(
      `SELECT ${draft} AS d, CASE WHEN e.published_version_id IS NOT NULL THEN ${published} END AS p FROM entries e
        WHERE e.model_id = '${m.id}' AND e.deleted_at IS NULL AND e.id <> ?4
          AND (${inRange(draft)} OR (e.published_version_id IS NOT NULL AND ${inRange(published)}))`,
    )
    .all(base, `${base}-`, `${base}.`, selfId ?? "") as { d: unknown; p: unknown }[];
  const taken = new Set<unknown>(rows.flatMap((r) => [r.d, r.p]));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Fills each empty slug field of `data` (stored form) from its source text, made unique. A
 * source that is empty, or gives no letter or digit, leaves the slug empty. Answers `data`.
 */
export function fillSlugs(h: ProjectHandle, m: Model, selfId: string | null, data: Record<string, unknown>): Record<string, unknown> {
  for (const f of m.fields) {
    if (!f.slug || !isEmpty(data[f.id])) continue;
    const src = m.fields.find((x) => x.namespace === f.slug!.from);
    const text = src ? data[src.id] : null;
    const base = typeof text === "string" ? slugify(text) : "";
    if (base !== "") data[f.id] = freeSlug(h, m, f, base, selfId);
  }
  return data;
}
