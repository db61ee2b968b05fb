// TypeBox models of the key routes' bodies (interface.md, Minting a scoped key; API keys): the
// shape each route checks before the domain's own rules (a scope names a model of the project,
// an expiry at least an hour ahead, grant only what you hold). checks.ts applies the same
// property models to the CLI's input, so both refuse with the same words.
import { Type } from "@sinclair/typebox";
import { PRESETS } from "../access/scopes.ts";
import { VERSIONS } from "../versions.ts";
import { PERMISSIONS } from "./grants.ts";

const VERSION_LIST = VERSIONS.map((x) => x.date).join(", ");

/** A key's name: 1 to 120 characters with more than spaces; null or absent is "API key". */
export const KeyName = Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 120, pattern: "\\S" })], {
  error: "name must be 1 to 120 characters",
  description: "1 to 120 characters; default `API key`.",
});

export const KeyEnvironment = Type.Union([Type.Null(), Type.Literal("production"), Type.Literal("development")], {
  error: "environment must be production or development",
  description: "`production` (default) reads published entries only; `development` also reads drafts.",
});

/** An ISO 8601 time (the domain also checks it parses and is at least an hour ahead), or null for no expiry. */
export const KeyExpiry = Type.Union([Type.Null(), Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T" })], {
  error: "expiresAt must be an ISO 8601 time",
  description: "ISO 8601, at least one hour ahead; null or absent: never expires.",
});

/** A date of the version list (the domain checks the date is registered: the list may grow while the server runs). */
const VersionDate = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });

export const KeyApiVersion = Type.Union([Type.Null(), VersionDate], {
  error: `apiVersion must be a supported version: ${VERSION_LIST}`,
  description: `The dated version the key is pinned to (${VERSION_LIST}); absent pins the newest.`,
});

/** 1 to 100 scope strings (`resource:action[:modelId]`); the domain checks each names a scope a key can hold. */
export const KeyScopes = Type.Array(Type.String({ error: "{field} must be a scope string such as instance:read" }), {
  minItems: 1,
  maxItems: 100,
  error: "scopes must be a list of 1 to 100 scope strings",
});

/** POST /v2/tenants/api-keys: a scoped key (`scopes` or `preset`) or a legacy key (`permission`). */
export const MintKeyBody = Type.Object(
  {
    contractId: Type.Optional(
      Type.Never({
        error: "contractId is not accepted until contracts exist; this project has contract 1 only",
        description: "Refused until contracts exist.",
      }),
    ),
    name: Type.Optional(KeyName),
    environment: Type.Optional(KeyEnvironment),
    expiresAt: Type.Optional(KeyExpiry),
    preset: Type.Optional(
      Type.Union(
        Object.keys(PRESETS).map((p) => Type.Literal(p)),
        { error: `preset must be one of ${Object.keys(PRESETS).join(", ")}`, description: "Instead of scopes: a preset's scopes." },
      ),
    ),
    scopes: Type.Optional(KeyScopes),
    apiVersion: Type.Optional(KeyApiVersion),
    permission: Type.Optional(
      Type.Union(
        PERMISSIONS.map((p) => Type.Literal(p)),
        { error: "permission must be read, write, delete or agent", description: "A legacy key's permission (sent without scopes)." },
      ),
    ),
  },
  { $id: "MintKeyBody", additionalProperties: false, unknown: "{field} is not a key field" },
);

/** PATCH /v2/tenants/api-keys/:id: any of name, scopes (scoped keys), expiresAt, apiVersion. */
export const UpdateKeyBody = Type.Object(
  {
    name: Type.Optional(KeyName),
    scopes: Type.Optional(KeyScopes),
    expiresAt: Type.Optional(KeyExpiry),
    apiVersion: Type.Optional({ ...VersionDate, error: `apiVersion must be a supported version: ${VERSION_LIST}`, description: `One of ${VERSION_LIST}.` }),
  },
  { $id: "UpdateKeyBody", additionalProperties: false, unknown: "{field} cannot be changed here" },
);

/** An origin: scheme, host and port (the domain also parses it as a URL with no path). */
const Origin = Type.String({ error: "{field} must be an origin such as https://example.com" });

/** PATCH /v2/tenants/api-keys/:id/allowed-origins: up to 50 origins; an empty list accepts any. */
export const AllowedOriginsBody = Type.Object(
  {
    allowedOrigins: Type.Array(Origin, { maxItems: 50, error: "allowedOrigins must be a list of origins", count: "allowedOrigins holds at most 50 origins" }),
  },
  { $id: "AllowedOriginsBody" },
);
