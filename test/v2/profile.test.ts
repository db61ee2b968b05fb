// A person's own account under /v2/user (docs/security.md, "Your own account"): the profile
// (`GET`/`PATCH /v2/user/me`) and the password (`POST /v2/user/password`), which ends every
// other session and answers a new one for the caller.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

const EMAIL = "owner@example.com";
const OLD = "owner-password-1";
const NEW = "a-new-password-2";

let h: Harness;
let token: string;
let refreshToken: string;
let userId: string;
beforeEach(async () => {
  h = startApp();
  const o = await withOwner(h);
  ({ token, refreshToken } = o);
  userId = o.user.id;
});
afterEach(() => h.close());

const me = (t = token) => h.json("GET", "/v2/user/me", { token: t });
const login = (password: string) => h.json("POST", "/v2/user/login", { body: { email: EMAIL, password } });
const change = (body: unknown, headers?: Record<string, string>) => h.json("POST", "/v2/user/password", { token, body, headers });

describe("GET and PATCH /v2/user/me", () => {
  test("answers the person's id, e-mail and name", async () => {
    const r = await me();
    expect([r.status, r.body]).toEqual([200, { id: userId, email: EMAIL, name: null }]);
  });

  test("without a token: exactly 401 Authentication token required; with a key: 401 Invalid API key", async () => {
    const none = await h.json("GET", "/v2/user/me");
    expect([none.status, none.body]).toEqual([401, { error: "Authentication token required" }]);
    const key = await h.json("PATCH", "/v2/user/me", { body: { name: "X" }, headers: { "x-api-key": "pk_nope" } });
    expect([key.status, key.body]).toEqual([401, { error: "Invalid API key" }]);
  });

  test("sets the name (edge spaces trimmed) and clears it with null", async () => {
    const set = await h.json("PATCH", "/v2/user/me", { token, body: { name: "  Ada Lovelace " } });
    expect([set.status, set.body]).toEqual([200, { id: userId, email: EMAIL, name: "Ada Lovelace" }]);
    expect((await me()).body.name).toBe("Ada Lovelace");
    // Members lists show the new name too.
    const members = await h.json("GET", `/v2/projects/${(await h.json("GET", "/v2/projects", { token })).body.data[0].id}/members`, { token });
    expect(members.body.data[0].name).toBe("Ada Lovelace");
    const cleared = await h.json("PATCH", "/v2/user/me", { token, body: { name: null } });
    expect([cleared.status, cleared.body]).toEqual([200, { id: userId, email: EMAIL, name: null }]);
  });

  const refused: [string, unknown, string, string][] = [
    ["no name", {}, "name", "name is required: a text of 1 to 100 characters, or null to clear it"],
    ["an empty name", { name: "   " }, "name", "name must be a text of 1 to 100 characters, or null to clear it"],
    ["a name of 101 characters", { name: "x".repeat(101) }, "name", "name must be a text of 1 to 100 characters, or null to clear it"],
    ["a name that is not text", { name: 42 }, "name", "name must be a text of 1 to 100 characters, or null to clear it"],
    ["the e-mail", { name: "Ada", email: "ada@example.com" }, "email", "email cannot be set here; send { name }"],
  ];
  for (const [what, body, field, error] of refused) {
    test(`${what}: 400 invalid_body naming ${field}, nothing changed`, async () => {
      await h.json("PATCH", "/v2/user/me", { token, body: { name: "Before" } });
      const r = await h.json("PATCH", "/v2/user/me", { token, body });
      expect([r.status, r.body]).toEqual([400, { error, code: "invalid_body", field }]);
      expect((await me()).body).toEqual({ id: userId, email: EMAIL, name: "Before" });
    });
  }
});

