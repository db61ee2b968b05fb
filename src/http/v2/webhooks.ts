// Webhook endpoints under /v2/webhooks (decisions.md section 6), for people; `webhook:*` scopes.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { jsonBody, typedBody } from "./body.ts";
import { RotateBody } from "../../domain/access/body-models.ts";
import { managementAuth } from "../plugins/management.ts";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateSecret, updateEndpoint } from "../../domain/webhooks/endpoints.ts";
import { listDeliveries, redeliver, sendTest } from "../../domain/webhooks/deliveries.ts";

export function webhookRoutes(s: Services) {
  return new Elysia({ prefix: "/v2/webhooks" })
    .use(managementAuth(s, "/v2"))
    .get("/", ({ project }) => ({ data: listEndpoints(s, project) }), { person: "webhook:read" })
    .post(
      "/",
      async ({ project, actor, request, set }) => {
        const answer = await createEndpoint(s, project.id, actor, await jsonBody(request));
        set.status = 201;
        return answer;
      },
      { person: "webhook:create" },
    )
    .get("/:id", ({ project, params }) => getEndpoint(s, project, params.id), { person: "webhook:read" })
    .patch("/:id", async ({ project, request, params }) => updateEndpoint(s, project, params.id, await jsonBody(request)), { person: "webhook:update" })
    .delete(
      "/:id",
      ({ project, params, set }) => {
        deleteEndpoint(s, project.id, project, params.id);
        set.status = 204;
        return null;
      },
      { person: "webhook:delete" },
    )
    .post("/:id/rotate-secret", async ({ project, request, params }) => rotateSecret(s, project, params.id, await typedBody(request, RotateBody)), {
      person: "webhook:update",
    })
    .post(
      "/:id/test",
      ({ project, actor, params, set }) => {
        const answer = sendTest(s, project, params.id, actor);
        set.status = 202;
        return answer;
      },
      { person: "webhook:update" },
    )
    .get("/:id/deliveries", ({ project, params, query }) => listDeliveries(project, params.id, query), { person: "webhook:read" })
    .post(
      "/:id/deliveries/:deliveryId/redeliver",
      ({ project, params, set }) => {
        const answer = redeliver(s, project, params.id, params.deliveryId);
        set.status = 202;
        return answer;
      },
      { person: "webhook:update" },
    );
}
