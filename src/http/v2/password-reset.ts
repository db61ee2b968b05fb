// Password reset by mail under /v2/user (decisions.md section 15; docs/security.md, "Password
// reset by mail"): asking for a link, and setting a new password with it. No bearer token: the
// link in the mail is the proof.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { askPasswordReset, confirmPasswordReset } from "../../domain/users/password-reset.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { PasswordResetBody, PasswordResetConfirmBody, ResetAsked } from "../../domain/users/bodies.ts";

export function passwordResetRoutes(s: Services) {
  return new Elysia()
    .post(
      "/v2/user/password-reset",
      async ({ request, set }) => {
        const answer = askPasswordReset(s, await typedBody(request, PasswordResetBody), s.requests.client(request));
        set.status = 202;
        return answer;
      },
      {
        detail: doc({
          summary: "Mail a one-use link (one hour) that sets a new password; 202 whether or not the address has an account",
          body: PasswordResetBody,
          answers: { 202: ResetAsked },
        }),
      },
    )
    .post(
      "/v2/user/password-reset/confirm",
      async ({ request, set }) => {
        await confirmPasswordReset(s, await typedBody(request, PasswordResetConfirmBody));
        set.status = 204;
        return null;
      },
      {
        detail: doc({
          summary: "Set a new password with the mailed link's token; every session of the account ends",
          body: PasswordResetConfirmBody,
          answers: { 204: null },
        }),
      },
    );
}