describe("POST /v2/user/password", () => {
  test("changes the password; every earlier session ends; the caller gets a new one", async () => {
    // A second device, signed in before the change.
    const other = (await login(OLD)).body as { accessToken: string; refreshToken: string };
    const r = await change({ currentPassword: OLD, newPassword: NEW });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["accessToken", "refreshToken"]);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("set-cookie")).toBeNull();

    // The new session works; every access token from before, this device's included, is over.
    expect((await me(r.body.accessToken)).status).toBe(200);
    for (const t of [token, other.accessToken]) {
      const old = await me(t);
      expect([old.status, old.body.code]).toEqual([401, "invalid_token"]);
    }
    // Refresh tokens from before are spent; the new one works.
    for (const rt of [refreshToken, other.refreshToken]) {
      const spent = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: rt } });
      expect([spent.status, spent.body.code]).toEqual([401, "invalid_token"]);
    }
    expect((await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: r.body.refreshToken } })).status).toBe(200);
    // Sign-in takes the new password only.
    expect((await login(NEW)).status).toBe(200);
    const oldLogin = await login(OLD);
    expect([oldLogin.status, oldLogin.body]).toEqual([401, { error: "Invalid credentials" }]);
  });

  test("with x-capa-session: cookie the new refresh token goes into the session cookie", async () => {
    const r = await change({ currentPassword: OLD, newPassword: NEW }, { "x-capa-session": "cookie" });
    expect([r.status, Object.keys(r.body)]).toEqual([200, ["accessToken"]]);
    // The refresh cookie, then the admin app's readable hint (no secret), as sign-in sets them.
    const [refreshCookie, hint] = r.headers.getSetCookie();
    const cookie = /^capa_refresh=(rt_[A-Za-z0-9_-]+); Path=\/v2\/user; Max-Age=2592000; HttpOnly; SameSite=Strict$/.exec(refreshCookie ?? "");
    expect(cookie).not.toBeNull();
    expect(hint).toBe("capa_session=1; Path=/admin; Max-Age=2592000; SameSite=Strict");
    const refreshed = await h.json("POST", "/v2/user/refresh-token", { headers: { cookie: `capa_refresh=${cookie![1]}`, "x-capa-csrf": "1" } });
    expect(refreshed.status).toBe(200);
  });

  test("a wrong current password: exactly 400 wrong_password naming currentPassword; nothing changes", async () => {
    const r = await change({ currentPassword: "not-my-password", newPassword: NEW });
    expect([r.status, r.body]).toEqual([400, { error: "The current password is not right.", code: "wrong_password", field: "currentPassword" }]);
    expect((await me()).status).toBe(200);
    expect((await login(OLD)).status).toBe(200);
    expect((await login(NEW)).status).toBe(401);
  });

  const refused: [string, unknown, string, string][] = [
    ["no current password", { newPassword: NEW }, "currentPassword", "currentPassword is required"],
    ["an empty current password", { currentPassword: "", newPassword: NEW }, "currentPassword", "currentPassword is required"],
    ["no new password", { currentPassword: OLD }, "newPassword", "newPassword must be 8 to 200 characters"],
    ["a new password of 7 characters", { currentPassword: OLD, newPassword: "1234567" }, "newPassword", "newPassword must be 8 to 200 characters"],
    ["a new password of 201 characters", { currentPassword: OLD, newPassword: "x".repeat(201) }, "newPassword", "newPassword must be 8 to 200 characters"],
    [
      "another key",
      { currentPassword: OLD, newPassword: NEW, email: "x@example.com" },
      "email",
      "email cannot be set here; send { currentPassword, newPassword }",
    ],
  ];
  for (const [what, body, field, error] of refused) {
    test(`${what}: 400 invalid_body naming ${field}; the password stays`, async () => {
      const r = await change(body);
      expect([r.status, r.body]).toEqual([400, { error, code: "invalid_body", field }]);
      expect((await me()).status).toBe(200);
      expect((await login(OLD)).status).toBe(200);
    });
  }

  test("wrong guesses fall under the sign-in throttle: the sixth is 429 sign_in_throttled", async () => {
    for (let i = 0; i < 5; i++) expect((await change({ currentPassword: `guess-number-${i}`, newPassword: NEW })).status).toBe(400);
    const r = await change({ currentPassword: OLD, newPassword: NEW });
    expect([r.status, r.body, r.headers.get("retry-after")]).toEqual([
      429,
      { error: "Too many sign-in attempts; wait before trying again.", code: "sign_in_throttled" },
      "30",
    ]);
    // Not checked while locked: the password did not change.
    h.clock.advance(30_000);
    expect((await login(OLD)).status).toBe(200);
  });
});
