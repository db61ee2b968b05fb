// The webhook routes of /v2 (docs/webhooks.md), used only by the lazily loaded webhook screens.
import { call } from "./client.ts";

/** An endpoint as the routes answer it (the secret only on create and rotation). */
export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  includeContent: boolean;
  active: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  secretPrefix: string;
  secretRotatedAt: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/**
 * One try of a delivery: status, duration, the first 4 KB of the answer, the headers Capa sent
 * (`webhook-signature` masked as `v1,****`) and the answer's headers (up to 50).
 */
export interface Attempt {
  number: number;
  startedAt: string;
  durationMs: number | null;
  statusCode: number | null;
  succeeded: boolean;
  error: string | null;
  response: string | null;
  requestHeaders: Record<string, string> | null;
  responseHeaders: Record<string, string> | null;
}

/** A delivery of one event to one endpoint. */
export interface Delivery {
  id: string;
  eventType: string;
  status: "pending" | "sending" | "succeeded" | "retrying" | "failed";
  attemptCount: number;
  nextAttemptAt: string | null;
  redeliveryOf: string | null;
  note: string | null;
  createdAt: string;
  attempts: Attempt[];
}

/** One delivery with the request every attempt sent: method, the endpoint's URL and the exact body signed. */
export interface DeliveryDetail extends Delivery {
  request: { method: string; url: string; body: string | null };
}

/** The event types an endpoint can subscribe to, with the words people read. */
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
};

/** What the `New webhook` form sends. */
export interface NewEndpoint {
  url: string;
  description?: string;
  events: string[];
  includeContent: boolean;
}

/** The webhook routes, one function per documented route. */
export const hookApi = {
  list: () => call<{ data: Endpoint[] }>("GET", "/v2/webhooks").then((r) => r.data),
  get: (id: string) => call<Endpoint>("GET", `/v2/webhooks/${id}`),
  create: (e: NewEndpoint) => call<Endpoint & { secret: string }>("POST", "/v2/webhooks", { body: e }),
  update: (id: string, patch: Partial<Omit<NewEndpoint, "description">> & { description?: string | null; active?: boolean }) =>
    call<Endpoint>("PATCH", `/v2/webhooks/${id}`, { body: patch }),
  remove: (id: string) => call<void>("DELETE", `/v2/webhooks/${id}`),
  rotate: (id: string, graceHours: number) => call<Endpoint & { secret: string }>("POST", `/v2/webhooks/${id}/rotate-secret`, { body: { graceHours } }),
  test: (id: string) => call<Delivery>("POST", `/v2/webhooks/${id}/test`, { body: {} }),
  deliveries: (id: string) => call<{ data: Delivery[]; total: number }>("GET", `/v2/webhooks/${id}/deliveries`, { query: { limit: 25 } }),
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
