// `unique` and slugs (decisions.md 15). A unique field (and every slug field) may not hold a
// value that the latest draft or the published copy of another entry of the model holds; empty
// values are not compared, and entries in the trash do not count. A localized field is unique per
// locale (decisions.md 13): its German value is compared with other entries' German values. It is checked on every save
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
import { allModels } from "../models/catalog.ts";
import { fieldValues, setSlot, valueIn } from "../locales/values.ts";

/** The fields whose values must be unique in the model: `unique` ones and slugs. */
export function uniqueFields(m: Model): FieldDef[] {
  return m.fields.filter((f) => (f.unique || f.slug) && f.type !== "array");
}

/** The value a stored value is compared by: dates as instants (through the keys column), the rest as stored. */
function compared(f: FieldDef, v: unknown): unknown {
  return itemType(f) === "date" ? instantKey(v) : v;
}

/** The two compared expressions of a field (latest draft, published copy) in a locale (null: shared), with their indexes made once. */
function exprs(h: ProjectHandle, m: Model, f: FieldDef, locale: string | null): { draft: string; published: string } {
  const chain = locale === null ? null : [locale];
  const draft = fieldExpr(DRAFTS, "e", f, chain);
  const published = fieldExpr(PUBLISHED, "e", f, chain);
  // The same partial expression indexes a filter on the field uses, so the lookup is a seek.
  ensureIndex(h, DRAFTS, m, draft);
  ensureIndex(h, PUBLISHED, m, published);
  return { draft, published };
}

/** The oldest other live entry whose draft or published copy holds `v` in field `f` (in `locale`, for a localized field), or null. */
export function holderOf(h: ProjectHandle, m: Model, f: FieldDef, v: unknown, selfId: string | null, locale: string | null = null): string | null {
  const key = compared(f, v);
  if (isEmpty(key) || typeof key === "boolean" || typeof key === "object") return null;
  const { draft, published } = exprs(h, m, f, f.localized ? locale : null);
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

/** The refusal of a unique value another entry holds; a localized field's names the locale. */
export function notUnique(f: FieldDef, v: unknown, holder: string, locale: string | null): never {
  const where = locale === null ? "" : ` in ${locale}`;
  fail("not_unique", {
    message: `${fieldName(f)} must be unique${where}: another entry of this model already has ${JSON.stringify(v)}.`,
    param: `data.${f.namespace}`,
    extra: { field: `data.${f.namespace}`, entryId: holder, ...(locale === null ? {} : { locale }) },
  });
}

/**
 * Refuses with 409 not_unique when another entry holds a value of a unique field of `data`
 * (stored form, keyed by field id); a localized field's values are compared locale by locale.
 */
export function checkUnique(h: ProjectHandle, m: Model, selfId: string | null, data: Record<string, unknown>, only?: readonly string[]): void {
  for (const f of uniqueFields(m)) {
    for (const { locale, value } of fieldValues(data, f)) {
      if (isEmpty(value) || (locale !== null && only && !only.includes(locale))) continue;
      const holder = holderOf(h, m, f, value, selfId, locale);
      if (holder) notUnique(f, value, holder, locale);
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

/** `base` when no other entry holds it (in `locale`, for a localized slug), else the first free `base-2`, `base-3`, ... */
export function freeSlug(h: ProjectHandle, m: Model, f: FieldDef, base: string, selfId: string | null, locale: string | null = null): string {
  const { draft, published } = exprs(h, m, f, f.localized ? locale : null);
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
 * source that is empty, or gives no letter or digit, leaves the slug empty. A localized slug is
 * filled in each locale from the source in that locale (a shared source fills the default
 * locale); a shared slug from a localized source takes the default locale's text. Answers `data`.
 */
export function fillSlugs(h: ProjectHandle, m: Model, selfId: string | null, data: Record<string, unknown>): Record<string, unknown> {
  const pl = allModels(h).locales;
  for (const f of m.fields) {
    if (!f.slug) continue;
    const src = m.fields.find((x) => x.namespace === f.slug!.from);
    const slots = f.localized ? pl.codes : [pl.default];
    for (const code of slots) {
      if (!isEmpty(valueIn(data, f, code))) continue;
      const text = !src ? null : src.localized ? valueIn(data, src, code) : code === pl.default ? data[src.id] : null;
      const base = typeof text === "string" ? slugify(text) : "";
      if (base === "") continue;
      const slug = freeSlug(h, m, f, base, selfId, f.localized ? code : null);
      if (f.localized) setSlot(data, f, code, slug);
      else data[f.id] = slug;
    }
  }
  return data;
}
