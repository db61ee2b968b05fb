// interface.md, GraphQL "Schema": every type, field, argument and enum value has a description.
// The formats interface.md fixes are functions here; the other strings are constants. None of
// them changes within a version.
import { selectName } from "../domain/reads/args.ts";
import type { Model } from "../domain/models/catalog.ts";
import type { FieldDef } from "../domain/models/fields.ts";

/** The brand word as the service writes it. */
export const BRAND = "Capa";

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/**
 * A customer field: the admin label when it says more than the namespace, `One of: ...` for
 * enums, and a last line naming the field, its type and (when the key can read it) the target.
 */
export function fieldDescription(f: FieldDef, target: Model | null): string {
  const lines: string[] = [];
  if (f.label && f.label.trim() !== "" && norm(f.label) !== norm(f.namespace)) lines.push(f.label.trim());
  const values = f.options?.values;
  if ((f.type === "enum" || f.arrayType === "enum") && values?.length) lines.push(`One of: ${values.join(", ")}.`);
  let last = `${BRAND} field ${selectName(f.namespace)}, type ${f.type}`;
  if (f.type === "array" && f.arrayType) last += ` of ${f.arrayType}`;
  if (target) last += `, model ${target.namespace}`;
  lines.push(last);
  return lines.join("\n");
}

/** A model type: `<modelName> (model <namespace>)` and the fields left out. */
export function modelTypeDescription(m: Model, notExposed: string[]): string {
  const head = `${m.name} (model ${m.namespace})`;
  return notExposed.length ? `${head}\nNot exposed: ${notExposed.join(", ")}` : head;
}

export function listRootDescription(m: Model): string {
  return `Entries of the ${m.name} model. Same as GET /api/entries/${m.namespace}.`;
}

export function singleRootDescription(m: Model): string {
  const base = `One entry of the ${m.name} model by id, or null. Same as GET /api/entries/${m.namespace}/{id}.`;
  return m.singleEntry ? `${base} Without id, the model's one entry, the same as GET /api/entries/${m.namespace}?limit=1.` : base;
}

export function queryDescription(leftOut: string[]): string {
  const base = `${BRAND} read API. Every root field is one entries read (GET /api/entries/...) run through the same code, so values, cursors, drafts, limits and error codes are those of the REST routes.`;
  return leftOut.length ? `${base}\n\nModels not exposed in GraphQL: ${leftOut.join(", ")}` : base;
}

/** Descriptions of derived types of a model type `t` (its `<modelName>`). */
export const derived = {
  connection: (m: Model) => `A page of entries of the ${m.name} model.`,
  edge: (m: Model) => `An entry of the ${m.name} model with its cursor.`,
  relationConnection: (m: Model) => `A window of a relation list into the ${m.name} model, in the order the parent stores the ids (or the order of sort).`,
  relationEdge: (m: Model) => `An entry of the ${m.name} model in a relation list, with its cursor.`,
  filter: (m: Model) => `Filters entries of the ${m.name} model; every key given must hold. The same shape as REST where.`,
  relationFilter: (m: Model) => `Compares a relation into the ${m.name} model by id, or hops once into the ${m.name} entry's fields.`,
  relationListFilter: (m: Model) => `Compares a relation list into the ${m.name} model by id, or matches when one related ${m.name} entry's fields match.`,
  sort: (m: Model) =>
    `Sort orders of entries of the ${m.name} model: <field>_ASC or <field>_DESC; <relation>__<field> sorts by a field of a related entry. Ties are broken by id.`,
  relationSort: (m: Model) => `Sort orders of a relation list into the ${m.name} model. Ties are broken by id.`,
};

/** Descriptions of sort enum values. */
export function sortValueDescription(path: string, desc: boolean): string {
  return `By ${path}, ${desc ? "descending" : "ascending"} (nulls last).`;
}

