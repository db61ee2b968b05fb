// POST /v2/user/login and /v2/user/refresh-token.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { login, refresh } from "../../domain/users/service.ts";
import { jsonBody } from "./body.ts";

export function sessionRoutes(s: Services) {
  return new Elysia({ prefix: "/v2/user" })
    .post("/login", async ({ request }) => {
      const body = await jsonBody(request);
      return login(s, body.email, body.password);
    })
    .post("/refresh-token", async ({ request }) => {
      const body = await jsonBody(request);
      return refresh(s, body.refreshToken);
    });
}
