// The events outbox. An event is written inside the transaction of the change that causes it
// (through the unit of work's `tx.emit`), so an event exists exactly when its change does. The
// webhook sender reads the outbox.
import { events } from "../../storage/project/schema.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";

/** Version of the envelope's shape. */
export const ENVELOPE_VERSION = "2026-10-01";

export interface Actor {
  kind: "user" | "api_key" | "schedule" | "system";
  id?: string;
}

/** Turns an actor string (`user:<id>`, `api_key:<id>`, `schedule:<actionId>`, `system`) into an Actor. */
export function actorFrom(s: string): Actor {
  const [kind, id] = s.split(":") as [Actor["kind"], string | undefined];
  if (!["user", "api_key", "schedule", "system"].includes(kind)) return { kind: "system" };
  return id ? { kind, id } : { kind };
}

export interface NewEvent {
  type: string;
  actor: Actor;
  data: Record<string, unknown>;
  links?: { self?: string; public?: string };
  /** The published entry, sent only to endpoints with 'Include content data'. */
  content?: unknown;
}

/** An event as written to the outbox: what subscribers receive. */
export interface WrittenEvent {
  id: string;
  seq: number;
  type: string;
  occurredAt: string;
}

/**
 * Writes one event row. Only the unit of work calls this (`tx.emit`), inside the transaction of
 * the change it reports, and then hands the event to the subscribers.
 */
export function writeEvent(s: Services, h: ProjectHandle, e: NewEvent): WrittenEvent {
  const id = `evt_${s.ids.uuid()}`;
  const occurredAt = iso(s.clock.now());
  // The envelope's key order is fixed because the exact bytes are signed.
  const envelope: Record<string, unknown> = {
    id,
    type: e.type,
    apiVersion: ENVELOPE_VERSION,
    occurredAt,
    tenantId: h.id,
    actor: e.actor,
    data: e.data,
    links: e.links ?? {},
  };
  const seq = (h.sqlite.query("SELECT coalesce(max(seq), 0) + 1 AS n FROM events").get() as { n: number }).n;
  h.db
    .insert(events)
    .values({ id, seq, type: e.type, occurredAt, body: JSON.stringify(envelope), content: e.content === undefined ? null : JSON.stringify(e.content) })
    .run();
  return { id, seq, type: e.type, occurredAt };
}
