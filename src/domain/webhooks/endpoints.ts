// Webhook endpoints of a project (decisions.md section 6): create with a `whsec_` secret shown
// once, list, read, edit, delete, and rotate the secret with an overlap in which both sign.
// Bodies are checked in endpoint-checks.ts; the active list the outbox reads is subscribers.ts.
import { eq, sql } from "drizzle-orm";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";
import { webhookDeliveries, webhookEndpoints, webhookAttempts } from "../../storage/project/schema.ts";
import { webhookProjects } from "../../storage/control/schema.ts";
import { UUID } from "../projects/service.ts";
import { maskSecret, newSecret } from "./signing.ts";
import type { Static } from "@sinclair/typebox";
import type { RotateBody } from "../access/body-models.ts";
import { SecretBox } from "../../infra/secret-box.ts";
import { sealedSecret } from "./endpoint-secrets.ts";
import { checkUrl, DEFAULT_EVENTS, uniqueEvents } from "./endpoint-checks.ts";
import type { CreateWebhookBody, UpdateWebhookBody } from "./bodies.ts";
import { endpointsChanged } from "./subscribers.ts";
import { closeOpenDeliveries, SWITCHED_OFF } from "./switch-off.ts";

const HOUR = 3_600_000;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** The endpoint as the routes show it: never the secret, only its first characters. */
export function endpointOut(row: EndpointRow, now: number) {
  const overlap = row.previousSecret && row.previousSecretExpiresAt && Date.parse(row.previousSecretExpiresAt) > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    includeContent: row.includeContent,
    active: row.active,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince,
    secretPrefix: maskSecret(SecretBox.visible(row.secret)),
    secretRotatedAt: row.secretRotatedAt,
    previousSecretExpiresAt: overlap ? row.previousSecretExpiresAt : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** An endpoint of the project, or 404. */
export function endpointOrFail(h: ProjectHandle, id: string): EndpointRow {
  const row = UUID.test(id) ? h.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id.toLowerCase())).get() : undefined;
  if (!row) fail("not_found", { message: "No webhook endpoint with that id in this project." });
  return row;
}

/** Creates an endpoint; the answer is the only one that holds the full secret. */
export async function createEndpoint(s: Services, projectId: string, actor: string, body: Static<typeof CreateWebhookBody>) {
  const url = await checkUrl(s, body.url);
  const events = body.events === undefined ? [...DEFAULT_EVENTS] : uniqueEvents(body.events);
  const includeContent = body.includeContent ?? false;
  const description = body.description ?? null;
  const now = iso(s.clock.now());
  // The marker goes first: a crash between the two writes leaves a harmless marker, never an
  // endpoint the sender does not know about.
  s.control.db.insert(webhookProjects).values({ projectId, createdAt: now }).onConflictDoNothing().run();
  const h = s.projects.get(projectId);
  const secret = newSecret();
  const row: EndpointRow = {
    id: s.ids.uuid(),
    url,
    description,
    events: JSON.stringify(events),
    includeContent,
    active: true,
    secret: sealedSecret(s, secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
    secretRotatedAt: null,
    failingSince: null,
    disabledAt: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
    createdBy: actor,
  };
  h.db.insert(webhookEndpoints).values(row).run();
  endpointsChanged(h);
  return { ...endpointOut(row, s.clock.now()), secret };
}

/** Every endpoint of the project, oldest first. */
export function listEndpoints(s: Services, h: ProjectHandle) {
  const now = s.clock.now();
  return h.db
    .select()
    .from(webhookEndpoints)
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
    .all()
    .map((r) => endpointOut(r, now));
}

/** One endpoint. */
export function getEndpoint(s: Services, h: ProjectHandle, id: string) {
  return endpointOut(endpointOrFail(h, id), s.clock.now());
}

/** Edits events, URL, 'Include content data', description and active. */
export async function updateEndpoint(s: Services, h: ProjectHandle, id: string, body: Static<typeof UpdateWebhookBody>) {
  endpointOrFail(h, id);
  const set: Partial<EndpointRow> = {};
  if (body.url !== undefined) set.url = await checkUrl(s, body.url);
  if (body.events !== undefined) set.events = JSON.stringify(uniqueEvents(body.events));
  if (body.includeContent !== undefined) set.includeContent = body.includeContent;
  if (body.description !== undefined) set.description = body.description;
  const active = body.active;
  const nowMs = s.clock.now();
  const now = iso(nowMs);
  write(s, h, () => {
    // Read again inside the transaction: the URL check above awaited DNS.
    const cur = endpointOrFail(h, id);
    if (active === true && !cur.active) Object.assign(set, { active: true, disabledAt: null, disabledReason: null, failingSince: null });
    if (active === false && cur.active) {
      Object.assign(set, { active: false, disabledAt: now, disabledReason: null });
      closeOpenDeliveries(h, cur.id, now, SWITCHED_OFF);
    }
    set.updatedAt = now;
    h.db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, cur.id)).run();
  });
  endpointsChanged(h);
  return getEndpoint(s, h, id);
}

/** Deletes an endpoint with its deliveries and their attempts. */
export function deleteEndpoint(s: Services, projectId: string, h: ProjectHandle, id: string): void {
  const row = endpointOrFail(h, id);
  const left = write(s, h, () => {
    h.db.delete(webhookAttempts).where(sql`${webhookAttempts.deliveryId} IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${row.id})`).run();
    h.db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, row.id)).run();
    h.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id)).run();
    return (h.sqlite.query("SELECT count(*) AS n FROM webhook_endpoints").get() as { n: number }).n;
  });
  endpointsChanged(h);
  // The marker goes after the project write, so a crash in between only leaves a harmless marker.
  if (left === 0) s.control.db.delete(webhookProjects).where(eq(webhookProjects.projectId, projectId)).run();
}

/**
 * Rotates the signing secret. The old secret keeps signing beside the new one for `graceHours`
 * (0 to 168, default 24; 0 retires it at once). A rotation during an overlap retires the oldest
 * secret at once, so at most two ever sign. The answer holds the new secret in full, once.
 */
export function rotateSecret(s: Services, h: ProjectHandle, id: string, body: Static<typeof RotateBody>) {
  endpointOrFail(h, id);
  const grace = body.graceHours ?? 24;
  const nowMs = s.clock.now();
  const now = iso(nowMs);
  const secret = newSecret();
  write(s, h, () => {
    const cur = endpointOrFail(h, id);
    h.db
      .update(webhookEndpoints)
      .set({
        // The previous secret moves over still sealed (a rotation never needs to open it); one an
        // older version stored in the clear is sealed on the way.
        secret: sealedSecret(s, secret),
        previousSecret: grace === 0 ? null : SecretBox.isSealed(cur.secret) ? cur.secret : sealedSecret(s, cur.secret),
        previousSecretExpiresAt: grace === 0 ? null : iso(nowMs + grace * HOUR),
        secretRotatedAt: now,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, cur.id))
      .run();
  });
  return { ...getEndpoint(s, h, id), secret };
}
