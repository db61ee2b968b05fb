// Signing out ends the session at once (issue 24 item 3; docs/security.md, "Signing out"): the
// access token of a session signed out is refused with 401 invalid_token though it has hours to
// live, whichever credential the sign-out carried; `{ all: true }` ends every session of the
// person; a revocation outlives a restart and is forgotten once the tokens it covers expired.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { getUser } from "../../src/domain/users/service.ts";

const HOUR = 3_600_000;
const REFUSED = { error: "Invalid or expired token", code: "invalid_token" };
const CREDS = { email: "owner@example.com", password: "owner-password-1" };

let h: Harness;
beforeEach(() => {
  h = startApp();
});
afterEach(() => h.close());

/** Signs in again as the owner: another session (another device). */
async function signIn(headers: Record<string, string> = {}) {
  const r = await h.json("POST", "/v2/user/login", { body: CREDS, headers });
  expect(r.status).toBe(200);
  const cookie = /^capa_refresh=([^;]*)/.exec(r.headers.get("set-cookie") ?? "")?.[1] ?? null;
  return { token: r.body.accessToken as string, refreshToken: (r.body.refreshToken ?? null) as string | null, cookie };
}

/** What GET /v2/projects answers a token: [status, body]. */
async function reads(token: string) {
  const r = await h.json("GET", "/v2/projects", { token });
  return [r.status, r.status === 200 ? "reads" : r.body];
}

async function refreshes(refreshToken: string) {
  return (await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken } })).status;
}

describe("POST /v2/user/logout ends that session at once", () => {
  test("with the refresh token in the body: the session's access token is refused, another session still reads", async () => {
    const { token, refreshToken } = await withOwner(h);
    const other = await signIn();
    expect(await reads(token)).toEqual([200, "reads"]);
    const out = await h.json("POST", "/v2/user/logout", { body: { refreshToken } });
    expect([out.status, out.body]).toEqual([204, null]);
    // The token has 24 hours to live, and is refused at once.
    expect(await reads(token)).toEqual([401, REFUSED]);
    expect(await reads(other.token)).toEqual([200, "reads"]);
    expect(await refreshes(refreshToken)).toBe(401);
    expect(await refreshes(other.refreshToken!)).toBe(200);
  });

  test("with the bearer token only: that token and the session's refresh token are over", async () => {
    const { token, refreshToken } = await withOwner(h);
    const out = await h.json("POST", "/v2/user/logout", { token, body: {} });
    expect(out.status).toBe(204);
    expect(await reads(token)).toEqual([401, REFUSED]);
    expect(await refreshes(refreshToken)).toBe(401);
    // Signing out again with the spent token is not an error.
    expect((await h.json("POST", "/v2/user/logout", { token, body: {} })).status).toBe(204);
  });

  test("every access token of the session is refused: the first and each one a refresh gave", async () => {
    const { token, refreshToken } = await withOwner(h);
    const r1 = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken } });
    const r2 = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: r1.body.refreshToken } });
    await h.json("POST", "/v2/user/logout", { body: { refreshToken: r2.body.refreshToken } });
    for (const t of [token, r1.body.accessToken, r2.body.accessToken]) expect(await reads(t)).toEqual([401, REFUSED]);
    expect(await refreshes(r2.body.refreshToken)).toBe(401);
  });

  test("the admin app's cookie session: sign-out by the cookie ends its access token too", async () => {
    await withOwner(h);
    const { token, cookie } = await signIn({ "x-capa-session": "cookie" });
    const out = await h.json("POST", "/v2/user/logout", { headers: { cookie: `capa_refresh=${cookie}`, "x-capa-csrf": "1" } });
    expect(out.status).toBe(204);
    expect(await reads(token)).toEqual([401, REFUSED]);
  });

  test("a session that signs out is refused on every /v2 route a token opens: profile, password change", async () => {
    const { token, refreshToken } = await withOwner(h);
    await h.json("POST", "/v2/user/logout", { body: { refreshToken } });
    const me = await h.json("GET", "/v2/user/me", { token });
    const pw = await h.json("POST", "/v2/user/password", { token, body: { currentPassword: CREDS.password, newPassword: "another-password-1" } });
    expect([me.status, me.body, pw.status, pw.body]).toEqual([401, REFUSED, 401, REFUSED]);
    expect((await h.json("POST", "/v2/user/login", { body: CREDS })).status).toBe(200);
  });

  test("a token that carries no session id (as an older version issued) is refused", async () => {
    const { user } = await withOwner(h);
    const now = Math.floor(h.clock.now() / 1000);
    const old = await h.capa.services.tokens.sign({ sub: user.id, sv: 0, iat: now, exp: now + 24 * 3600 });
    expect(await reads(old)).toEqual([401, REFUSED]);
  });

  test("the revocation outlives a restart of the server", async () => {
    const { token, refreshToken } = await withOwner(h);
    const other = await signIn();
    await h.json("POST", "/v2/user/logout", { body: { refreshToken } });
    h.capa.close();
    const again = startApp({}, h.dir);
    try {
      expect((await again.json("GET", "/v2/projects", { token })).body).toEqual(REFUSED);
      expect((await again.json("GET", "/v2/projects", { token: other.token })).status).toBe(200);
    } finally {
      again.capa.close();
    }
    h = startApp({}, h.dir);
  });

  test("the list forgets a session once every token it could hold has expired (the sessions job)", async () => {
    const { token, refreshToken } = await withOwner(h);
    await h.json("POST", "/v2/user/logout", { body: { refreshToken } });
    const rows = () => h.capa.services.control.sqlite.query("SELECT count(*) AS n FROM revoked_sessions").get() as { n: number };
    expect([h.capa.services.revoked.size, rows().n]).toEqual([1, 1]);
    h.clock.advance(24 * HOUR - 1000);
    await h.capa.jobs.runNow("sessions");
    expect([h.capa.services.revoked.size, rows().n]).toEqual([1, 1]);
    expect(await reads(token)).toEqual([401, REFUSED]);
    h.clock.advance(1000);
    await h.capa.jobs.runNow("sessions");
    expect([h.capa.services.revoked.size, rows().n]).toEqual([0, 0]);
    // The token itself has expired by now.
    expect(await reads(token)).toEqual([401, REFUSED]);
  });
});

