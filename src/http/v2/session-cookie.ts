// The browser session of the admin app (decisions.md section 11): the refresh token lives in an
// httpOnly, SameSite=Strict cookie scoped to /v2/user, so no script (and no localStorage) ever
// holds it; the short-lived access token stays in the page's memory and goes out as a bearer
// token, which a cross-site request cannot send. Every request that the cookie authenticates
// (refresh, sign-out) must also carry `x-capa-csrf: 1`: a custom header no cross-site form or
// simple request can set, on top of SameSite=Strict.
import { fail } from "../../errors.ts";

/** The cookie that holds the refresh token. */
export const SESSION_COOKIE = "capa_refresh";

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

/** The Set-Cookie value that stores a refresh token for `maxAgeMs`. */
export function setSessionCookie(request: Request, token: string, maxAgeMs: number): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/v2/user; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Strict${secure(request) ? "; Secure" : ""}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearSessionCookie(request: Request): string {
  return `${SESSION_COOKIE}=; Path=/v2/user; Max-Age=0; HttpOnly; SameSite=Strict${secure(request) ? "; Secure" : ""}`;
}
