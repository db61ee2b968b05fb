// Webhook endpoints under /v2/webhooks (decisions.md section 6), for people; `webhook:*` scopes.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  CreateWebhookBody,
  Delivery,
  DeliveryDetail,
  DeliveryList,
  DeliveryQuery,
  UpdateWebhookBody,
  Webhook,
  WebhookList,
  WebhookWithSecret,
} from "../../domain/webhooks/bodies.ts";
import { RotateBody } from "../../domain/access/body-models.ts";
import { managementAuth } from "../plugins/management.ts";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateSecret, updateEndpoint } from "../../domain/webhooks/endpoints.ts";
import { redeliver, sendTest } from "../../domain/webhooks/deliveries.ts";
import { getDelivery, listDeliveries } from "../../domain/webhooks/delivery-log.ts";

export function webhookRoutes(s: Services) {
  return new Elysia({ prefix: "/v2/webhooks" })
    .use(managementAuth(s, "/v2"))
    .get("/", ({ project }) => ({ data: listEndpoints(s, project) }), {
      person: "webhook:read",
      detail: doc({ summary: "The project's webhook endpoints", answers: { 200: WebhookList } }),
    })
    .post(
      "/",
      async ({ project, actor, request, set }) => {
        const answer = await createEndpoint(s, project.id, actor, await typedBody(request, CreateWebhookBody));
        set.status = 201;
        return answer;
      },
      {
        person: "webhook:create",
        detail: doc({ summary: "Create an endpoint: the only answer with the full secret", body: CreateWebhookBody, answers: { 201: WebhookWithSecret } }),
      },
    )
    .get("/:id", ({ project, params }) => getEndpoint(s, project, params.id), {
      person: "webhook:read",
      detail: doc({ summary: "One endpoint", answers: { 200: Webhook } }),
    })
    .patch("/:id", async ({ project, request, params }) => updateEndpoint(s, project, params.id, await typedBody(request, UpdateWebhookBody)), {
      person: "webhook:update",
      detail: doc({ summary: "Edit an endpoint; active switches it on or off", body: UpdateWebhookBody, answers: { 200: Webhook } }),
    })
    .delete(
      "/:id",
      ({ project, params, set }) => {
        deleteEndpoint(s, project.id, project, params.id);
        set.status = 204;
        return null;
      },
      { person: "webhook:delete", detail: doc({ summary: "Delete an endpoint", answers: { 204: null } }) },
    )
    .post("/:id/rotate-secret", async ({ project, request, params }) => rotateSecret(s, project, params.id, await typedBody(request, RotateBody)), {
      person: "webhook:update",
      detail: doc({ summary: "A new signing secret; the old one keeps signing for graceHours", body: RotateBody, answers: { 200: WebhookWithSecret } }),
    })
    .post(
      "/:id/test",
      ({ project, actor, params, set }) => {
        const answer = sendTest(s, project, params.id, actor);
        set.status = 202;
        return answer;
      },
      { person: "webhook:update", detail: doc({ summary: "Send a webhook.test event to this endpoint", answers: { 202: Delivery } }) },
    )
    .get("/:id/deliveries", ({ project, params, query }) => listDeliveries(project, params.id, query), {
      person: "webhook:read",
      detail: doc({ summary: "The endpoint's deliveries, newest first", query: DeliveryQuery, answers: { 200: DeliveryList } }),
    })
    .get("/:id/deliveries/:deliveryId", ({ project, params }) => getDelivery(project, params.id, params.deliveryId), {
      person: "webhook:read",
      detail: doc({
        summary: "One delivery: every attempt's request headers (signature masked) and answer (status, headers, first 4 KB), and the exact body sent",
        answers: { 200: DeliveryDetail },
      }),
    })
    .post(
      "/:id/deliveries/:deliveryId/redeliver",
      ({ project, params, set }) => {
        const answer = redeliver(s, project, params.id, params.deliveryId);
        set.status = 202;
        return answer;
      },
      {
        person: "webhook:update",
        detail: doc({
          summary: "Send a delivery's event again now (same event id and Idempotency-Key); a retrying delivery's own retries stop",
          answers: { 202: Delivery },
        }),
      },
    );
}
