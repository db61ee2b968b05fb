// Password reset by mail under /v2/user (decisions.md section 15; docs/security.md, "Password
// reset by mail"): asking for a link, and setting a new password with it. No bearer token: the
// link in the mail is the proof.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { askPasswordReset, confirmPasswordReset } from "../../domain/users/password-reset.ts";
import { jsonBody } from "./body.ts";
import { clientIp } from "../context.ts";

export function passwordResetRoutes(s: Services) {
  return new Elysia()
    .post("/v2/user/password-reset", async ({ request, set, server }) => {
      const answer = askPasswordReset(s, await jsonBody(request), clientIp(server, request));
      set.status = 202;
      return answer;
    })
    .post("/v2/user/password-reset/confirm", async ({ request, set }) => {
      await confirmPasswordReset(s, await jsonBody(request));
      set.status = 204;
      return null;
    });
}
