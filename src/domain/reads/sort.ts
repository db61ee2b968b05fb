// The `sort` parameter of a list read, resolved against the model: each key becomes the SQL
// expression it orders by, whether it can be null (nulls go last), and a signature that cursors
// carry so a cursor made for another order is refused. A key may hop once through a single
// relation (`author.name`), read with a correlated subquery on the related entry.
import { fail } from "../../errors.ts";
import type { Model } from "../models/catalog.ts";
import { TEXT_TYPES, itemType } from "../models/fields.ts";
import type { SortTerm } from "./grammar.ts";
import { fieldExpr, resolveName, systemExpr } from "./names.ts";
import type { Reader } from "./query.ts";
import { localeFor, localePublishedAtExpr, oneLocaleFor, visibleIn } from "./locale.ts";

/** One sort key, resolved. */
export interface SortKey {
  expr: string;
  desc: boolean;
  nullable: boolean;
  sig: string;
  /** A customer field of the read model: an expression index made on demand serves it (indexes.ts). */
  indexable?: boolean;
}

const SORTABLE = new Set([...TEXT_TYPES, "number", "true_false", "date"]);

/** The sort keys of a list read's terms (parsed from REST's `sort`, or built by GraphQL); none is newest first. */
export function resolveSort(m: Model, reader: Reader, byId: Map<string, Model>, terms: SortTerm[] | null): SortKey[] {
  const vis = reader.vis;
  if (terms === null || terms.length === 0) return [{ expr: "e.created_at", desc: true, nullable: false, sig: "createdAt-" }];
  const bad: (message: string) => never = (message) =>
    fail("invalid_sort", { message, param: "sort", hint: "Example: sort=-publishedAt,title,author.name (up to 3 keys; - for descending)" });
  return terms.map((t) => {
    const [first, second] = t.path;
    const r = resolveName(m, first!.name, first!.system);
    if (!r)
      fail("unknown_field", {
        message: `The model ${m.namespace} has no field "${first!.name}" to sort by.`,
        param: "sort",
        hint: "Example: sort=-createdAt,title",
      });
    const dir = t.desc ? "-" : "+";
    if (second) {
      if (r.kind !== "field" || r.field.type !== "relation") bad(`"${first!.name}" is not a single relation, so sort cannot hop through it.`);
      if (!reader.readable(r.field.relation!)) fail("unknown_field", { message: `"${first!.name}" relates to a model this key cannot read.`, param: "sort" });
      return hopSort(m, reader, byId, r.field.relation!, first!.name, second, t.desc, dir);
    }
    if (r.kind === "system") {
      if (!["id", "createdAt", "updatedAt", "publishedAt"].includes(r.key))
        bad(`sort takes createdAt, updatedAt, publishedAt, id and text, number, true_false or date fields; not ${r.key}.`);
      // A localized model's publishedAt is the locale read's (locale.ts): a cursor is for one chain.
      const mloc = r.key === "publishedAt" ? oneLocaleFor(reader.loc, m) : null;
      if (mloc) return { expr: localePublishedAtExpr("e", mloc), desc: t.desc, nullable: true, sig: `${r.key}@${mloc.chain.join(",")}${dir}` };
      // publishedAt is null for a draft; only the published view (no preview) never shows one.
      return { expr: systemExpr(vis, "e", r.key), desc: t.desc, nullable: r.key === "publishedAt" && vis.tag !== "p", sig: `${r.key}${dir}` };
    }
    if (r.field.type === "array" || !SORTABLE.has(itemType(r.field)))
      bad(`"${r.field.namespace}" cannot be sorted by; sort takes text, number, true_false and date fields.`);
    // A localized field sorts by the value after fallback along the chain; its cursors carry the chain.
    const chain = r.field.localized ? (reader.loc?.chain ?? null) : null;
    const sig = chain ? `f:${r.field.id}@${chain.join(",")}${dir}` : `f:${r.field.id}${dir}`;
    return { expr: fieldExpr(vis, "e", r.field, chain), desc: t.desc, nullable: true, sig, indexable: true };
  });
}

function hopSort(
  m: Model,
  reader: Reader,
  byId: Map<string, Model>,
  targetId: string,
  relName: string,
  second: { name: string; system: boolean },
  desc: boolean,
  dir: string,
): SortKey {
  const target = byId.get(targetId);
  if (!target) fail("unknown_field", { message: `"${relName}" relates to a model that no longer exists.`, param: "sort" });
  const r = resolveName(target, second.name, second.system);
  if (!r) fail("unknown_field", { message: `The model ${target.namespace} has no field "${second.name}" to sort by.`, param: "sort" });
  let inner: string;
  if (r.kind === "system") {
    if (!["id", "createdAt", "updatedAt", "publishedAt"].includes(r.key)) fail("invalid_sort", { message: `sort cannot use ${r.key}.`, param: "sort" });
    const tloc = r.key === "publishedAt" ? oneLocaleFor(reader.loc, target) : null;
    inner = tloc ? localePublishedAtExpr("t", tloc) : systemExpr(reader.vis, "t", r.key);
  } else {
    if (r.field.type === "array" || !SORTABLE.has(itemType(r.field))) fail("invalid_sort", { message: `"${second.name}" cannot be sorted by.`, param: "sort" });
    inner = fieldExpr(reader.vis, "t", r.field, reader.loc?.chain ?? null);
  }
  const relField = m.fields.find((f) => f.namespace === relName)!;
  const chain = reader.loc?.chain ?? null;
  const expr = `(SELECT ${inner} FROM entries t WHERE t.id = ${fieldExpr(reader.vis, "e", relField, chain)} AND t.model_id = '${target.id}' AND ${visibleIn(reader.vis, "t", localeFor(reader.loc, target))})`;
  // Either end of the hop being localized makes the value the chain's.
  const localized = relField.localized || localeFor(reader.loc, target) !== null;
  const at = localized && chain ? `@${chain.join(",")}` : "";
  return { expr, desc, nullable: true, sig: `h:${relField.id}.${r.kind === "field" ? r.field.id : r.key}${at}${dir}` };
}
