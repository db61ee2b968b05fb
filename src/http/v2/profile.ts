// The signed-in person's own account under /v2/user: `GET /v2/user/me`, `PATCH /v2/user/me
// { name }` and `POST /v2/user/password { currentPassword, newPassword }` (docs/security.md,
// "Your own account"). A password change answers a new session, as sign-in does; a client that
// sends `x-capa-session: cookie` gets its new refresh token in the session cookie.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { changePassword, getProfile, updateProfile } from "../../domain/users/profile.ts";
import { REFRESH_TTL_MS } from "../../domain/users/sessions.ts";
import { managementAuth } from "../plugins/management.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { PasswordBody, Profile, ProfileBody, Session } from "../../domain/users/bodies.ts";
import { setSessionCookie, wantsCookie } from "./session-cookie.ts";

/** The routes of a person's own profile and password. */
export function profileRoutes(s: Services) {
  return new Elysia({ prefix: "/v2/user" })
    .use(managementAuth(s, "/v2"))
    .get("/me", ({ person: p }) => getProfile(s, p.userId), { signedIn: true, detail: doc({ summary: "Your own profile", answers: { 200: Profile } }) })
    .patch("/me", async ({ person: p, request }) => updateProfile(s, p.userId, await typedBody(request, ProfileBody)), {
      signedIn: true,
      detail: doc({ summary: "Change your name (null clears it)", body: ProfileBody, answers: { 200: Profile } }),
    })
    .post(
      "/password",
      async ({ person: p, request, set }) => {
        const tokens = await changePassword(s, p.userId, await typedBody(request, PasswordBody), s.requests.client(request));
        set.headers["cache-control"] = "no-store";
        if (!wantsCookie(request)) return tokens;
        set.headers["set-cookie"] = setSessionCookie(request, tokens.refreshToken, REFRESH_TTL_MS);
        return { accessToken: tokens.accessToken };
      },
      {
        signedIn: true,
        detail: doc({ summary: "Change your password: every other session ends; answers a new session", body: PasswordBody, answers: { 200: Session } }),
      },
    );
}
