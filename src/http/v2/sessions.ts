// Sessions: POST /v2/user/login and /v2/user/refresh-token, and accepting an invitation
// (POST /v2/invitations/accept), which signs a new member in or adds a project to a signed-in one.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { login, refresh } from "../../domain/users/service.ts";
import { acceptInvitation } from "../../domain/projects/invitations.ts";
import { jsonBody } from "./body.ts";

export function sessionRoutes(s: Services) {
  return new Elysia()
    .post("/v2/user/login", async ({ request }) => {
      const body = await jsonBody(request);
      return login(s, body.email, body.password);
    })
    .post("/v2/user/refresh-token", async ({ request }) => {
      const body = await jsonBody(request);
      return refresh(s, body.refreshToken);
    })
    .post("/v2/invitations/accept", async ({ request, set }) => {
      const r = await acceptInvitation(s, request.headers, await jsonBody(request));
      set.status = r.status;
      return r.body;
    });
}
