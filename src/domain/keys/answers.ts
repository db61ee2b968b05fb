// The answers of the key routes (interface.md, API key; Minting a scoped key).
import { Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";

const Predecessor = nullable(record({ id: Uuid, expiresAt: nullable(Time) }));

/** A key's state without its secret (edits, reactivation, origins). */
export const KeyState = record(
  {
    id: Uuid,
    name: Type.String(),
    keyPrefix: Type.String(),
    bundle: oneOf(["scoped", "legacy"]),
    environment: oneOf(["production", "development"]),
    scopes: Type.Array(Type.String()),
    permission: nullable(Type.String()),
    version: Type.String(),
    contract: Type.Integer(),
    expiresAt: nullable(Time),
    active: Type.Boolean(),
    allowedOrigins: Type.Array(Type.String()),
    lastUsedAt: nullable(Time),
    rotatedFrom: Predecessor,
    createdAt: Time,
  },
  { $id: "KeyState" },
);

const minted = {
  id: Uuid,
  name: Type.String(),
  apiKey: Type.String({ description: "The secret, shown once." }),
  keyPrefix: Type.String(),
  environment: oneOf(["production", "development"]),
  scopes: Type.Optional(Type.Array(Type.String())),
  permission: Type.Optional(nullable(Type.String())),
  version: Type.String(),
  contract: Type.Integer(),
  expiresAt: nullable(Time),
};

/** The answer of a mint or rotation: the only answers that hold the secret (`apiKey`). */
export const MintedKey = record({ ...minted, rotatedFrom: Type.Optional(Predecessor) }, { $id: "MintedKey" });

/** The answer of a rotation: the successor, and the key it replaces with the end of its grace period. */
export const RotatedKey = record({ ...minted, rotatedFrom: record({ id: Uuid, expiresAt: Time }) }, { $id: "RotatedKey" });

/** One row of GET /v2/tenants/api-keys; `?includeStatus=true` adds the status keys. */
export const KeyListItem = record(
  {
    id: Uuid,
    name: Type.String(),
    keyPrefix: Type.String(),
    bundle: oneOf(["scoped", "legacy"]),
    environment: oneOf(["production", "development"]),
    scopes: Type.Array(Type.String()),
    permission: nullable(Type.String()),
    version: Type.String(),
    createdAt: Time,
    active: Type.Optional(Type.Boolean()),
    allowedOrigins: Type.Optional(Type.Array(Type.String())),
    expiresAt: Type.Optional(nullable(Time)),
    lastUsedAt: Type.Optional(nullable(Time)),
  },
  { $id: "KeyListItem" },
);

export const KeyList = listOf(KeyListItem);

export const Grantable = record(
  {
    scopes: Type.Array(record({ scope: Type.String(), held: Type.Boolean() })),
    presets: Type.Array(record({ name: Type.String(), scopes: Type.Array(Type.String()), grantable: Type.Boolean() })),
    permissions: Type.Array(record({ permission: Type.String(), grantable: Type.Boolean() })),
  },
  { $id: "Grantable" },
);

export const DomainsSeen = listOf(record({ domain: Type.String(), lastSeenAt: Time }));

/** The query of the key list. */
export const KeyListQuery = Type.Object({
  includeStatus: Type.Optional(Type.String({ enum: ["true", "false"], description: "`true` adds active, allowedOrigins, expiresAt, lastUsedAt." })),
});
