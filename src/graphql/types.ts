// The fixed part of every schema (interface.md, GraphQL "Schema" and the field-kind table): the
// Node and Entry interfaces, scalars, Media, PageInfo and KeyInfo. Shared by every built schema.
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLID,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type GraphQLFieldConfigMap,
  type GraphQLNullableType,
  type ValueNode,
} from "graphql";
import { MEDIA_KINDS } from "../domain/models/fields.ts";
import { type TransformInput, transformedUrl } from "../domain/media/url.ts";
import { D } from "./descriptions.ts";

const nn = <T extends GraphQLNullableType>(t: T) => new GraphQLNonNull(t);

/**
 * A date as saved. Input is any text: a filter value that is not a date is refused by the entries
 * read with invalid_filter_value, as REST refuses it.
 */
export const DateTime = new GraphQLScalarType({
  name: "DateTime",
  description: D.dateTime,
  serialize: (v) => (typeof v === "string" ? v : null),
  parseValue: (v) => {
    if (typeof v !== "string") throw new TypeError("DateTime takes text: YYYY-MM-DD or an ISO 8601 date-time with a zone.");
    return v;
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING) throw new TypeError("DateTime takes text: YYYY-MM-DD or an ISO 8601 date-time with a zone.");
    return node.value;
  },
});

function literal(node: ValueNode, vars: Record<string, unknown> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literal(v, vars));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value, vars)]));
    case Kind.VARIABLE:
      return vars?.[node.name.value];
  }
}

/** Any JSON value, as saved (mixed fields). */
export const JSONScalar = new GraphQLScalarType({
  name: "JSON",
  description: D.json,
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literal,
});

export const EntryStatus = new GraphQLEnumType({
  name: "EntryStatus",
  description: D.entryStatus,
  values: Object.fromEntries(["published", "draft", "changed"].map((s) => [s, { value: s, description: D.status[s] }])),
});

export const MediaKind = new GraphQLEnumType({
  name: "MediaKind",
  description: D.mediaKind,
  values: Object.fromEntries(MEDIA_KINDS.map((k) => [k, { value: k, description: D.mediaKinds[k] }])),
});

const MEDIA_KIND_SET = new Set<string>(MEDIA_KINDS);

type MediaValue = { url?: unknown; type?: unknown; width?: unknown; height?: unknown };

/** The image transform of `Media.url(transform:)`: the file URL's own grammar (docs/media.md). */
export const MediaTransform = new GraphQLInputObjectType({
  name: "MediaTransform",
  description: "An image transform of a file of the media library; the values follow the file URL's grammar.",
  fields: {
    w: { type: GraphQLInt, description: "Width of the box, 1-4096 CSS pixels." },
    h: { type: GraphQLInt, description: "Height of the box, 1-4096 CSS pixels." },
    fit: {
      type: new GraphQLEnumType({
        name: "MediaFit",
        description: "How a transformed image fits its box.",
        values: {
          cover: { value: "cover", description: "Fill the box, cropping around the focal point." },
          contain: { value: "contain", description: "Fit inside the box, letterboxed." },
          inside: { value: "inside", description: "Fit inside the box, keeping the aspect ratio." },
          outside: { value: "outside", description: "Cover the box, keeping the aspect ratio, uncropped." },
          fill: { value: "fill", description: "Stretch to the box." },
        },
      }),
      description: "How the image fits the box; cover crops around the focal point.",
    },
    fm: {
      type: new GraphQLEnumType({
        name: "MediaFormat",
        description: "The output format of a transformed image.",
        values: {
          jpg: { value: "jpg", description: "JPEG." },
          png: { value: "png", description: "PNG." },
          webp: { value: "webp", description: "WebP." },
          avif: { value: "avif", description: "AVIF." },
          auto: { value: "auto", description: "AVIF or WebP when the Accept header allows, else the source's own." },
        },
      }),
      description: "Output format; auto picks the best the browser's Accept header allows.",
    },
    q: { type: GraphQLInt, description: "Quality, 1-100." },
  },
});

export const Media = new GraphQLObjectType<MediaValue>({
  name: "Media",
  description: D.media,
  fields: {
    id: { type: GraphQLString, description: D.mediaFields.id },
    url: {
      type: GraphQLString,
      description: D.mediaFields.url,
      args: { transform: { type: MediaTransform, description: "An image transform, for files of the media library." } },
      resolve: (m, args: { transform?: TransformInput | null }) => (typeof m.url === "string" ? transformedUrl(m.url, args.transform) : null),
    },
    alt: { type: GraphQLString, description: D.mediaFields.alt },
    // A stored kind outside MediaKind reads null, never an error.
    type: { type: MediaKind, description: D.mediaFields.type, resolve: (m) => (typeof m.type === "string" && MEDIA_KIND_SET.has(m.type) ? m.type : null) },
    width: { type: GraphQLInt, description: D.mediaFields.width, resolve: (m) => (Number.isInteger(m.width) ? m.width : null) },
    height: { type: GraphQLInt, description: D.mediaFields.height, resolve: (m) => (Number.isInteger(m.height) ? m.height : null) },
  },
});

