// The browser session: the one module that knows how the app proves who it is. Today it holds
// the access and refresh tokens in memory only (never localStorage or sessionStorage), so a
// reload signs the person out. When the server offers the httpOnly cookie session of
// decisions.md 11, only this file changes: `authHeaders` sends the CSRF header instead of the
// bearer token, and `signIn`/`signOut`/`refreshNow` call the cookie routes.

/** What the server answers to login and refresh-token. */
interface Tokens {
  accessToken: string;
  refreshToken: string;
}

interface Held extends Tokens {
  /** When the access token expires, in epoch milliseconds of this browser's clock. */
  expiresAt: number;
}

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;

let held: Held | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let refreshing: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** An error from the session routes, with the server's body. */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    message: string,
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

function hold(t: Tokens): void {
  held = { ...t, expiresAt: expiryOf(t.accessToken) };
  if (timer) clearTimeout(timer);
  // Timers cap at about 24.8 days; access tokens live hours, so the delay always fits.
  const delay = Math.max(0, held.expiresAt - Date.now() - REFRESH_MARGIN_MS);
  timer = setTimeout(() => void refreshNow().catch(() => undefined), delay);
  notify();
}

async function post(path: string, body: unknown): Promise<Tokens> {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => ({}))) as Partial<Tokens> & { error?: string };
  if (!res.ok) throw new SessionError(res.status, json.error ?? `The server answered ${res.status}.`);
  return json as Tokens;
}

/** Signs in with e-mail and password (POST /v2/user/login). */
export async function signIn(email: string, password: string): Promise<void> {
  hold(await post("/v2/user/login", { email, password }));
}

/** Forgets the tokens; the refresh token simply expires on the server. */
export function signOut(): void {
  held = null;
  if (timer) clearTimeout(timer);
  timer = null;
  notify();
}

/** Exchanges the refresh token for new tokens now (POST /v2/user/refresh-token); one at a time. */
export function refreshNow(): Promise<void> {
  if (!held) return Promise.reject(new SessionError(401, "Not signed in."));
  refreshing ??= post("/v2/user/refresh-token", { refreshToken: held.refreshToken })
    .then(hold, (e) => {
      signOut();
      throw e;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
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

/** Holds the tokens another route answered with a session (accepting an invitation as a new account). */
export function adoptSession(tokens: { accessToken: string; refreshToken: string }): void {
  hold(tokens);
}
