// Webhook endpoints under /v2/webhooks (decisions.md section 6), for people; `webhook:*` scopes.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { authenticatePerson } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { actorOf } from "./entries.ts";
import { projectOf, requirePerson } from "../../domain/access/principal.ts";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateSecret, updateEndpoint } from "../../domain/webhooks/endpoints.ts";
import { listDeliveries, redeliver, sendTest } from "../../domain/webhooks/deliveries.ts";

export function webhookRoutes(s: Services) {
  const ctx = async (request: Request, scope: string) => {
    const p = await authenticatePerson(s, request);
    requirePerson(p, scope);
    const projectId = projectOf(p);
    return { p, projectId, h: s.projects.get(projectId) };
  };
  return new Elysia({ prefix: "/v2/webhooks" })
    .get("/", async ({ request }) => {
      const { h } = await ctx(request, "webhook:read");
      return { data: listEndpoints(s, h) };
    })
    .post("/", async ({ request, set }) => {
      const { p, projectId } = await ctx(request, "webhook:create");
      const answer = await createEndpoint(s, projectId, actorOf(p), await jsonBody(request));
      set.status = 201;
      return answer;
    })
    .get("/:id", async ({ request, params }) => {
      const { h } = await ctx(request, "webhook:read");
      return getEndpoint(s, h, params.id);
    })
    .patch("/:id", async ({ request, params }) => {
      const { h } = await ctx(request, "webhook:update");
      return updateEndpoint(s, h, params.id, await jsonBody(request));
    })
    .delete("/:id", async ({ request, params, set }) => {
      const { projectId, h } = await ctx(request, "webhook:delete");
      deleteEndpoint(s, projectId, h, params.id);
      set.status = 204;
      return null;
    })
    .post("/:id/rotate-secret", async ({ request, params }) => {
      const { h } = await ctx(request, "webhook:update");
      return rotateSecret(s, h, params.id, await jsonBody(request));
    })
    .post("/:id/test", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "webhook:update");
      const answer = sendTest(s, h, params.id, actorOf(p));
      set.status = 202;
      return answer;
    })
    .get("/:id/deliveries", async ({ request, params, query }) => {
      const { h } = await ctx(request, "webhook:read");
      return listDeliveries(h, params.id, query);
    })
    .post("/:id/deliveries/:deliveryId/redeliver", async ({ request, params, set }) => {
      const { h } = await ctx(request, "webhook:update");
      const answer = redeliver(s, h, params.id, params.deliveryId);
      set.status = 202;
      return answer;
    });
}
