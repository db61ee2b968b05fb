// The delivery queue as the sender works it: claiming an endpoint's next due delivery, recording
// each attempt and moving the delivery on (retries, failure, switching a failing endpoint off),
// putting back what a crash left in flight, and pruning what is finished.
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";
import { signingSecrets } from "./endpoint-secrets.ts";
import { activeSubscribers } from "./subscribers.ts";
import { closeOpenDeliveries, disableFailing, SWITCHED_OFF } from "./switch-off.ts";
import { DISABLE_AFTER_MS, DUE_NOW, RETENTION_MS, RETRY_DELAYS_MS } from "./deliveries.ts";

/** Everything one attempt needs, taken when a delivery is claimed. */
export interface Claimed {
  deliveryId: string;
  eventId: string;
  body: string;
  url: string;
  secrets: string[];
}

/** The outcome of one attempt. */
export interface AttemptResult {
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  succeeded: boolean;
  error: string | null;
  response: string | null;
  /** The headers sent, the signature masked (null when nothing was sent), and the answer's headers. */
  requestHeaders?: Record<string, string> | null;
  responseHeaders?: Record<string, string> | null;
}

/** Puts deliveries a crash left in `sending` back in the queue, so they are sent again with the same id. */
export function requeueInterrupted(s: Services, h: ProjectHandle, now: number): number {
  return write(s, h, () => {
    const n = h.sqlite
      .query(`UPDATE webhook_deliveries SET status = CASE WHEN attempts = 0 THEN 'pending' ELSE 'retrying' END
      WHERE status = 'sending' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE active = 1)`)
      .run().changes;
    // Those of an endpoint switched off meanwhile end like its other open deliveries did.
    const at = iso(now);
    h.sqlite
      .query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, note = ?, updated_at = ?2, finished_at = ?2 WHERE status = 'sending'")
      .run(SWITCHED_OFF, at);
    return n;
  });
}

/** The active endpoints that have a delivery due at `now`. */
export function dueEndpoints(h: ProjectHandle, now: number): string[] {
  const due = new Set(
    (
      h.sqlite
        .query("SELECT DISTINCT endpoint_id AS id FROM webhook_deliveries WHERE status IN ('pending', 'retrying') AND next_attempt_at <= ?")
        .all(iso(now)) as { id: string }[]
    ).map((r) => r.id),
  );
  return activeSubscribers(h)
    .filter((ep) => due.has(ep.id))
    .map((ep) => ep.id);
}

/** When the project's next delivery falls due (ms; 0 for at once), or null when none is open. */
export function nextDueAt(h: ProjectHandle): number | null {
  const r = h.sqlite.query("SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status IN ('pending', 'retrying')").get() as { at: string | null };
  if (r.at === null) return null;
  return r.at === DUE_NOW ? 0 : Date.parse(r.at);
}

/**
 * Claims an endpoint's next due delivery (`sending`), in order of occurrence: the earliest open
 * delivery that is due. A delivery waiting for its first try is always due, so no later
 * delivery overtakes it; one waiting for a retry does not hold the others back.
 */
export function claimNext(h: ProjectHandle, endpointId: string, now: number): Claimed | null {
  // One process writes a project file, and this runs without an await: the endpoint read and the
  // claim see the same state. The claim itself is one statement.
  const ep = h.sqlite
    .query(`SELECT url, active, secret, previous_secret AS previousSecret, previous_secret_expires_at AS previousSecretExpiresAt
    FROM webhook_endpoints WHERE id = ?`)
    .get(endpointId) as { url: string; active: number; secret: string; previousSecret: string | null; previousSecretExpiresAt: string | null } | null;
  if (!ep?.active) return null;
  const at = iso(now);
  const d = h.sqlite
    .query(`UPDATE webhook_deliveries SET status = 'sending', updated_at = ?1 WHERE seq = (
      SELECT seq FROM webhook_deliveries WHERE endpoint_id = ?2 AND status IN ('pending', 'retrying') AND next_attempt_at <= ?1
      ORDER BY next_attempt_at, seq LIMIT 1
    ) RETURNING id, event_id AS eventId, body`)
    .get(at, endpointId) as { id: string; eventId: string; body: string | null } | null;
  if (!d) return null;
  const body = d.body ?? (h.sqlite.query("SELECT body FROM events WHERE id = ?").get(d.eventId) as { body: string }).body;
  return { deliveryId: d.id, eventId: d.eventId, body, url: ep.url, secrets: signingSecrets(ep, now) };
}

