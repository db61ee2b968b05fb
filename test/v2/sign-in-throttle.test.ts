// Hardening item 11 (sign-in): POST /v2/user/login is throttled per account and per client IP.
// After 5 failures an account is locked for 30 s, then 1 min, 2 min, ... up to 15 min; attempts
// while locked answer 429 sign_in_throttled with Retry-After and are not checked (a right
// password too); a success resets the account; an unknown e-mail is answered exactly like a
// known one. Time moves only through the harness's clock.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";

/** Each attempt costs one argon2 verification, a real one; some tests make 20 or more on a shared CPU. */
const SLOW = 60_000;

const INVALID = { error: "Invalid credentials" };
const THROTTLED = {
  error: "Too many sign-in attempts; wait before trying again.",
  code: "sign_in_throttled",
};

let h: Harness;
beforeEach(() => {
  h = startApp();
  createUser(h.capa.services, { email: "ada@example.com", password: "right-password-1" });
});
afterEach(() => h.close());

const signIn = async (email: string, password: string) => {
  const r = await h.json("POST", "/v2/user/login", { body: { email, password } });
  return { status: r.status, body: r.body, retryAfter: r.headers.get("retry-after") };
};
const wrong = (email = "ada@example.com") => signIn(email, "wrong-password-1");
const right = () => signIn("ada@example.com", "right-password-1");
const throttled = (seconds: number) => ({ status: 429, body: THROTTLED, retryAfter: String(seconds) });
const refused = { status: 401, body: INVALID, retryAfter: null };

describe("per account", () => {
  test(
    "5 failures, then 429 with a Retry-After that grows with every failure after a lock",
    async () => {
      for (let i = 0; i < 5; i++) expect(await wrong()).toEqual(refused);
      // Locked for 30 s: even the right password is not checked.
      expect(await right()).toEqual(throttled(30));
      h.clock.advance(29_000);
      expect(await wrong()).toEqual(throttled(1));
      h.clock.advance(1_000);
      expect(await wrong()).toEqual(refused);
      expect(await wrong()).toEqual(throttled(60));
      h.clock.advance(60_000);
      expect(await wrong()).toEqual(refused);
      expect(await wrong()).toEqual(throttled(120));
      h.clock.advance(120_000);
      expect(await wrong()).toEqual(refused);
      expect(await wrong()).toEqual(throttled(240));
    },
    SLOW,
  );

  test(
    "the lock stops growing at 15 minutes",
    async () => {
      for (let i = 0; i < 5; i++) await wrong();
      let last = "";
      for (let i = 0; i < 8; i++) {
        const t = await wrong();
        expect(t.status).toBe(429);
        last = t.retryAfter!;
        h.clock.advance(Number(last) * 1000);
        expect(await wrong()).toEqual(refused);
      }
      expect(last).toBe("900");
      expect(await wrong()).toEqual(throttled(900));
    },
    SLOW,
  );

  test(
    "a success resets the account's counter",
    async () => {
      for (let i = 0; i < 5; i++) await wrong();
      h.clock.advance(30_000);
      const ok = await right();
      expect(ok.status).toBe(200);
      expect(typeof ok.body.accessToken).toBe("string");
      for (let i = 0; i < 5; i++) expect(await wrong()).toEqual(refused);
      expect(await wrong()).toEqual(throttled(30));
    },
    SLOW,
  );

  test(
    "failures are forgotten after 15 minutes without one",
    async () => {
      for (let i = 0; i < 4; i++) await wrong();
      h.clock.advance(15 * 60_000);
      for (let i = 0; i < 5; i++) expect(await wrong()).toEqual(refused);
      expect(await wrong()).toEqual(throttled(30));
    },
    SLOW,
  );

  test(
    "an unknown e-mail gets the very same answers as a known one (no account probe)",
    async () => {
      const known: unknown[] = [];
      const unknown: unknown[] = [];
      for (let i = 0; i < 7; i++) {
        known.push(await wrong("ada@example.com"));
        unknown.push(await wrong("nobody@example.com"));
      }
      expect(unknown).toEqual(known);
      expect(known.slice(5)).toEqual([throttled(30), throttled(30)]);
    },
    SLOW,
  );

  test(
    "the e-mail is matched as sign-in matches it: case and spaces do not make a new account",
    async () => {
      for (let i = 0; i < 5; i++) await wrong(i % 2 ? " ADA@Example.com " : "ada@example.com");
      expect(await wrong("Ada@EXAMPLE.com")).toEqual(throttled(30));
    },
    SLOW,
  );

  test(
    "an absurdly long e-mail (100,000 characters) is throttled like any other",
    async () => {
      const long = `${"x".repeat(100_000)}@example.com`;
      for (let i = 0; i < 5; i++) expect(await wrong(long)).toEqual(refused);
      expect(await wrong(long)).toEqual(throttled(30));
    },
    SLOW,
  );

  test(
    "attempts sent in parallel cannot slip past the threshold",
    async () => {
      const all = await Promise.all(Array.from({ length: 12 }, () => wrong()));
      expect(all.filter((r) => r.status === 401)).toHaveLength(5);
      expect(all.filter((r) => r.status === 429)).toHaveLength(7);
    },
    SLOW,
  );
});

describe("per client IP", () => {
  test(
    "20 failures over 20 accounts lock the IP; a success elsewhere does not reset it",
    async () => {
      for (let i = 0; i < 19; i++) expect(await wrong(`guess${i}@example.com`)).toEqual(refused);
      // A success from the same IP is not counted against it, and does not clear it.
      expect((await right()).status).toBe(200);
      expect(await wrong("guess19@example.com")).toEqual(refused);
      expect(await wrong("fresh@example.com")).toEqual(throttled(30));
      expect(await right()).toEqual(throttled(30));
      h.clock.advance(30_000);
      expect((await right()).status).toBe(200);
    },
    SLOW,
  );

  test(
    "the IP is the socket's address: failures over a socket lock that address, not callers in process",
    async () => {
      h.capa.app.listen({ port: 0, hostname: "127.0.0.1" });
      const url = `http://127.0.0.1:${h.capa.app.server!.port}/v2/user/login`;
      const overSocket = async (email: string) => {
        const r = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password: "wrong-password-1" }),
        });
        return { status: r.status, body: await r.json(), retryAfter: r.headers.get("retry-after") };
      };
      try {
        for (let i = 0; i < 20; i++) expect(await overSocket(`guess${i}@example.com`)).toEqual(refused);
        expect(await overSocket("fresh@example.com")).toEqual(throttled(30));
        // In process the address is "local": another client, not locked.
        expect(await wrong("fresh@example.com")).toEqual(refused);
      } finally {
        await h.capa.app.stop(true);
      }
    },
    SLOW,
  );
});

describe("the error page", () => {
  test(
    "GET /docs/errors/sign_in_throttled describes the code",
    async () => {
      const r = await h.req("GET", "/docs/errors/sign_in_throttled");
      expect(r.status).toBe(200);
      const html = await r.text();
      expect(html).toContain("<dt>Status</dt><dd>429</dd>");
      expect(html).toContain("<dt>Type</dt><dd>rate_limited</dd>");
    },
    SLOW,
  );
});
