// The OpenAPI 3.1 document of the read API for one key (GET /api/openapi.json; decisions.md 12):
// every /api route, and for each model the key can read its entry schema and its own list and
// item paths (`/api/entries/<namespace>`), so generated clients are typed per model. The
// version is the one the request resolved to (header, or the key's pin) and the contract is 1.
import type { Model } from "../../domain/models/catalog.ts";
import { LIST_PARAMETERS, HEADER_PARAMETERS, ANSWER_HEADERS, localeParameters } from "./read-parameters.ts";
import { componentNames, entrySchema } from "./entry-schemas.ts";
import { Components, type Json } from "./json-schema.ts";
import { ApiError } from "./errors.ts";
import { GraphqlRequest, GraphqlResult, KeyInfo, Media, Meta, PreviewInfo, SitePage, VersionEntry, VersionsMeta } from "./read-shapes.ts";
import { OpenApiDocument } from "./answers.ts";

const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** A 200 answer `{ data, meta }` whose data is `data`. */
function ok(data: Json, meta = ref("schemas", "Meta"), description = "The answer."): Json {
  return {
    description,
    headers: { "Svc-Version": ref("headers", "SvcVersion"), "Svc-Contract": ref("headers", "SvcContract"), "Svc-Key-Id": ref("headers", "SvcKeyId") },
    content: { "application/json": { schema: { type: "object", required: ["data", "meta"], properties: { data, meta } } } },
  };
}

const ERRORS: Json = { default: ref("responses", "Error") };
const KEYED = [{ apiKey: [] }];
const HEADERS = ["SvcVersion", "SvcContract"].map((n) => ref("parameters", n));
const ENTRY_HEADERS = ["SvcPage", "SvcPath", "SvcSchema"].map((n) => ref("parameters", n));
const LIST = Object.keys(LIST_PARAMETERS).map((n) => ref("parameters", n));
const ITEM = ["select", "preview"].map((n) => ref("parameters", n));
const NOT_MODIFIED = { "304": { description: "Not modified: the If-None-Match tag is current (production keys)." } };

function get(operationId: string, summary: string, responses: Json, extra: Json = {}): Json {
  return { get: { operationId, summary, security: KEYED, parameters: HEADERS, responses: { ...responses, ...ERRORS }, ...extra } };
}

/** The paths of one model: its list and its item (`loc`: the locale parameters, when the project has a second locale). */
function modelPaths(m: Model, name: string, loc: Json[]): Record<string, Json> {
  const entry = ref("schemas", name);
  const list = get(`list_${name}`, `Entries of the ${m.name} model.`, { "200": ok({ type: "array", items: entry }), ...NOT_MODIFIED });
  (list.get as Json).parameters = [...HEADERS, ...ENTRY_HEADERS, ...LIST, ...loc];
  const item = get(`get_${name}`, `One entry of the ${m.name} model by id.`, { "200": ok(entry), ...NOT_MODIFIED });
  (item.get as Json).parameters = [...HEADERS, ...ENTRY_HEADERS, { name: "id", in: "path", required: true, schema: { type: "string" } }, ...ITEM, ...loc];
  return { [`/api/entries/${m.namespace}`]: list, [`/api/entries/${m.namespace}/{id}`]: item };
}

/**
 * The document for a key that can read `readable` (every model of the project in `all`);
 * `locales`: the project's codes when it has more than one (the reads then document `locale` and
 * `fallbackLocale`).
 */
export function readApiDocument(opts: { readable: readonly Model[]; version: string; serverUrl: string; locales?: string[] | null }): Json {
  const localeParams = opts.locales ? localeParameters(opts.locales) : {};
  const LOC = Object.keys(localeParams).map((n) => ref("parameters", n));
  const c = new Components();
  const names = componentNames(opts.readable);
  const schemas: Record<string, Json> = {};
  for (const m of opts.readable) schemas[names.get(m.id)!] = entrySchema(m, names);
  const anyEntry: Json = { type: "object", required: ["id"], properties: { id: { type: "string" } }, description: "An entry of any model." };
  const paths: Record<string, Json> = {
    "/api/versions": {
      get: {
        operationId: "versions",
        summary: "The dated versions of the read API; no key needed.",
        security: [],
        parameters: [ref("parameters", "SvcVersion"), { name: "from", in: "query", schema: { type: "string" }, description: "Only versions strictly newer." }],
        responses: {
          "200": ok(
            { type: "object", properties: { current: { type: "string" }, versions: { type: "array", items: c.schema(VersionEntry) } } },
            c.schema(VersionsMeta),
          ),
          ...ERRORS,
        },
      },
    },
    "/api/me": get("me", "What the key is and what it may touch.", { "200": ok(c.schema(KeyInfo)) }),
    "/api/entries/{ns}": get("listEntries", "Entries of any readable model by namespace.", { "200": ok({ type: "array", items: anyEntry }), ...NOT_MODIFIED }),
    "/api/entries/{ns}/{id}": get("getEntry", "One entry of any readable model by id.", { "200": ok(anyEntry), ...NOT_MODIFIED }),
    "/api/graphql": {
      get: {
        operationId: "graphqlGet",
        summary: "A GraphQL query in the query string; cacheable with a production key.",
        security: KEYED,
        parameters: [...HEADERS, ...["query", "variables", "operationName", "extensions"].map((name) => ({ name, in: "query", schema: { type: "string" } }))],
        responses: { "200": { description: "A GraphQL result.", content: { "application/json": { schema: c.schema(GraphqlResult) } } }, ...ERRORS },
      },
      post: {
        operationId: "graphqlPost",
        summary: "A GraphQL query; never cached.",
        security: KEYED,
        parameters: HEADERS,
        requestBody: { required: true, content: { "application/json": { schema: c.schema(GraphqlRequest) } } },
        responses: { "200": { description: "A GraphQL result.", content: { "application/json": { schema: c.schema(GraphqlResult) } } }, ...ERRORS },
      },
    },
    "/api/pages": get("pages", "The site's pages and what each reads.", { "200": ok({ type: "array", items: c.schema(SitePage) }) }),
    "/api/pages/{page}": get("page", "One page, its entries and queries.", { "200": ok(c.schema(SitePage)) }),
    "/api/preview": get("preview", "Verifies a preview token.", { "200": ok(c.schema(PreviewInfo)) }),
    "/api/openapi.json": get("openapi", "This document.", {
      "200": { description: "An OpenAPI 3.1 document.", content: { "application/json": { schema: c.schema(OpenApiDocument) } } },
      ...NOT_MODIFIED,
    }),
  };
  const withParams = (p: string, params: Json[]) => ((paths[p]!.get as Json).parameters = [...((paths[p]!.get as Json).parameters as Json[]), ...params]);
  withParams("/api/entries/{ns}", [...ENTRY_HEADERS, { name: "ns", in: "path", required: true, schema: { type: "string" } }, ...LIST, ...LOC]);
  withParams("/api/entries/{ns}/{id}", [
    ...ENTRY_HEADERS,
    ...["ns", "id"].map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...ITEM,
    ...LOC,
  ]);
  withParams("/api/pages/{page}", [{ name: "page", in: "path", required: true, schema: { type: "string" } }]);
  withParams("/api/preview", [{ name: "token", in: "query", required: true, schema: { type: "string" } }]);
  for (const m of opts.readable) Object.assign(paths, modelPaths(m, names.get(m.id)!, LOC));
  c.schema(Media);
  c.schema(Meta);
  const error = c.schema(ApiError);
  return {
    openapi: "3.1.0",
    info: {
      title: "Capa read API",
      version: opts.version,
      description: `The read API as this key sees it: version ${opts.version}, contract 1, ${opts.readable.length} readable model(s).`,
      "x-svc-version": opts.version,
      "x-svc-contract": 1,
    },
    servers: [{ url: opts.serverUrl }],
    paths,
    components: {
      schemas: { ...c.schemas, ...schemas },
      parameters: { ...HEADER_PARAMETERS(opts.version), ...LIST_PARAMETERS, ...localeParams },
      headers: ANSWER_HEADERS,
      responses: { Error: { description: "A refusal: the /api error envelope.", content: { "application/json": { schema: error } } } },
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
    },
  };
}
