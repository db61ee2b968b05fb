// API key management: /v2/tenants/api-keys...
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { jsonBody, typedBody } from "./body.ts";
import { ActiveBody, RotateBody } from "../../domain/access/body-models.ts";
import { managementAuth } from "../plugins/management.ts";
import { grantable } from "../../domain/keys/grants.ts";
import { mintKey, rotateKey } from "../../domain/keys/mint.ts";
import { deleteKey, domainsSeen, listKeys, setActive, setAllowedOrigins, updateKey } from "../../domain/keys/service.ts";

export function keyRoutes(s: Services) {
  const keys = s.keys;
  return new Elysia({ prefix: "/v2/tenants/api-keys" })
    .use(managementAuth(s, "/v2"))
    .post(
      "/",
      async ({ principal: p, project: { id: projectId }, request, set }) => {
        const answer = mintKey(s, projectId, p, await jsonBody(request));
        set.status = 201;
        return answer;
      },
      { person: "api_key:create" },
    )
    .get(
      "/",
      ({ project: { id: projectId }, query }) => {
        return { data: listKeys(s, projectId, query.includeStatus === "true", (id) => keys.lastUsedById(id)) };
      },
      { person: "api_key:read" },
    )
    .get(
      "/grantable",
      ({ principal: p }) => {
        return grantable(p);
      },
      { person: "api_key:read" },
    )
    .patch(
      "/:id",
      async ({ principal: p, project: { id: projectId }, request, params }) => {
        return updateKey(s, projectId, p, params.id, await jsonBody(request));
      },
      { person: "api_key:update" },
    )
    .post(
      "/:id/rotate",
      // Rotation, reactivation and origins check the caller's scopes (issue 15 item 8).
      async ({ principal: p, project: { id: projectId }, request, params, set }) => {
        const answer = rotateKey(s, projectId, p, params.id, await typedBody(request, RotateBody));
        set.status = 201;
        return answer;
      },
      { person: "api_key:update" },
    )
    .patch(
      "/:id/active",
      async ({ principal: p, project: { id: projectId }, request, params }) => {
        const body = await typedBody(request, ActiveBody);
        return setActive(s, projectId, p, params.id, body.active);
      },
      { person: "api_key:update" },
    )
    .patch(
      "/:id/allowed-origins",
      async ({ principal: p, project: { id: projectId }, request, params }) => {
        return setAllowedOrigins(s, projectId, p, params.id, await jsonBody(request));
      },
      { person: "api_key:update" },
    )
    .get(
      "/:id/domains-seen",
      ({ project: { id: projectId }, params }) => {
        keys.flush();
        return { data: domainsSeen(s, projectId, params.id) };
      },
      { person: "api_key:read" },
    )
    .delete(
      "/:id",
      ({ project: { id: projectId }, params, set }) => {
        deleteKey(s, projectId, params.id);
        set.status = 204;
        return null;
      },
      { person: "api_key:delete" },
    );
}
