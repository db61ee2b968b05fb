// Deliveries: one row per event and subscribed endpoint, written by `writeDeliveries`, the event
// subscriber the webhooks feature registers at start-up, inside the transaction of the change
// that caused the event, so a committed change always has its
// deliveries and a rolled-back one never does. Every attempt of a delivery sends the same bytes:
// its own when it adds content data, else its event's.
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import type { webhookDeliveries } from "../../storage/project/schema.ts";
import { actorFrom, type WrittenEvent } from "../events/outbox.ts";
import { write, type Tx } from "../unit-of-work.ts";
import { deliveryOrFail, deliveryOut } from "./delivery-log.ts";
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

/**
 * Sends a delivery's event again: a new delivery with the same event id (so the same `webhook-id`
 * and `Idempotency-Key`) and the same bytes, due at once. A delivery still retrying may be sent
 * again too: its own retries stop (it ends `failed`, its note naming the new delivery), so the
 * event is never retried on two schedules at once. One that waits for its first attempt, or is
 * being sent this moment, is refused: it is about to be sent anyway.
 */
export function redeliver(s: Services, h: ProjectHandle, endpointId: string, deliveryId: string) {
  const ep = endpointOrFail(h, endpointId);
  const d = deliveryOrFail(h, ep.id, deliveryId);
  if (d.status === "pending" || d.status === "sending") fail("delivery_in_progress");
  if (!ep.active) fail("webhook_inactive");
  const id = s.ids.uuid();
  const now = iso(s.clock.now());
  write(s, h, (tx) => {
    if (d.status === "retrying") {
      const stopped = h.sqlite
        .query(
          "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, note = ?, updated_at = ?3, finished_at = ?3 WHERE id = ?2 AND status = 'retrying'",
        )
        .run(`Retries stopped: sent again as delivery ${id}.`, d.id, now);
      // The sender took it for its next attempt meanwhile.
      if (stopped.changes === 0) fail("delivery_in_progress");
    }
    insertDelivery(h, pendingRow(id, ep.id, d.eventId, d.eventType, d.body, now, d.id));
    wakeAfterCommit(s, tx);
  });
  return deliveryOut(h, deliveryOrFail(h, ep.id, id));
}
