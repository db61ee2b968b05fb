// The browser session of the admin app (decisions.md section 11): the refresh token lives in an
// httpOnly, SameSite=Strict cookie scoped to /v2/user, so no script (and no localStorage) ever
// holds it; the short-lived access token stays in the page's memory and goes out as a bearer
// token, which a cross-site request cannot send. Every request that the cookie authenticates
// (refresh, sign-out) must also carry `x-capa-csrf: 1`: a custom header no cross-site form or
// simple request can set, on top of SameSite=Strict.
import { fail } from "../../errors.ts";

/** The cookie that holds the refresh token. */
export const SESSION_COOKIE = "capa_refresh";

/**
 * A cookie scripts may read, holding no secret (its value is `1`): it tells the admin app that a
 * session cookie exists, so a signed-out visit does not ask the server to refresh and get a 400
 * (which the browser logs as a failed request). It lives and dies with the session cookie.
 */
export const SESSION_HINT_COOKIE = "capa_session";

/** The header a client sends to ask for the cookie session at sign-in. */
export const COOKIE_SESSION_HEADER = "x-capa-session";

/** The anti-CSRF header that cookie-authenticated requests must carry. */
export const CSRF_HEADER = "x-capa-csrf";

/** Whether the client asked for a cookie session (`x-capa-session: cookie`). */
export function wantsCookie(request: Request): boolean {
  return request.headers.get(COOKIE_SESSION_HEADER)?.trim().toLowerCase() === "cookie";
}

/** The refresh token in the session cookie, or null. */
export function cookieToken(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return decodeURIComponent(part.slice(eq + 1).trim()) || null;
  }
  return null;
}

/** Refuses a cookie-authenticated request without the anti-CSRF header. */
export function requireCsrfHeader(request: Request): void {
  if (request.headers.get(CSRF_HEADER) !== "1") {
    fail("csrf_header_missing", { param: CSRF_HEADER });
  }
}

/** Whether the request reached the server over https (directly or through a proxy that says so). */
function secure(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}

/** The Set-Cookie values that store a refresh token for `maxAgeMs`, and its hint for the admin app. */
export function setSessionCookie(request: Request, token: string, maxAgeMs: number): string[] {
  const tail = `Max-Age=${Math.floor(maxAgeMs / 1000)}; SameSite=Strict${secure(request) ? "; Secure" : ""}`;
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/v2/user; ${tail.replace("; ", "; HttpOnly; ")}`,
    `${SESSION_HINT_COOKIE}=1; Path=/admin; ${tail}`,
  ];
}

/** The Set-Cookie values that remove the session cookie and its hint. */
export function clearSessionCookie(request: Request): string[] {
  const tail = `Max-Age=0; SameSite=Strict${secure(request) ? "; Secure" : ""}`;
  return [`${SESSION_COOKIE}=; Path=/v2/user; ${tail.replace("; ", "; HttpOnly; ")}`, `${SESSION_HINT_COOKIE}=; Path=/admin; ${tail}`];
}