/** The descriptions of the fixed part of the schema. */
export const D = {
  node: "An object with a global id: every entry.",
  nodeId: "The entry id (UUID), unique across all models.",
  entry: "Fields every entry has, whatever its model.",
  sys: {
    id: "The entry id (UUID), unique across all models; also its global id for node and nodes.",
    model: "The namespace of the entry's model.",
    status: "published, draft or changed.",
    createdAt: "When the entry was created (ISO 8601).",
    updatedAt: "For a production key, when the published version was saved; for a development key, the entry's own last save.",
    publishedAt: "When the entry was first published, or null.",
    _version: "The version number of the copy this key reads.",
    _tags: "The entry's tags.",
    _folder: "The entry's folder id, or null.",
    _locales: "The locales that hold a value (for a production key: that are published).",
  } as Record<string, string>,
  entryStatus: "The status of an entry.",
  status: {
    published: "The published copy is the latest version.",
    draft: "The entry has no published copy.",
    changed: "A published copy and a newer draft exist.",
  } as Record<string, string>,
  dateTime: "A date as saved: a date alone (YYYY-MM-DD, compared as midnight UTC) or an ISO 8601 date-time with a zone.",
  json: "Any JSON value, as saved.",
  media: "An image, video or file stored on a field.",
  mediaFields: {
    id: "The media id.",
    url: "Where the file is served.",
    alt: "The alt text stored on the field, or the file's own alt text when that is empty.",
    type: "The recorded kind of file (not a MIME type); null for a kind outside MediaKind.",
    width: "Width in pixels, or null.",
    height: "Height in pixels, or null.",
  } as Record<string, string>,
  mediaKind: "The recorded kind of a media file.",
  mediaKinds: {
    image: "An image.",
    video: "A video.",
    audio: "An audio file.",
    document: "A document.",
    pdf: "A PDF file.",
    file: "Any other file.",
    unknown: "A file of unknown kind.",
  } as Record<string, string>,
  pageInfo: "Where a page sits in its list.",
  pageInfoFields: {
    hasNextPage: "Whether entries follow this page.",
    hasPreviousPage: "Whether entries precede this page.",
    startCursor: "The cursor of the first entry of the page, or null when the page is empty.",
    endCursor: "Pass as after for the next page. While hasNextPage is true it equals REST page.next; on the last page it names the last entry.",
  } as Record<string, string>,
  edges: "The entries of the page with their cursors.",
  nodes: "The entries of the page.",
  edgeCursor: "An opaque cursor; REST accepts it as after or before.",
  edgeNode: "The entry.",
  relationEdgeCursor: "An opaque cursor; pass it as after on this relation.",
  pageInfoField: "Paging information.",
  totalCount: "How many entries match the filter; counted only when selected (REST count=true).",
  args: {
    first: "Entries from the start or from after: 1 to 200, default 25 (REST limit).",
    after: "A cursor: read the entries after it (REST after).",
    last: "Entries from the end or just before before: 1 to 200 (REST limit with before, or before=end without it).",
    before: "A cursor: read the entries just before it in list order; alone it reads 25 (REST before).",
    sort: "Up to 3 sort orders, applied in order, ties broken by id; default newest first (REST sort).",
    filter: "Filters the entries; keys in one object must all hold (REST where).",
    id: "An entry id (UUID).",
    singleId: "An entry id (UUID); without it, the model's one entry.",
    ids: "Up to 100 entry ids (UUIDs).",
    nestedFirst: "Ids from the window's start or from after, default 100.",
    nestedAfter: "A cursor of this relation; works under a single entry (<single>(id:), entry(id:), node(id:)).",
    nestedSort: "Sorts the related entries that resolve; without it the stored order.",
    locale: "The locale to read (a code of the project); default: the default locale. Relations are read in it too (REST locale).",
    fallbackLocales: "The locales a value falls back to, in order, instead of the locale's own chain; an empty list turns fallback off (REST fallbackLocale).",
    fieldLocale: "This field's value in another locale of the project, falling back along that locale's chain; default: the locale read.",
  } as Record<string, string>,
  roots: {
    entry: "One entry of any readable model by id, or null (typed Entry; __typename is the model type).",
    node: "One entry of any readable model by id, or null (typed Node).",
    nodes: "Entries by id, in the order sent; null for an id that does not resolve. At most 100 ids.",
    version: "The API version this request was served with.",
    me: "What this key is and what it may touch (GET /api/me), with each model's GraphQL type name.",
  } as Record<string, string>,
  filterLogic: {
    and: "Every filter in the list must hold.",
    or: "At least one filter in the list must hold.",
    not: "The filter must not hold.",
  } as Record<string, string>,
  ops: {
    eq: "Equal to the value.",
    ne: "Not equal to the value (absent values match).",
    in: "Equal to one of the values (1 to 100).",
    nin: "Equal to none of the values (1 to 100; absent values match).",
    contains: "Contains the text (case-sensitive).",
    startsWith: "Starts with the text (case-sensitive).",
    endsWith: "Ends with the text (case-sensitive).",
    lt: "Less than the value.",
    lte: "Less than or equal to the value.",
    gt: "Greater than the value.",
    gte: "Greater than or equal to the value.",
    has: "The list holds the value.",
    hasAny: "The list holds at least one of the values (1 to 100).",
    hasAll: "The list holds every one of the values (1 to 100).",
    exists: "true: any stored value (an empty list or blank text included); false: none.",
    null: "true: the value is absent or null; false: a value is stored.",
    id: "The media id equals the value.",
  } as Record<string, string>,
  tagsExists: "true: at least one tag; false: none.",
  tagsNull: "true: no tags; false: at least one tag.",
  filters: {
    IDFilter: "Compares the entry id.",
    EntryStatusFilter: "Compares the entry status.",
    StringFilter: "Compares a text field.",
    FloatFilter: "Compares a number field.",
    BooleanFilter: "Compares a true_false field.",
    DateTimeFilter: "Compares instants to the microsecond; a zone-less value reads as UTC and a date alone as midnight UTC.",
    StringListFilter: "Compares a list of texts.",
    FloatListFilter: "Compares a list of numbers.",
    BooleanListFilter: "Compares a list of true_false values.",
    DateTimeListFilter: "Compares a list of dates, as instants.",
    RelationIDFilter: "Compares a relation into a model this schema does not expose, by id.",
    RelationIDListFilter: "Compares a relation list into a model this schema does not expose, by id.",
    MediaFilter: "Compares a media field.",
    PresenceFilter: "Whether a value is stored.",
    JSONFilter: "Whether a mixed value is stored.",
  } as Record<string, string>,
  keyInfo: "What a key is and what it may touch; the values of GET /api/me.",
  keyInfoFields: {
    keyId: "The key's id.",
    name: "The key's name.",
    keyPrefix: "The first characters of the key; never the secret.",
    environment: "production reads published entries only; development also reads drafts.",
    bundle: "The key family, e.g. scoped.",
    surfaces: "Paths where the key is accepted.",
    scopes: "The scope strings the key holds.",
    models: "One row per model the key can touch.",
    version: "The key's resolved API version.",
    contract: "The key's data contract.",
    legacy: "How legacy surfaces treat the key.",
    expiresAt: "When the key expires, or null.",
    lastUsedAt: "The last authenticated request before this one (updated at most once a minute), or null.",
    rotatedFrom: "The key this one was rotated from, or null.",
    writes: "Whether writes are enabled (never, today).",
    tenant: "The project the key belongs to.",
  } as Record<string, string>,
  keyEnvironment: "The environment of a key.",
  keyEnvironments: {
    production: "Reads published entries only.",
    development: "Also reads drafts.",
  } as Record<string, string>,
  keyModel: "A model the key can touch.",
  keyModelFields: {
    namespace: "The model's namespace.",
    id: "The model's id.",
    can: "What the key can do with the model's entries: read, create, update, publish, delete.",
    typeName: "The model's GraphQL type name, or null when this schema does not expose it.",
  } as Record<string, string>,
  keyLegacy: "How legacy surfaces treat the key.",
  keyLegacyFields: {
    contract: "The contract on the legacy surface, or null when refused there.",
    legacyRefused: "Whether legacy surfaces refuse the key.",
    reason: "Why legacy surfaces refuse the key (e.g. surface), or null.",
  } as Record<string, string>,
  keyRotatedFrom: "The predecessor of a rotated key.",
  keyRotatedFromFields: {
    id: "The predecessor's id.",
    expiresAt: "When the predecessor stops working, or null.",
  } as Record<string, string>,
  keyWrites: "Writes through the read API.",
  keyWritesEnabled: "Always false.",
  keyTenant: "The project of a key.",
  keyTenantFields: { id: "The project id.", name: "The project name." } as Record<string, string>,
};
