// Deliveries: one row per event and subscribed endpoint, written by `writeDeliveries`, the event
// subscriber the webhooks feature registers at start-up, inside the transaction of the change
// that caused the event, so a committed change always has its
// deliveries and a rolled-back one never does. Every attempt of a delivery sends the same bytes:
// its own when it adds content data, else its event's.
import { and, count, desc, eq } from "drizzle-orm";
import { fail, badField } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { webhookAttempts, webhookDeliveries } from "../../storage/project/schema.ts";
import { actorFrom, type WrittenEvent } from "../events/outbox.ts";
import { write, type Tx } from "../unit-of-work.ts";
import { UUID } from "../projects/service.ts";
import { endpointOrFail } from "./endpoints.ts";
import { activeSubscribers } from "./subscribers.ts";

/** The event sent by 'Send test event', to that endpoint only. */
export const TEST_EVENT = "webhook.test";

/** Waits before the 2nd to 8th attempt (decisions.md section 6); after the 8th the delivery is failed. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** An endpoint that has failed every attempt for this long is switched off. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/** Finished deliveries and their attempts, and events no delivery refers to, are kept this long, then pruned. */
export const RETENTION_MS = 30 * 86_400_000;

/** The first bytes of an answer kept on an attempt. */
export const RESPONSE_LIMIT = 4096;

const OPEN = ["pending", "sending", "retrying"];

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Tells the app's sender, after the commit, that a project has new deliveries. */
function wakeAfterCommit(s: Services, tx: Tx): void {
  const projectId = tx.h.id;
  tx.afterCommit(() => s.webhooks.wake(projectId));
}

/**
 * The body for an endpoint with 'Include content data': the envelope with the published entry
 * as `data.data`. JSON.parse keeps key order and the content was written by JSON.stringify, so
 * the result is the same for the same event every time.
 */
export function bodyWithContent(body: string, content: string): string {
  const env = JSON.parse(body) as { data: Record<string, unknown> };
  env.data = { ...env.data, data: JSON.parse(content) };
  return JSON.stringify(env);
}

function insertDelivery(h: ProjectHandle, row: Omit<DeliveryRow, "seq">): void {
  h.sqlite
    .query(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts, next_attempt_at,
    redelivery_of, note, created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(
      row.id,
      row.endpointId,
      row.eventId,
      row.eventType,
      row.body,
      row.status,
      row.attempts,
      row.nextAttemptAt,
      row.redeliveryOf,
      row.note,
      row.createdAt,
      row.updatedAt,
      row.finishedAt,
    );
}

/**
 * A delivery waiting for its first try is due at once: its `next_attempt_at` is the empty string,
 * which sorts before every time, so an endpoint's first tries go out in order of occurrence
 * (seq) whatever the clock does, and before its retries.
 */
export const DUE_NOW = "";

/** A new delivery; `body` is null when it sends the event's own bytes. */
function pendingRow(
  id: string,
  endpointId: string,
  eventId: string,
  eventType: string,
  body: string | null,
  now: string,
  redeliveryOf: string | null = null,
): Omit<DeliveryRow, "seq"> {
  return {
    id,
    endpointId,
    eventId,
    eventType,
    body,
    status: "pending",
    attempts: 0,
    nextAttemptAt: DUE_NOW,
    redeliveryOf,
    note: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
}

/**
 * The event subscriber: one delivery per active endpoint subscribed to the event's type. An
 * endpoint created after the event cannot be seen here (this runs in the event's own
 * transaction), so history is never replayed.
 */
export function writeDeliveries(s: Services, tx: Tx, e: WrittenEvent): void {
  const h = tx.h;
  if (e.type === TEST_EVENT) return;
  const subs = activeSubscribers(h).filter((x) => x.events.has(e.type));
  if (subs.length === 0) return;
  const now = iso(s.clock.now());
  let withContent: string | null | undefined;
  for (const sub of subs) {
    // Only bytes that differ from the event's are stored: most deliveries add a small row, not a copy.
    if (sub.includeContent && withContent === undefined) {
      const ev = h.sqlite.query("SELECT body, content FROM events WHERE id = ?").get(e.id) as { body: string; content: string | null };
      withContent = ev.content === null ? null : bodyWithContent(ev.body, ev.content);
    }
    const body = sub.includeContent ? (withContent ?? null) : null;
    insertDelivery(h, pendingRow(s.ids.uuid(), sub.id, e.id, e.type, body, now));
  }
  wakeAfterCommit(s, tx);
}

/** A delivery as the routes show it, with its attempts. */
function deliveryOut(h: ProjectHandle, d: DeliveryRow) {
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
    })),
  };
}

/** Queues a `webhook.test` event for one endpoint; the sender delivers it like any other. */
export function sendTest(s: Services, h: ProjectHandle, endpointId: string, actor: string) {
  const ep = endpointOrFail(h, endpointId);
  if (!ep.active) fail("webhook_inactive");
  const now = iso(s.clock.now());
  const id = s.ids.uuid();
  write(s, h, (tx) => {
    const eventId = tx.emit({
      type: TEST_EVENT,
      actor: actorFrom(actor),
      data: { webhookId: ep.id, url: ep.url, message: "This is a test event from Capa." },
      // No `self`: webhook routes are not on the agent mount, and interface.md's `self` is the
      // resource there or absent.
    });
    insertDelivery(h, pendingRow(id, ep.id, eventId, TEST_EVENT, null, now));
    wakeAfterCommit(s, tx);
  });
  return deliveryOut(h, deliveryOrFail(h, ep.id, id));
}

function deliveryOrFail(h: ProjectHandle, endpointId: string, id: string): DeliveryRow {
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

/**
 * Sends a finished delivery again: a new delivery with the same event id (so the same
 * `webhook-id` and `Idempotency-Key`) and the same bytes, at the end of the endpoint's queue.
 */
export function redeliver(s: Services, h: ProjectHandle, endpointId: string, deliveryId: string) {
  const ep = endpointOrFail(h, endpointId);
  const d = deliveryOrFail(h, ep.id, deliveryId);
  if (OPEN.includes(d.status)) fail("delivery_in_progress");
  if (!ep.active) fail("webhook_inactive");
  const id = s.ids.uuid();
  write(s, h, (tx) => {
    insertDelivery(h, pendingRow(id, ep.id, d.eventId, d.eventType, d.body, iso(s.clock.now()), d.id));
    wakeAfterCommit(s, tx);
  });
  return deliveryOut(h, deliveryOrFail(h, ep.id, id));
}