/**
 * Records an attempt and moves the delivery on: `succeeded`, `retrying` with the next wait, or
 * `failed` after the last. An endpoint whose attempts have all failed for 5 days is switched off.
 */
export function recordAttempt(s: Services, h: ProjectHandle, deliveryId: string, r: AttemptResult, now: number): void {
  write(s, h, () => {
    // The endpoint (and its deliveries) may have been deleted while the request was out.
    const d = h.sqlite.query("SELECT endpoint_id AS endpointId, attempts FROM webhook_deliveries WHERE id = ? AND status = 'sending'").get(deliveryId) as {
      endpointId: string;
      attempts: number;
    } | null;
    if (!d) return;
    const number = d.attempts + 1;
    const at = iso(now);
    h.sqlite
      .query(`INSERT INTO webhook_attempts (delivery_id, number, started_at, duration_ms, status_code, succeeded, error, response, request_headers, response_headers)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        deliveryId,
        number,
        iso(r.startedAt),
        Math.round(r.durationMs),
        r.statusCode,
        r.succeeded ? 1 : 0,
        r.error,
        r.response,
        r.requestHeaders ? JSON.stringify(r.requestHeaders) : null,
        r.responseHeaders ? JSON.stringify(r.responseHeaders) : null,
      );
    if (r.succeeded) {
      h.sqlite
        .query("UPDATE webhook_deliveries SET status = 'succeeded', attempts = ?, next_attempt_at = NULL, updated_at = ?3, finished_at = ?3 WHERE id = ?2")
        .run(number, deliveryId, at);
      h.sqlite.query("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL").run(d.endpointId);
      return;
    }
    const wait = RETRY_DELAYS_MS[number - 1];
    if (wait === undefined) {
      h.sqlite
        .query("UPDATE webhook_deliveries SET status = 'failed', attempts = ?, next_attempt_at = NULL, updated_at = ?3, finished_at = ?3 WHERE id = ?2")
        .run(number, deliveryId, at);
    } else {
      h.sqlite
        .query("UPDATE webhook_deliveries SET status = 'retrying', attempts = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?")
        .run(number, iso(now + wait), at, deliveryId);
    }
    const ep = h.sqlite.query("SELECT failing_since AS failingSince, active FROM webhook_endpoints WHERE id = ?").get(d.endpointId) as {
      failingSince: string | null;
      active: number;
    } | null;
    if (!ep) return;
    // Switched off while this attempt was out: no retry, like its other open deliveries.
    if (!ep.active) return closeOpenDeliveries(h, d.endpointId, at, SWITCHED_OFF);
    const since = ep.failingSince ?? iso(r.startedAt);
    if (ep.failingSince === null) h.sqlite.query("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?").run(since, d.endpointId);
    if (now - Date.parse(since) >= DISABLE_AFTER_MS) disableFailing(h, d.endpointId, at);
  });
}

/** Deletes deliveries that finished before the retention window, with their attempts; returns how many. */
export function pruneFinished(s: Services, h: ProjectHandle, now: number): number {
  const before = iso(now - RETENTION_MS);
  let total = 0;
  for (;;) {
    const n = write(s, h, () => {
      const ids = (
        h.sqlite.query("SELECT id FROM webhook_deliveries WHERE status IN ('succeeded', 'failed') AND finished_at < ? LIMIT 500").all(before) as {
          id: string;
        }[]
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      const list = JSON.stringify(ids);
      h.sqlite.query("DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))").run(list);
      h.sqlite.query("DELETE FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?))").run(list);
      return ids.length;
    });
    total += n;
    if (n < 500) return total + pruneEvents(s, h, before);
  }
}

/**
 * Deletes events older than the retention window that no delivery refers to any more (a
 * redelivery of an old event sends its bytes again, so a referenced event stays). Events go in
 * seq order; the oldest event still referenced bounds what may go, found with one pass over the
 * deliveries that are left.
 */
function pruneEvents(s: Services, h: ProjectHandle, before: string): number {
  const kept = h.sqlite.query("SELECT min(e.seq) AS seq FROM webhook_deliveries d JOIN events e ON e.id = d.event_id").get() as { seq: number | null };
  const bound = kept.seq ?? Number.MAX_SAFE_INTEGER;
  let total = 0;
  for (;;) {
    const n = write(
      s,
      h,
      () =>
        h.sqlite.query("DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE seq < ? AND occurred_at < ? ORDER BY seq LIMIT 500)").run(bound, before)
          .changes,
    );
    total += n;
    if (n < 500) return total;
  }
}
