// The parameters and answer headers of the read API's document: the request headers of
// interface.md (Read API) and the entries grammar of decisions.md 4.
import type { Json } from "./json-schema.ts";

const header = (name: string, description: string, schema: Json = { type: "string" }): Json => ({ name, in: "header", required: false, schema, description });
const query = (name: string, description: string, schema: Json = { type: "string" }): Json => ({ name, in: "query", required: false, schema, description });

/** Svc-Version (defaulting to the version this document was made for), Svc-Contract and the page headers. */
export function HEADER_PARAMETERS(version: string): Record<string, Json> {
  return {
    SvcVersion: header("Svc-Version", "A dated version; without it, the key's pinned version.", { type: "string", default: version }),
    SvcContract: header("Svc-Contract", "The data contract; only 1 exists.", { type: "string", enum: ["1"] }),
    SvcPage: header("Svc-Page", "The site page the read is for; recorded only."),
    SvcPath: header("Svc-Path", "The concrete path being rendered, with Svc-Page; recorded only."),
    SvcSchema: header("Svc-Schema", "Checksum of the schema the client was generated from; recorded only."),
  };
}

/** The list grammar of GET /api/entries/{ns} (decisions.md 4). */
export const LIST_PARAMETERS: Record<string, Json> = {
  select: query(
    "select",
    'Comma list of field names; `$name` for a system key; `rel(f1,f2)` expands a relation (up to 3 levels); `*` for all. Example: `title,author(name),"odd,name"`.',
  ),
  where: query("where", 'A JSON filter: `{"title":{"contains":"x"}}`; `and`, `or`, `not` combine; `"author.name"` hops into a relation.'),
  sort: query("sort", "Comma list of up to 3 keys, `-` for descending; ties broken by id. Default `-createdAt`."),
  limit: query("limit", "1 to 200, default 25.", { type: "integer", minimum: 1, maximum: 200 }),
  count: query("count", "`true` adds meta.count.", { type: "string", enum: ["true", "false"] }),
  after: query("after", "The cursor of meta.page.next."),
  before: query("before", "The cursor of meta.page.prev, or `end` for the last page."),
  preview: query("preview", "A preview token (pvw_...): a production key also sees the drafts it covers."),
};

/** `locale` and `fallbackLocale` of an entries read (decisions.md 13), for a project of these codes. */
export function localeParameters(codes: string[]): Record<string, Json> {
  return {
    locale: query(
      "locale",
      "The locale of localized fields, falling back along its chain (meta.locale, meta.fallbacks); `*` answers every locale's own value keyed by code. Default: the default locale.",
      { type: "string", enum: [...codes, "*"] },
    ),
    fallbackLocale: query("fallbackLocale", "A comma list of locales replacing the chain for this read, or `none` for no fallback. Not with `locale=*`."),
  };
}

/** The headers every keyed answer carries. */
export const ANSWER_HEADERS: Record<string, Json> = {
  SvcVersion: { description: "The version served.", schema: { type: "string" } },
  SvcContract: { description: "The data contract, 1.", schema: { type: "string" } },
  SvcKeyId: { description: "The id of the key that authenticated the request.", schema: { type: "string" } },
};
