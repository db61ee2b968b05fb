// The browser session: the one module that knows how the app proves who it is. It uses the
// server's cookie session (decisions.md 11; src/http/v2/session-cookie.ts): sign-in sends
// `x-capa-session: cookie`, so the refresh token lives only in an httpOnly, SameSite=Strict
// cookie scoped to /v2/user that no script can read; the short-lived access token is kept in
// this module's memory (never localStorage or sessionStorage) and sent as a bearer token.
// Refresh and sign-out are authenticated by the cookie and carry the anti-CSRF header. A reload
// restores the session from the cookie.

import type { LoginBody, LogoutBody, PasswordResetBody, PasswordResetConfirmBody, RefreshBody } from "../../../src/shared/bodies.ts";
import type { ResetAsked, ServerFacts, Session } from "../../../src/shared/people.ts";

interface Held {
  accessToken: string;
  /** When the access token expires, in epoch milliseconds of this browser's clock. */
  expiresAt: number;
}

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
const COOKIE_SESSION = { "x-capa-session": "cookie" };
const CSRF = { "x-capa-csrf": "1" };

let held: Held | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let refreshing: Promise<void> | null = null;
let restored: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

/** An error from the session routes, with the server's message. */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/**
 * When a just-received access token expires by this browser's clock: its lifetime (`exp - iat`)
 * from now, so a browser whose clock is off from the server's still refreshes in time.
 */
function expiryOf(jwt: string): number {
  const part = jwt.split(".")[1] ?? "";
  const json = JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: number; iat?: number };
  const lifetimeS = (json.exp ?? 0) - (json.iat ?? Math.floor(Date.now() / 1000));
  return Date.now() + lifetimeS * 1000;
}

function notify(): void {
  for (const fn of listeners) fn();
}

function hold(t: Session): void {
  held = { accessToken: t.accessToken, expiresAt: expiryOf(t.accessToken) };
  if (timer) clearTimeout(timer);
  // Timers cap at about 24.8 days; access tokens live hours, so the delay always fits.
  const delay = Math.max(0, held.expiresAt - Date.now() - REFRESH_MARGIN_MS);
  timer = setTimeout(() => void refreshNow().catch(() => undefined), delay);
  notify();
}

function forget(): void {
  held = null;
  // The next protected screen asks the cookie again (it is gone after a sign-out).
  restored = null;
  if (timer) clearTimeout(timer);
  timer = null;
  notify();
}

async function post(path: string, headers: Record<string, string>, body: LoginBody | LogoutBody | RefreshBody): Promise<Session> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Partial<Session> & { error?: string };
  if (!res.ok) throw new SessionError(res.status, json.error ?? `The server answered ${res.status}.`);
  return json as Session;
}

/** Whether the server sends mail (GET /v2/server, before sign-in): then "Forgot password?" is offered. */
export async function serverSendsMail(): Promise<boolean> {
  const res = await fetch("/v2/server", { headers: { accept: "application/json" } });
  return res.ok && ((await res.json()) as ServerFacts).mail === true;
}

/**
 * Asks for a password reset link by mail (POST /v2/user/password-reset); the answer's sentence
 * is the same whether or not the address has an account.
 */
export async function askPasswordReset(email: string): Promise<string> {
  const res = await fetch("/v2/user/password-reset", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email } satisfies PasswordResetBody),
  });
  const json = (await res.json().catch(() => ({}))) as Partial<ResetAsked> & { error?: string };
  if (!res.ok) throw new SessionError(res.status, json.error ?? `The server answered ${res.status}.`);
  return json.message ?? "";
}

/** Sets a new password with a mailed link's token (POST /v2/user/password-reset/confirm); every session of the account ends. */
export async function confirmPasswordReset(token: string, password: string): Promise<void> {
  const res = await fetch("/v2/user/password-reset/confirm", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password } satisfies PasswordResetConfirmBody),
  });
  if (res.ok) return;
  const json = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
  throw new SessionError(res.status, json.error ?? `The server answered ${res.status}.`, json.code ?? null);
}

/** Signs in with e-mail and password (POST /v2/user/login, cookie session). */
export async function signIn(email: string, password: string): Promise<void> {
  hold(await post("/v2/user/login", COOKIE_SESSION, { email, password }));
}

/** Signs out: the server revokes the refresh token and clears the cookie (POST /v2/user/logout). */
export function signOut(): void {
  forget();
  void fetch("/v2/user/logout", { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json", ...CSRF }, body: "{}" }).catch(
    () => undefined,
  );
}

/**
 * Signs out every session of the person, on every device (POST /v2/user/logout { all: true }),
 * proved by the cookie and, while held, the access token. A refusal that says the session is over
 * already (401) signs this browser out too; any other is thrown, and the person stays signed in.
 */
export async function signOutEverywhere(): Promise<void> {
  const bearer: Record<string, string> = held ? { authorization: `Bearer ${held.accessToken}` } : {};
  try {
    await post("/v2/user/logout", { ...CSRF, ...bearer }, { all: true });
  } catch (e) {
    if (!(e instanceof SessionError && e.status === 401)) throw e;
  }
  forget();
}

/** A new access token from the cookie's refresh token (POST /v2/user/refresh-token); one at a time. */
export function refreshNow(): Promise<void> {
  refreshing ??= post("/v2/user/refresh-token", CSRF, {})
    .then(hold, (e) => {
      if (held) forget();
      throw e;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * Whether the server set the session cookie's readable hint (`capa_session=1`, no secret): without
 * it there is no session to resume, and asking would only log a failed request.
 */
function hasSessionHint(): boolean {
  return document.cookie.split(";").some((c) => c.trim() === "capa_session=1");
}

/** On the first visit of a page load: whether the cookie still holds a session (then it is resumed). */
export function restoreSession(): Promise<boolean> {
  restored ??= held
    ? Promise.resolve(true)
    : !hasSessionHint()
      ? Promise.resolve(false)
      : refreshNow().then(
          () => true,
          () => false,
        );
  return restored;
}

/** The signed-in person's user id (the access token's `sub`), or null when signed out. */
export function signedInUserId(): string | null {
  if (!held) return null;
  try {
    const part = held.accessToken.split(".")[1] ?? "";
    const json = JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/"))) as { sub?: unknown };
    return typeof json.sub === "string" ? json.sub : null;
  } catch {
    return null;
  }
}

/** Whether a person is signed in. */
export function isSignedIn(): boolean {
  return held !== null;
}

/** Calls `fn` whenever the person signs in or out; returns the unsubscribe function. */
export function onSessionChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The headers that authenticate a request, refreshing first when the token is about to expire. */
export async function authHeaders(): Promise<Record<string, string>> {
  if (held && held.expiresAt - Date.now() < REFRESH_MARGIN_MS) await refreshNow();
  return held ? { authorization: `Bearer ${held.accessToken}` } : {};
}

/** Holds the access token of a cookie session another route opened (accepting an invitation as a new account). */
export function adoptSession(answer: { accessToken: string }): void {
  hold(answer);
}
