// API key management: /v2/tenants/api-keys...
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import type { KeyAuth } from "../../domain/keys/auth.ts";
import { authenticatePerson } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requirePerson } from "../../domain/access/principal.ts";
import { deleteKey, domainsSeen, grantable, listKeys, mintKey, rotateKey, setActive, setAllowedOrigins, updateKey } from "../../domain/keys/service.ts";

export function keyRoutes(s: Services, keys: KeyAuth) {
  const ctx = async (request: Request, scope: string) => {
    const p = await authenticatePerson(s, request);
    requirePerson(p, scope);
    return { p, projectId: projectOf(p) };
  };
  return new Elysia({ prefix: "/v2/tenants/api-keys" })
    .post("/", async ({ request, set }) => {
      const { p, projectId } = await ctx(request, "api_key:create");
      const answer = mintKey(s, projectId, p, await jsonBody(request));
      set.status = 201;
      return answer;
    })
    .get("/", async ({ request, query }) => {
      const { projectId } = await ctx(request, "api_key:read");
      return { data: listKeys(s, projectId, query.includeStatus === "true", (id) => keys.lastUsedById(id)) };
    })
    .get("/grantable", async ({ request }) => {
      const { p } = await ctx(request, "api_key:read");
      return grantable(p);
    })
    .patch("/:id", async ({ request, params }) => {
      const { p, projectId } = await ctx(request, "api_key:update");
      return updateKey(s, projectId, p, params.id, await jsonBody(request));
    })
    .post("/:id/rotate", async ({ request, params, set }) => {
      const { projectId } = await ctx(request, "api_key:update");
      const answer = rotateKey(s, projectId, params.id, await jsonBody(request));
      set.status = 201;
      return answer;
    })
    .patch("/:id/active", async ({ request, params }) => {
      const { projectId } = await ctx(request, "api_key:update");
      const body = await jsonBody(request);
      return setActive(s, projectId, params.id, body.active);
    })
    .patch("/:id/allowed-origins", async ({ request, params }) => {
      const { projectId } = await ctx(request, "api_key:update");
      return setAllowedOrigins(s, projectId, params.id, await jsonBody(request));
    })
    .get("/:id/domains-seen", async ({ request, params }) => {
      const { projectId } = await ctx(request, "api_key:read");
      keys.flush();
      return { data: domainsSeen(s, projectId, params.id) };
    })
    .delete("/:id", async ({ request, params, set }) => {
      const { projectId } = await ctx(request, "api_key:delete");
      deleteKey(s, projectId, params.id);
      set.status = 204;
      return null;
    });
}
