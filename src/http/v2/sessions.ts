// Sessions: sign-in, refresh and sign-out under /v2/user, and accepting an invitation (which signs
// a new member in, or adds a project to a signed-in one). A client that sends
// `x-capa-session: cookie` gets its refresh token in an httpOnly cookie instead of the body
// (src/http/v2/session-cookie.ts): the admin app's browser session.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { login, logout, refresh, REFRESH_TTL_MS } from "../../domain/users/sessions.ts";
import { acceptInvitation } from "../../domain/projects/invitations.ts";
import { bearerOf, verifyBearer } from "../../domain/access/authenticate.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { LoginBody, LogoutBody, RefreshBody, Session } from "../../domain/users/bodies.ts";
import { AcceptInvitationBody, JoinedProject } from "../../domain/projects/bodies.ts";
import { clearSessionCookie, cookieToken, requireCsrfHeader, setSessionCookie, wantsCookie } from "./session-cookie.ts";

type SetLike = { headers: Record<string, string | number> & { "set-cookie"?: string | string[] } };

/** A session answer: with a cookie session, the refresh token moves from the body into the cookie. */
function answer(request: Request, set: SetLike, tokens: { accessToken: string; refreshToken: string }, cookie: boolean) {
  if (!cookie) return tokens;
  set.headers["set-cookie"] = setSessionCookie(request, tokens.refreshToken, REFRESH_TTL_MS);
  set.headers["cache-control"] = "no-store";
  return { accessToken: tokens.accessToken };
}

export function sessionRoutes(s: Services) {
  return new Elysia()
    .post(
      "/v2/user/login",
      async ({ request, set }) => {
        const body = await typedBody(request, LoginBody);
        // The client IP feeds the per-IP sign-in throttle (issue 15 item 11); the root noted it
        // when it handed the request to the management routes (src/app.ts).
        return answer(request, set, await login(s, body.email, body.password, s.requests.client(request)), wantsCookie(request));
      },
      {
        detail: doc({
          summary: "Sign in with e-mail and password (x-capa-session: cookie puts the refresh token in a cookie)",
          body: LoginBody,
          answers: { 200: Session },
        }),
      },
    )
    .post(
      "/v2/user/refresh-token",
      async ({ request, set }) => {
        const body = await typedBody(request, RefreshBody);
        // A refresh token in the body is the API's way; without one, the session cookie's.
        if (body.refreshToken !== undefined) return refresh(s, body.refreshToken);
        const token = cookieToken(request);
        if (token === null) return refresh(s, undefined);
        requireCsrfHeader(request);
        return answer(request, set, await refresh(s, token), true);
      },
      { detail: doc({ summary: "A new access token (12 h) for a refresh token, or for the session cookie", body: RefreshBody, answers: { 200: Session } }) },
    )
    .post(
      "/v2/user/logout",
      async ({ request, set }) => {
        const body = await typedBody(request, LogoutBody);
        const refreshToken = typeof body.refreshToken === "string" ? body.refreshToken : cookieToken(request);
        if (refreshToken !== null && typeof body.refreshToken !== "string") requireCsrfHeader(request);
        // The bearer token names the session it belongs to; the refresh token (body or cookie) too.
        const token = bearerOf(request.headers);
        const verified = token === null ? undefined : await verifyBearer(s, token);
        const bearer = verified ? { userId: verified.id, sessionId: verified.sessionId } : verified;
        logout(s, { refreshToken, bearer }, body.all);
        set.headers["set-cookie"] = clearSessionCookie(request);
        set.status = 204;
        return null;
      },
      {
        detail: doc({
          summary: "Sign out: this session's tokens stop working at once; { all: true } ends every session of the person",
          body: LogoutBody,
          answers: { 204: null },
        }),
      },
    )
    .post(
      "/v2/invitations/accept",
      async ({ request, set }) => {
        const r = await acceptInvitation(s, request.headers, await typedBody(request, AcceptInvitationBody));
        set.status = r.status;
        return r.status === 201 ? answer(request, set, r.body as { accessToken: string; refreshToken: string }, wantsCookie(request)) : r.body;
      },
      {
        detail: doc({
          summary: "Accept an invitation: a new account signs in (201); an existing one, signed in as itself, joins (200)",
          body: AcceptInvitationBody,
          answers: { 200: JoinedProject, 201: Session },
        }),
      },
    );
}
