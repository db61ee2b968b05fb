// API key management: /v2/tenants/api-keys...
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { ActiveBody, RotateBody } from "../../domain/access/body-models.ts";
import { AllowedOriginsBody, MintKeyBody, UpdateKeyBody } from "../../domain/keys/bodies.ts";
import { DomainsSeen, Grantable, KeyList, KeyListQuery, KeyState, MintedKey, RotatedKey } from "../../domain/keys/answers.ts";
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
        const answer = mintKey(s, projectId, p, await typedBody(request, MintKeyBody));
        set.status = 201;
        return answer;
      },
      {
        person: "api_key:create",
        detail: doc({ summary: "Mint a key (scoped with scopes or preset, legacy with permission)", body: MintKeyBody, answers: { 201: MintedKey } }),
      },
    )
    .get(
      "/",
      ({ project: { id: projectId }, query }) => {
        return { data: listKeys(s, projectId, query.includeStatus === "true", (id) => keys.lastUsedById(id)) };
      },
      { person: "api_key:read", detail: doc({ summary: "List the project's keys", query: KeyListQuery, answers: { 200: KeyList } }) },
    )
    .get(
      "/grantable",
      ({ principal: p }) => {
        return grantable(p);
      },
      { person: "api_key:read", detail: doc({ summary: "The scopes, presets and permissions the caller can grant", answers: { 200: Grantable } }) },
    )
    .patch(
      "/:id",
      async ({ principal: p, project: { id: projectId }, request, params }) => {
        return updateKey(s, projectId, p, params.id, await typedBody(request, UpdateKeyBody));
      },
      {
        person: "api_key:update",
        detail: doc({ summary: "Edit a key's name, scopes, expiry or version pin", body: UpdateKeyBody, answers: { 200: KeyState } }),
      },
    )
    .post(
      "/:id/rotate",
      // Rotation, reactivation and origins check the caller's scopes (issue 15 item 8).
      async ({ principal: p, project: { id: projectId }, request, params, set }) => {
        const answer = rotateKey(s, projectId, p, params.id, await typedBody(request, RotateBody));
        set.status = 201;
        return answer;
      },
      {
        person: "api_key:update",
        detail: doc({ summary: "Rotate a key once: a successor; the old key expires after graceHours", body: RotateBody, answers: { 201: RotatedKey } }),
      },
    )
    .patch(
      "/:id/active",
      async ({ principal: p, project: { id: projectId }, request, params }) => {
        const body = await typedBody(request, ActiveBody);
        return setActive(s, projectId, p, params.id, body.active);
      },
      { person: "api_key:update", detail: doc({ summary: "Revoke or reactivate a key", body: ActiveBody, answers: { 200: KeyState } }) },
    )
    .patch(
      "/:id/allowed-origins",
      async ({ principal: p, project: { id: projectId }, request, params }) => {
        return setAllowedOrigins(s, projectId, p, params.id, await typedBody(request, AllowedOriginsBody));
      },
      {
        person: "api_key:update",
        detail: doc({ summary: "Set the origins the key accepts (up to 50; empty accepts any)", body: AllowedOriginsBody, answers: { 200: KeyState } }),
      },
    )
    .get(
      "/:id/domains-seen",
      ({ project: { id: projectId }, params }) => {
        keys.flush();
        return { data: domainsSeen(s, projectId, params.id) };
      },
      { person: "api_key:read", detail: doc({ summary: "Domains the key was used from in the last 30 days", answers: { 200: DomainsSeen } }) },
    )
    .delete(
      "/:id",
      ({ project: { id: projectId }, params, set }) => {
        deleteKey(s, projectId, params.id);
        set.status = 204;
        return null;
      },
      { person: "api_key:delete", detail: doc({ summary: "Delete a key", answers: { 204: null } }) },
    );
}
