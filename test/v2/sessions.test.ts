// Sessions under /v2/user: sign-in, refresh tokens and token lifetimes (interface.md,
// Authentication: Management routes; decisions.md section 2).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";

const HOUR = 3600 * 1000;

describe("POST /v2/user/login", () => {
  let h: Harness;
  beforeAll(() => {
    h = startApp();
    createUser(h.capa.services, { email: "ada@example.com", password: "right-password-1" });
  });
  afterAll(() => h.close());

  test("answers an access token and a refresh token", async () => {
    const r = await h.json("POST", "/v2/user/login", { body: { email: "ada@example.com", password: "right-password-1" } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["accessToken", "refreshToken"]);
    expect(r.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(typeof r.body.refreshToken).toBe("string");
    expect(r.body.refreshToken.length).toBeGreaterThan(20);
  });

  test("the e-mail is matched without regard to case or edge spaces", async () => {
    const r = await h.json("POST", "/v2/user/login", { body: { email: "  ADA@Example.com ", password: "right-password-1" } });
    expect(r.status).toBe(200);
  });

  const refused: [string, unknown][] = [
    ["wrong password", { email: "ada@example.com", password: "wrong-password-1" }],
    ["unknown e-mail", { email: "nobody@example.com", password: "right-password-1" }],
    ["password missing", { email: "ada@example.com" }],
    ["password not text", { email: "ada@example.com", password: 12345678 }],
    ["empty body", {}],
  ];
  for (const [name, body] of refused) {
    test(`${name}: exactly 401 Invalid credentials`, async () => {
      const r = await h.json("POST", "/v2/user/login", { body });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "Invalid credentials" });
    });
  }

  test("an unknown e-mail costs about what a wrong password costs (no account probe by timing)", async () => {
    const time = async (email: string) => {
      let best = Infinity;
      for (let i = 0; i < 2; i++) {
        const t0 = performance.now();
        const r = await h.json("POST", "/v2/user/login", { body: { email, password: "wrong-password-1" } });
        best = Math.min(best, performance.now() - t0);
        expect(r.status).toBe(401);
      }
      return best;
    };
    const known = await time("ada@example.com");
    const unknown = await time("nobody@example.com");
    // Same argon2 parameters: within a wide factor, where a cheap dummy hash was 20 times faster.
    expect(unknown).toBeGreaterThan(known / 4);
  });

  test("an account with no password cannot sign in, whatever it sends", async () => {
    // Such accounts exist only on the server itself (members join by invitation with a password).
    createUser(h.capa.services, { email: "nopass@example.com", password: null });
    for (const password of ["", "anything-at-all", "capa-dummy-password"]) {
      const r = await h.json("POST", "/v2/user/login", { body: { email: "nopass@example.com", password } });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "Invalid credentials" });
    }
  });

  test("malformed JSON is a 400, not a sign-in", async () => {
    const r = await h.json("POST", "/v2/user/login", { raw: "{email:", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_json");
  });
});

describe("bearer tokens", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
  });
  afterAll(() => h.close());

  test("no Authorization header: exactly 401 Authentication token required", async () => {
    const r = await h.json("GET", "/v2/projects");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Authentication token required" });
  });

  test("an Authorization header that is not Bearer: 401 Authentication token required", async () => {
    const r = await h.json("GET", "/v2/projects", { headers: { authorization: `Basic ${btoa("a:b")}` } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Authentication token required" });
  });

  test("a key instead of a bearer token: exactly 401 Invalid API key (keys use the agent mount)", async () => {
    const r = await h.json("GET", "/v2/projects", { headers: { "x-api-key": "svc_live_abcdef" } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Invalid API key" });
  });

  test("a valid token reads", async () => {
    const r = await h.json("GET", "/v2/projects", { token });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
  });

  const tampered: [string, () => string][] = [
    [
      "payload changed",
      () => {
        const [a, b, c] = token.split(".");
        const claims = JSON.parse(atob(b!.replace(/-/g, "+").replace(/_/g, "/")));
        claims.exp += 3600 * 24 * 365;
        const b2 = btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        return [a, b2, c].join(".");
      },
    ],
    ["signature changed", () => token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA")],
    ["not a JWT", () => "hello"],
    [
      "alg none",
      () => {
        const [, b] = token.split(".");
        const head = btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "");
        return `${head}.${b}.`;
      },
    ],
  ];
  for (const [name, make] of tampered) {
    test(`a tampered token (${name}) is 401 invalid_token`, async () => {
      const r = await h.json("GET", "/v2/projects", { token: make() });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("invalid_token");
      expect(r.body.error).toBe("Invalid or expired token");
    });
  }
});

describe("token lifetimes and refresh", () => {
  let h: Harness;
  beforeEach(() => {
    h = startApp();
  });
  afterEach(() => h.close());

  test("an access token lasts 24 hours", async () => {
    const { token } = await withOwner(h);
    h.clock.advance(24 * HOUR - 1000);
    expect((await h.json("GET", "/v2/projects", { token })).status).toBe(200);
    h.clock.advance(1000);
    const r = await h.json("GET", "/v2/projects", { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("invalid_token");
  });

  test("a refresh token is single use and gives a token valid 12 hours", async () => {
    const { refreshToken } = await withOwner(h);
    const first = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken } });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["accessToken", "refreshToken"]);
    expect(first.body.refreshToken).not.toBe(refreshToken);

    const again = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken } });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("invalid_token");

    const fresh = first.body.accessToken as string;
    h.clock.advance(11 * HOUR);
    expect((await h.json("GET", "/v2/projects", { token: fresh })).status).toBe(200);
    h.clock.advance(HOUR + 1000);
    const late = await h.json("GET", "/v2/projects", { token: fresh });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe("invalid_token");

    // The refresh token that came with it still works once.
    const chained = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: first.body.refreshToken } });
    expect(chained.status).toBe(200);
    expect((await h.json("GET", "/v2/projects", { token: chained.body.accessToken })).status).toBe(200);
  });

  test("refresh with an unknown token is 401; with none it names the field", async () => {
    const unknown = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: "rt_nope" } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe("invalid_token");
    const none = await h.json("POST", "/v2/user/refresh-token", { body: {} });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: "invalid_body", field: "refreshToken" });
  });

  test("a refresh token expires after 30 days", async () => {
    const { refreshToken } = await withOwner(h);
    h.clock.advance(30 * 24 * HOUR);
    const r = await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken } });
    expect(r.status).toBe(401);
  });

  test("a token of a deleted account is refused", async () => {
    const { token, user } = await withOwner(h);
    h.capa.services.control.sqlite.run("DELETE FROM memberships WHERE user_id = ?", [user.id]);
    h.capa.services.control.sqlite.run("DELETE FROM users WHERE id = ?", [user.id]);
    const r = await h.json("GET", "/v2/projects", { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("invalid_token");
  });
});
