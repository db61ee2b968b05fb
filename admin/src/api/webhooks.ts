// The webhook routes of /v2 (docs/webhooks.md), used only by the lazily loaded webhook screens.
import type { CreateWebhookBody, RotateBody, UpdateWebhookBody } from "../../../src/shared/bodies.ts";
import type { Delivery, DeliveryDetail, DeliveryPage, Endpoint, EndpointWithSecret } from "../../../src/shared/settings.ts";
import { call } from "./client.ts";

export type { CreateWebhookBody as NewEndpoint } from "../../../src/shared/bodies.ts";
export type { Attempt, Delivery, DeliveryDetail, Endpoint } from "../../../src/shared/settings.ts";

/** An event type an endpoint can subscribe to. */
export type EventType = NonNullable<CreateWebhookBody["events"]>[number];

/** The event types an endpoint can subscribe to, with the words people read (every one the server takes). */
export const EVENT_WORDS: Record<string, string> = {
  "instance.published": "Entry published",
  "instance.unpublished": "Entry unpublished",
  "instance.deleted": "Entry deleted",
  "instance.restored": "Entry restored",
  "model.published": "Model published",
  "model.deleted": "Model deleted",
  "schedule.failed": "Scheduled action failed",
  "media.uploaded": "Media uploaded",
  "media.updated": "Media changed",
  "media.deleted": "Media deleted",
} satisfies Record<EventType, string>;

/** The webhook routes, one function per documented route. */
export const hookApi = {
  list: () => call<{ data: Endpoint[] }>("GET", "/v2/webhooks").then((r) => r.data),
  get: (id: string) => call<Endpoint>("GET", `/v2/webhooks/${id}`),
  create: (e: CreateWebhookBody) => call<EndpointWithSecret>("POST", "/v2/webhooks", { body: e }),
  update: (id: string, patch: UpdateWebhookBody) => call<Endpoint>("PATCH", `/v2/webhooks/${id}`, { body: patch }),
  remove: (id: string) => call<void>("DELETE", `/v2/webhooks/${id}`),
  rotate: (id: string, graceHours: number) =>
    call<EndpointWithSecret>("POST", `/v2/webhooks/${id}/rotate-secret`, { body: { graceHours } satisfies RotateBody }),
  test: (id: string) => call<Delivery>("POST", `/v2/webhooks/${id}/test`, { body: {} }),
  deliveries: (id: string) => call<DeliveryPage>("GET", `/v2/webhooks/${id}/deliveries`, { query: { limit: 25 } }),
  delivery: (id: string, deliveryId: string) => call<DeliveryDetail>("GET", `/v2/webhooks/${id}/deliveries/${deliveryId}`),
  /** Sends the same event again as a new delivery; a delivery still retrying stops retrying. */
  redeliver: (id: string, deliveryId: string) => call<Delivery>("POST", `/v2/webhooks/${id}/deliveries/${deliveryId}/redeliver`, { body: {} }),
};

/** Query keys of the webhook screens. */
export const hookKeys = {
  list: (project: string) => ["webhooks", project] as const,
  one: (project: string, id: string) => ["webhooks", project, id] as const,
  deliveries: (project: string, id: string) => ["webhook-deliveries", project, id] as const,
  delivery: (project: string, id: string, deliveryId: string) => ["webhook-deliveries", project, id, deliveryId] as const,
};