describe("POST /v2/user/logout { all: true } ends every session of the person", () => {
  test("by the bearer token: every other device, API and cookie sessions alike, with their refresh tokens", async () => {
    const { token, refreshToken } = await withOwner(h);
    const api = await signIn();
    const browser = await signIn({ "x-capa-session": "cookie" });
    const out = await h.json("POST", "/v2/user/logout", { token, body: { all: true } });
    expect([out.status, out.body]).toEqual([204, null]);
    for (const t of [token, api.token, browser.token]) expect(await reads(t)).toEqual([401, REFUSED]);
    for (const rt of [refreshToken, api.refreshToken!, browser.cookie!]) expect(await refreshes(rt)).toBe(401);
    // The person signs in again as before.
    expect(await reads((await signIn()).token)).toEqual([200, "reads"]);
  });

  test("by the session cookie (with the anti-CSRF header), as the admin app does", async () => {
    const { token } = await withOwner(h);
    const browser = await signIn({ "x-capa-session": "cookie" });
    const noCsrf = await h.json("POST", "/v2/user/logout", { headers: { cookie: `capa_refresh=${browser.cookie}` }, body: { all: true } });
    expect([noCsrf.status, noCsrf.body.code, await reads(token)]).toEqual([403, "csrf_header_missing", [200, "reads"]]);
    const out = await h.json("POST", "/v2/user/logout", { headers: { cookie: `capa_refresh=${browser.cookie}`, "x-capa-csrf": "1" }, body: { all: true } });
    expect([out.status, out.headers.getSetCookie()]).toEqual([
      204,
      ["capa_refresh=; Path=/v2/user; Max-Age=0; HttpOnly; SameSite=Strict", "capa_session=; Path=/admin; Max-Age=0; SameSite=Strict"],
    ]);
    expect(await reads(token)).toEqual([401, REFUSED]);
    expect(await reads(browser.token)).toEqual([401, REFUSED]);
  });

  test("by the refresh token in the body", async () => {
    const { token, refreshToken } = await withOwner(h);
    const other = await signIn();
    expect((await h.json("POST", "/v2/user/logout", { body: { refreshToken, all: true } })).status).toBe(204);
    expect([await reads(token), await reads(other.token)]).toEqual([
      [401, REFUSED],
      [401, REFUSED],
    ]);
  });

  test("it needs a live credential: none is 401 Authentication token required, a spent one 401 invalid_token; nothing ends", async () => {
    const { token, refreshToken } = await withOwner(h);
    const other = await signIn();
    const none = await h.json("POST", "/v2/user/logout", { body: { all: true } });
    expect([none.status, none.body]).toEqual([401, { error: "Authentication token required" }]);
    await h.json("POST", "/v2/user/logout", { body: { refreshToken } });
    const spent = await h.json("POST", "/v2/user/logout", { body: { refreshToken, all: true } });
    expect([spent.status, spent.body]).toEqual([401, REFUSED]);
    const spentBearer = await h.json("POST", "/v2/user/logout", { token, body: { all: true } });
    expect([spentBearer.status, spentBearer.body]).toEqual([401, REFUSED]);
    expect(await reads(other.token)).toEqual([200, "reads"]);
  });

  test("all that is not a boolean: 400 invalid_body naming all, and the session stays", async () => {
    const { token } = await withOwner(h);
    const r = await h.json("POST", "/v2/user/logout", { token, body: { all: "yes" } });
    expect([r.status, r.body]).toEqual([400, { error: "all must be true (sign out everywhere) or false", code: "invalid_body", field: "all" }]);
    expect(await reads(token)).toEqual([200, "reads"]);
  });

  test("a person past the list's bound is signed out everywhere instead, which empties their part of the list", async () => {
    // Imported here, so that the file's other tests run against a build without these modules.
    const { startSession } = await import("../../src/domain/users/sessions.ts");
    const { MAX_REVOKED_PER_PERSON, revokeSession } = await import("../../src/domain/users/revocation.ts");
    const { user, token } = await withOwner(h);
    const s = h.capa.services;
    for (let i = 0; i < MAX_REVOKED_PER_PERSON; i++) revokeSession(s, `ses_bound${i}`, user.id);
    expect(s.revoked.size).toBe(MAX_REVOKED_PER_PERSON);
    expect(await reads(token)).toEqual([200, "reads"]);
    const next = await startSession(s, getUser(s, user.id)!);
    await h.json("POST", "/v2/user/logout", { token: next.accessToken, body: {} });
    expect([await reads(token), await reads(next.accessToken), s.revoked.size]).toEqual([[401, REFUSED], [401, REFUSED], 0]);
  });
});