export const PageInfo = new GraphQLObjectType({
  name: "PageInfo",
  description: D.pageInfo,
  fields: {
    hasNextPage: { type: nn(GraphQLBoolean), description: D.pageInfoFields.hasNextPage },
    hasPreviousPage: { type: nn(GraphQLBoolean), description: D.pageInfoFields.hasPreviousPage },
    startCursor: { type: GraphQLString, description: D.pageInfoFields.startCursor },
    endCursor: { type: GraphQLString, description: D.pageInfoFields.endCursor },
  },
});

/** The GraphQL types of the system fields, in interface.md's order. */
export function systemFields(): GraphQLFieldConfigMap<unknown, unknown> {
  return {
    id: { type: nn(GraphQLID), description: D.sys.id },
    model: { type: nn(GraphQLString), description: D.sys.model },
    status: { type: nn(EntryStatus), description: D.sys.status },
    createdAt: { type: nn(DateTime), description: D.sys.createdAt },
    updatedAt: { type: nn(DateTime), description: D.sys.updatedAt },
    publishedAt: { type: DateTime, description: D.sys.publishedAt },
    _version: { type: nn(GraphQLInt), description: D.sys._version },
    _tags: { type: nn(new GraphQLList(nn(GraphQLString))), description: D.sys._tags },
    _folder: { type: GraphQLID, description: D.sys._folder },
  };
}

/** The symbol root-level entry objects carry: their GraphQL type name (for Node and Entry). */
export const TYPE_NAME = Symbol("typeName");

const resolveType = (v: Record<symbol, string>) => v[TYPE_NAME];

export const Node = new GraphQLInterfaceType({
  name: "Node",
  description: D.node,
  fields: { id: { type: nn(GraphQLID), description: D.nodeId } },
  resolveType,
});

export const Entry = new GraphQLInterfaceType({
  name: "Entry",
  description: D.entry,
  interfaces: [Node],
  fields: systemFields,
  resolveType,
});

const KeyEnvironment = new GraphQLEnumType({
  name: "KeyEnvironment",
  description: D.keyEnvironment,
  values: Object.fromEntries(["production", "development"].map((e) => [e, { value: e, description: D.keyEnvironments[e] }])),
});

const obj = (name: string, description: string, fields: Record<string, [unknown, string]>) =>
  new GraphQLObjectType({
    name,
    description,
    fields: Object.fromEntries(Object.entries(fields).map(([k, [type, d]]) => [k, { type: type as never, description: d }])),
  });

const strings = nn(new GraphQLList(nn(GraphQLString)));

export const KeyInfo = obj("KeyInfo", D.keyInfo, {
  keyId: [nn(GraphQLID), D.keyInfoFields.keyId!],
  name: [nn(GraphQLString), D.keyInfoFields.name!],
  keyPrefix: [nn(GraphQLString), D.keyInfoFields.keyPrefix!],
  environment: [nn(KeyEnvironment), D.keyInfoFields.environment!],
  bundle: [nn(GraphQLString), D.keyInfoFields.bundle!],
  surfaces: [strings, D.keyInfoFields.surfaces!],
  scopes: [strings, D.keyInfoFields.scopes!],
  models: [
    nn(
      new GraphQLList(
        nn(
          obj("KeyModel", D.keyModel, {
            namespace: [nn(GraphQLString), D.keyModelFields.namespace!],
            id: [nn(GraphQLID), D.keyModelFields.id!],
            can: [strings, D.keyModelFields.can!],
            typeName: [GraphQLString, D.keyModelFields.typeName!],
          }),
        ),
      ),
    ),
    D.keyInfoFields.models!,
  ],
  version: [nn(GraphQLString), D.keyInfoFields.version!],
  contract: [nn(GraphQLInt), D.keyInfoFields.contract!],
  legacy: [
    nn(
      obj("KeyLegacy", D.keyLegacy, {
        contract: [GraphQLInt, D.keyLegacyFields.contract!],
        legacyRefused: [nn(GraphQLBoolean), D.keyLegacyFields.legacyRefused!],
        reason: [GraphQLString, D.keyLegacyFields.reason!],
      }),
    ),
    D.keyInfoFields.legacy!,
  ],
  expiresAt: [DateTime, D.keyInfoFields.expiresAt!],
  lastUsedAt: [DateTime, D.keyInfoFields.lastUsedAt!],
  rotatedFrom: [
    obj("KeyRotatedFrom", D.keyRotatedFrom, {
      id: [nn(GraphQLID), D.keyRotatedFromFields.id!],
      expiresAt: [DateTime, D.keyRotatedFromFields.expiresAt!],
    }),
    D.keyInfoFields.rotatedFrom!,
  ],
  writes: [nn(obj("KeyWrites", D.keyWrites, { enabled: [nn(GraphQLBoolean), D.keyWritesEnabled] })), D.keyInfoFields.writes!],
  tenant: [
    nn(
      obj("KeyTenant", D.keyTenant, {
        id: [nn(GraphQLID), D.keyTenantFields.id!],
        name: [nn(GraphQLString), D.keyTenantFields.name!],
      }),
    ),
    D.keyInfoFields.tenant!,
  ],
});

export { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString };
