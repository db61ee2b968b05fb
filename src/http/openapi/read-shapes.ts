// The fixed shapes of the read API's answers (interface.md, Read API; decisions.md 4), as the
// /api document names them: the envelope's meta, a media value, key information, versions,
// pages, preview tokens and GraphQL over HTTP. Entry objects are per model (entry-schemas.ts).
import { type TSchema, Type } from "@sinclair/typebox";
import { MEDIA_KINDS } from "../../domain/models/fields.ts";

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A media value as every read returns it: six keys, resolved from the library. */
export const Media = Type.Object(
  {
    id: nullable(Type.String({ description: "The file's id in the media library (null on an external object without one)." })),
    url: Type.String({ description: "Absolute public URL; takes image transforms (`w`, `h`, `fit`, `fm`, `q`, `dpr`)." }),
    alt: nullable(Type.String({ description: "The field's own alt text, or the file's." })),
    type: nullable(Type.String({ description: `The kind of file: ${MEDIA_KINDS.join(", ")}.` })),
    width: nullable(Type.Integer()),
    height: nullable(Type.Integer()),
  },
  { $id: "Media", description: "A media value (interface.md, Media)." },
);

/** `meta.page` of a list. */
const Page = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200 }),
  next: nullable(Type.String({ description: "The cursor of the next page (`after=`); null on the last page." })),
  prev: nullable(Type.String({ description: "The cursor of the previous page (`before=`)." })),
});

/** The `meta` of a keyed answer, in the order the server writes it. */
export const Meta = Type.Object(
  {
    version: Type.String({ description: "The version served." }),
    requestId: Type.String(),
    contract: Type.Integer({ description: "The data contract, 1." }),
    page: Type.Optional(Page),
    count: Type.Optional(Type.Integer({ description: "The number of entries matching, with `count=true`." })),
    missingReferences: Type.Optional(Type.Array(Type.String(), { description: "Ids an expanded relation or media field could not resolve." })),
  },
  { $id: "Meta" },
);

/** The `meta` of GET /api/versions, which needs no key (no contract). */
export const VersionsMeta = Type.Object({ version: Type.String(), requestId: Type.String() }, { $id: "VersionsMeta" });

export const VersionEntry = Type.Object(
  {
    date: Type.String({ description: "YYYY-MM-DD" }),
    status: Type.Union([Type.Literal("current"), Type.Literal("supported"), Type.Literal("deprecated"), Type.Literal("sunset")]),
    changes: Type.Array(
      Type.Object({
        id: Type.String(),
        kind: Type.Union([Type.Literal("response"), Type.Literal("request"), Type.Literal("behaviour")]),
        surfaces: Type.Array(Type.Union([Type.Literal("rest"), Type.Literal("graphql")])),
        summary: Type.String(),
      }),
    ),
  },
  { $id: "VersionEntry" },
);

/** GET /api/me (interface.md, Key information): every field always present. */
export const KeyInfo = Type.Object(
  {
    keyId: Type.String(),
    name: Type.String(),
    keyPrefix: Type.String(),
    environment: Type.String({ description: "production or development" }),
    bundle: Type.String(),
    surfaces: Type.Array(Type.String()),
    scopes: Type.Array(Type.String()),
    models: Type.Array(Type.Object({ namespace: Type.String(), id: Type.String(), can: Type.Array(Type.String()) })),
    version: Type.String(),
    contract: Type.Integer(),
    legacy: Type.Object({ contract: nullable(Type.Integer()), legacyRefused: Type.Boolean(), reason: nullable(Type.String()) }),
    expiresAt: nullable(Type.String()),
    lastUsedAt: nullable(Type.String()),
    rotatedFrom: nullable(Type.Object({ id: Type.String(), expiresAt: nullable(Type.String()) })),
    writes: Type.Object({ enabled: Type.Boolean() }),
    tenant: Type.Object({ id: Type.String(), name: Type.String() }),
  },
  { $id: "KeyInfo" },
);

/** A site page and what it reads (GET /api/pages). */
export const SitePage = Type.Object(
  {
    page: Type.String(),
    paths: Type.Array(Type.String()),
    schemas: Type.Array(Type.String()),
    models: Type.Array(Type.String()),
    entries: Type.Array(Type.String()),
    queries: Type.Array(Type.String()),
    lastSeenAt: Type.String(),
  },
  { $id: "SitePage" },
);

/** GET /api/preview: whether a preview token is valid, and what it covers. */
export const PreviewInfo = Type.Object(
  {
    valid: Type.Boolean(),
    entryIds: nullable(Type.Array(Type.String())),
    model: nullable(Type.String()),
    expiresAt: nullable(Type.String()),
  },
  { $id: "PreviewInfo" },
);

/** A GraphQL request body (GraphQL over HTTP). */
export const GraphqlRequest = Type.Object(
  {
    query: Type.Optional(Type.String()),
    variables: Type.Optional(nullable(Type.Object({}))),
    operationName: Type.Optional(nullable(Type.String())),
    extensions: Type.Optional(nullable(Type.Object({}, { description: "persistedQuery (APQ) and `svc: true`." }))),
  },
  { $id: "GraphqlRequest" },
);

/** A GraphQL result; refusals included (`errors` and no `data`). */
export const GraphqlResult = Type.Object(
  {
    data: Type.Optional(nullable(Type.Object({}))),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          message: Type.String(),
          path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))),
          extensions: Type.Optional(Type.Object({ code: Type.String(), type: Type.Optional(Type.String()) })),
        }),
      ),
    ),
    extensions: Type.Optional(Type.Object({})),
  },
  { $id: "GraphqlResult" },
);
