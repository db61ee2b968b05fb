// TypeBox models of the webhook endpoint bodies and answers (decisions.md 6). The domain adds
// what a shape cannot say: the URL parses as absolute https without credentials, and (unless
// private targets are allowed) resolves to no private address.
import { Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { EVENT_TYPES } from "./endpoint-checks.ts";

const EVENTS = EVENT_TYPES.join(", ");

const Url = Type.String({
  maxLength: 2048,
  pattern: "\\S",
  error: "url must be an https URL",
  messages: { maxLength: "url must be at most 2048 characters" },
  description: "An absolute https URL with no user name or password.",
});

const Events = Type.Array(
  Type.Union(
    EVENT_TYPES.map((t) => Type.Literal(t)),
    { error: `{field} must be one of: ${EVENTS}` },
  ),
  { minItems: 1, error: `events must be a non-empty list of: ${EVENTS}`, description: "Default: instance.published, instance.unpublished, instance.deleted." },
);

const Description = Type.Union([Type.Null(), Type.String({ maxLength: 500, error: "description must be at most 500 characters" })], {
  error: "description must be a string or null",
});

const bool = (field: string) => Type.Boolean({ error: `${field} must be true or false` });

/** POST /v2/webhooks. */
export const CreateWebhookBody = Type.Object(
  { url: Url, events: Type.Optional(Events), includeContent: Type.Optional(bool("includeContent")), description: Type.Optional(Description) },
  { $id: "CreateWebhookBody" },
);

/** PATCH /v2/webhooks/:id: any of the endpoint's settings, and `active` to switch it on or off. */
export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    includeContent: Type.Optional(bool("includeContent")),
    description: Type.Optional(Description),
    active: Type.Optional(bool("active")),
  },
  { $id: "UpdateWebhookBody" },
);

/** An endpoint as every answer shows it: the secret masked. */
export const Webhook = record(
  {
    id: Uuid,
    url: Type.String(),
    description: nullable(Type.String()),
    events: Type.Array(Type.String()),
    includeContent: Type.Boolean(),
    active: Type.Boolean(),
    disabledAt: nullable(Time),
    disabledReason: nullable(Type.String()),
    failingSince: nullable(Time),
    secretPrefix: Type.String(),
    secretRotatedAt: nullable(Time),
    previousSecretExpiresAt: nullable(Time),
    createdAt: Time,
    updatedAt: Time,
  },
  { $id: "Webhook" },
);

/** Creation and rotation answer the endpoint with its full secret, the only time it is shown. */
export const WebhookWithSecret = Type.Composite([Webhook, Type.Object({ secret: Type.String({ description: "whsec_..., shown once." }) })], {
  $id: "WebhookWithSecret",
});

export const WebhookList = listOf(Webhook);

export const Delivery = record(
  {
    id: Uuid,
    endpointId: Uuid,
    eventId: Type.String(),
    eventType: Type.String(),
    status: oneOf(["pending", "sending", "succeeded", "retrying", "failed"]),
    attemptCount: Type.Integer(),
    nextAttemptAt: nullable(Time),
    redeliveryOf: nullable(Uuid),
    note: nullable(Type.String()),
    createdAt: Time,
    updatedAt: Time,
    finishedAt: nullable(Time),
    attempts: Type.Array(
      record({
        number: Type.Integer(),
        startedAt: Time,
        durationMs: nullable(Type.Number()),
        statusCode: nullable(Type.Integer()),
        succeeded: Type.Boolean(),
        error: nullable(Type.String()),
        response: nullable(Type.String({ description: "The first 4 KB of the answer's body." })),
        requestHeaders: nullable(
          Type.Record(Type.String(), Type.String(), { description: "The headers Capa sent, webhook-signature masked; null when nothing was sent." }),
        ),
        responseHeaders: nullable(Type.Record(Type.String(), Type.String(), { description: "The answer's headers (up to 50); null without an answer." })),
      }),
    ),
  },
  { $id: "Delivery" },
);

export const DeliveryDetail = Type.Composite(
  [
    Delivery,
    Type.Object({
      request: record({
        method: Type.Literal("POST"),
        url: Type.String({ description: "The endpoint's URL now." }),
        body: nullable(Type.String({ description: "The exact bytes every attempt sent and signed." })),
      }),
    }),
  ],
  { $id: "DeliveryDetail" },
);

export const DeliveryList = listOf(Delivery, { page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() });

export const DeliveryQuery = Type.Object({
  status: Type.Optional(Type.String({ enum: ["pending", "sending", "succeeded", "retrying", "failed"] })),
  limit: Type.Optional(Type.String({ description: "1 to 100, default 25." })),
  page: Type.Optional(Type.String({ description: "From 1." })),
});
