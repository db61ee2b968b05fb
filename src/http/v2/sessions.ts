// POST /v2/user/login and /v2/user/refresh-token.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { login, refresh } from "../../domain/users/service.ts";
import { jsonBody } from "./body.ts";
import { clientIp } from "../context.ts";

export function sessionRoutes(s: Services) {
  return new Elysia({ prefix: "/v2/user" })
    .post("/login", async ({ request, server }) => {
      const body = await jsonBody(request);
      // Hardening (issue 15 item 11): the client IP feeds the per-IP sign-in throttle.
      return login(s, body.email, body.password, clientIp(server, request));
    })
    .post("/refresh-token", async ({ request }) => {
      const body = await jsonBody(request);
      return refresh(s, body.refreshToken);
    });
}
