// The admin app's browser session (decisions.md section 11): the refresh token in an httpOnly,
// SameSite=Strict cookie, the access token in the body only, and an anti-CSRF header on every
// request the cookie authenticates.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
beforeAll(async () => {
  h = startApp();
  await withOwner(h);
});
afterAll(() => h.close());

const creds = { email: "owner@example.com", password: "owner-password-1" };
const cookieOf = (r: { headers: Headers }) => /^capa_refresh=([^;]*)/.exec(r.headers.get("set-cookie") ?? "")?.[1] ?? null;
const signIn = () => h.json("POST", "/v2/user/login", { body: creds, headers: { "x-capa-session": "cookie" } });
const refresh = (cookie: string, csrf = true) =>
  h.json("POST", "/v2/user/refresh-token", { headers: { cookie: `capa_refresh=${cookie}`, ...(csrf ? { "x-capa-csrf": "1" } : {}) } });

describe("the cookie session", () => {
  test("sign-in puts the refresh token in an httpOnly, SameSite=Strict cookie and only the access token in the body", async () => {
    const r = await signIn();
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["accessToken"]);
    const cookie = cookieOf(r)!;
    expect(cookie).toMatch(/^rt_[A-Za-z0-9_-]+$/);
    // Beside it, a hint with no secret that scripts may read: the admin app skips the refresh when it is absent.
    expect(r.headers.getSetCookie()).toEqual([
      `capa_refresh=${cookie}; Path=/v2/user; Max-Age=2592000; HttpOnly; SameSite=Strict`,
      "capa_session=1; Path=/admin; Max-Age=2592000; SameSite=Strict",
    ]);
    expect(r.headers.get("cache-control")).toBe("no-store");
    // Without the header, sign-in answers both tokens in the body and sets no cookie, as before.
    const plain = await h.json("POST", "/v2/user/login", { body: creds });
    expect([Object.keys(plain.body), plain.headers.get("set-cookie")]).toEqual([["accessToken", "refreshToken"], null]);
  });

  test("refresh by the cookie needs x-capa-csrf: 1, rotates the cookie, and the old one is spent", async () => {
    const first = cookieOf(await signIn())!;
    const refused = await refresh(first, false);
    expect([refused.status, refused.body]).toEqual([
      403,
      { error: "A request authenticated by the session cookie must carry the x-capa-csrf: 1 header.", code: "csrf_header_missing" },
    ]);
    const r = await refresh(first);
    expect([r.status, Object.keys(r.body)]).toEqual([200, ["accessToken"]]);
    const second = cookieOf(r)!;
    expect(second).not.toBe(first);
    const me = await h.json("GET", "/v2/projects", { token: r.body.accessToken });
    expect(me.status).toBe(200);
    const again = await refresh(first);
    expect([again.status, again.body]).toEqual([401, { error: "The refresh token is not valid.", code: "invalid_token" }]);
    expect((await refresh(second)).status).toBe(200);
  });

  test("sign-out by the cookie spends the token and clears the cookie", async () => {
    const cookie = cookieOf(await signIn())!;
    const noCsrf = await h.json("POST", "/v2/user/logout", { headers: { cookie: `capa_refresh=${cookie}` } });
    expect(noCsrf.status).toBe(403);
    const out = await h.json("POST", "/v2/user/logout", { headers: { cookie: `capa_refresh=${cookie}`, "x-capa-csrf": "1" } });
    expect([out.status, out.headers.getSetCookie()]).toEqual([
      204,
      ["capa_refresh=; Path=/v2/user; Max-Age=0; HttpOnly; SameSite=Strict", "capa_session=; Path=/admin; Max-Age=0; SameSite=Strict"],
    ]);
    expect((await refresh(cookie)).status).toBe(401);
  });

  test("behind an https proxy the cookie is Secure", async () => {
    const r = await h.json("POST", "/v2/user/login", { body: creds, headers: { "x-capa-session": "cookie", "x-forwarded-proto": "https" } });
    expect(r.headers.getSetCookie().map((c) => c.slice(c.indexOf("; Max-Age")))).toEqual([
      "; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure",
      "; Max-Age=2592000; SameSite=Strict; Secure",
    ]);
  });
});
