// The delivery log (decisions.md 6; issue 27, keys and webhooks): an endpoint's deliveries with
// every attempt, as the routes show them. Each attempt keeps what Capa sent (the headers, the
// signature masked) and what came back (status, headers, the first 4 KB of the body); the body
// sent is the same for every attempt of a delivery (deliveries.ts) and is shown on one delivery.
import { and, count, desc, eq } from "drizzle-orm";
import { badField, fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { webhookAttempts, webhookDeliveries } from "../../storage/project/schema.ts";
import { UUID } from "../projects/service.ts";
import { endpointOrFail } from "./endpoints.ts";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const json = (v: string | null) => (v === null ? null : (JSON.parse(v) as Record<string, string>));

/** A delivery as the routes show it, with its attempts. */
export function deliveryOut(h: ProjectHandle, d: DeliveryRow) {
  const attempts = h.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, d.id)).orderBy(webhookAttempts.number).all();
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attempts,
    nextAttemptAt: d.status === "retrying" ? d.nextAttemptAt : d.status === "pending" ? d.nextAttemptAt || d.createdAt : null,
    redeliveryOf: d.redeliveryOf,
    note: d.note,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    finishedAt: d.finishedAt,
    attempts: attempts.map((a) => ({
      number: a.number,
      startedAt: a.startedAt,
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      succeeded: a.succeeded,
      error: a.error,
      response: a.response,
      requestHeaders: json(a.requestHeaders),
      responseHeaders: json(a.responseHeaders),
    })),
  };
}

export function deliveryOrFail(h: ProjectHandle, endpointId: string, id: string): DeliveryRow {
  const d = UUID.test(id)
    ? h.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, id.toLowerCase()), eq(webhookDeliveries.endpointId, endpointId)))
        .get()
    : undefined;
  if (!d) fail("not_found", { message: "No delivery with that id for this webhook endpoint." });
  return d;
}

/** An endpoint's deliveries, newest first, with their attempts; `?status=`, `?limit=` (1-100) and `?page=`. */
export function listDeliveries(h: ProjectHandle, endpointId: string, q: { status?: unknown; limit?: unknown; page?: unknown }) {
  const ep = endpointOrFail(h, endpointId);
  const limit = q.limit === undefined ? 25 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) badField("limit", "limit must be a whole number from 1 to 100");
  const page = q.page === undefined ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1) badField("page", "page must be a whole number from 1");
  const states = ["pending", "sending", "succeeded", "retrying", "failed"];
  if (q.status !== undefined && (typeof q.status !== "string" || !states.includes(q.status))) badField("status", `status must be one of ${states.join(", ")}`);
  const where =
    q.status === undefined
      ? eq(webhookDeliveries.endpointId, ep.id)
      : and(eq(webhookDeliveries.endpointId, ep.id), eq(webhookDeliveries.status, q.status as string));
  const total = h.db.select({ n: count() }).from(webhookDeliveries).where(where).get()!.n;
  const rows = h.db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.seq))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  return { data: rows.map((d) => deliveryOut(h, d)), page, limit, total };
}

/** `GET /v2/webhooks/:id/deliveries/:deliveryId`: one delivery with its attempts and the exact body sent. */
export function getDelivery(h: ProjectHandle, endpointId: string, deliveryId: string) {
  const ep = endpointOrFail(h, endpointId);
  const d = deliveryOrFail(h, ep.id, deliveryId);
  const body = d.body ?? (h.sqlite.query("SELECT body FROM events WHERE id = ?").get(d.eventId) as { body: string } | null)?.body ?? null;
  return { ...deliveryOut(h, d), request: { method: "POST", url: ep.url, body } };
}
