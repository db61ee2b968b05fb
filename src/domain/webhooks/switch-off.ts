// Switching an endpoint off ends its open deliveries as failed (a redelivery can send them
// later), whether a person switched it off or the sender did after five days of failures.
import { and, eq, inArray } from "drizzle-orm";
import type { ProjectHandle } from "../../storage/pool.ts";
import { webhookDeliveries, webhookEndpoints } from "../../storage/project/schema.ts";
import { endpointsChanged } from "./subscribers.ts";

/** The note on a delivery ended because its endpoint was switched off by a person. */
export const SWITCHED_OFF = "The endpoint was switched off before this delivery was sent.";

/** Ends an endpoint's pending and retrying deliveries as failed; a redelivery can send them later. */
export function closeOpenDeliveries(h: ProjectHandle, endpointId: string, now: string, note: string): void {
  h.db
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, note, updatedAt: now, finishedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ["pending", "retrying"])))
    .run();
}

/** Switches off an endpoint that has failed every attempt for too long (the sender calls this). */
export function disableFailing(h: ProjectHandle, endpointId: string, now: string): void {
  h.db
    .update(webhookEndpoints)
    .set({ active: false, disabledAt: now, disabledReason: "failing", updatedAt: now })
    .where(eq(webhookEndpoints.id, endpointId))
    .run();
  closeOpenDeliveries(h, endpointId, now, "The endpoint was switched off after failing every delivery for 5 days.");
  endpointsChanged(h);
}
