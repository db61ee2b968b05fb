// Password reset by mail (issue 24 item 4; decisions.md section 15): POST /v2/user/password-reset
// answers 202 whatever the address, and mails an account's address a one-use link valid one hour;
// POST /v2/user/password-reset/confirm sets the password and ends every session of the account. So
// the holder of a mailbox takes back an account that someone else created under their address.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { linkIn, MAIL_FROM, startSmtp, type SmtpServer } from "./smtp.ts";

const API = "http://127.0.0.1:3000";
const ASKED = {
  message: "If an account uses this address, a link to set a new password is on its way to it. The link works once, for one hour.",
};
const BAD_LINK = { error: "The password reset link is not valid: it was used, has expired, or was never sent.", code: "invalid_token" };
const REFUSED = { error: "Invalid or expired token", code: "invalid_token" };

let smtp: SmtpServer;
let h: Harness;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  smtp.clear();
  h = startApp({ mail: smtp.settings });
  await withOwner(h);
});
afterEach(async () => {
  await h.capa.services.mail?.drain();
  h.close();
});

const ask = (email: unknown) => h.json("POST", "/v2/user/password-reset", { body: { email } });
const confirm = (body: Record<string, unknown>) => h.json("POST", "/v2/user/password-reset/confirm", { body });
const signIn = (email: string, password: string) => h.json("POST", "/v2/user/login", { body: { email, password } });
const resetRows = () => h.capa.services.control.sqlite.query("SELECT count(*) AS n FROM password_resets").get() as { n: number };

/** Asks for a reset of `email` and answers the token of the mail that comes. */
async function mailedToken(email: string): Promise<string> {
  const r = await ask(email);
  expect([r.status, r.body]).toEqual([202, ASKED]);
  return linkIn(await smtp.next(), "/admin/reset-password").token;
}

describe("reclaiming an account created under one's address", () => {
  test("the mailbox's holder sets a new password; every session of whoever made the account ends", async () => {
    // Before mail was set up, an admin invited new.hire@x.test and accepted herself.
    const plain = startApp({}, h.dir);
    const o = await plain.json("POST", "/v2/user/login", { body: { email: "owner@example.com", password: "owner-password-1" } });
    const projectId = (await plain.json("GET", "/v2/projects", { token: o.body.accessToken })).body.data[0].id;
    const inv = await plain.json("POST", `/v2/projects/${projectId}/members`, {
      token: o.body.accessToken,
      body: { email: "new.hire@x.test", role: "viewer" },
    });
    const squat = await plain.json("POST", "/v2/invitations/accept", { body: { token: inv.body.invitation.token, password: "squatter-password-1" } });
    expect(squat.status).toBe(201);
    plain.capa.close();
    h.capa.close();
    h = startApp({ mail: smtp.settings }, h.dir);

    // The real person asks for a reset and gets the mail.
    const r = await ask("New.Hire@x.test ");
    expect([r.status, r.body]).toEqual([202, ASKED]);
    const mail = await smtp.next();
    expect([mail.to, mail.from, mail.subject]).toEqual([["new.hire@x.test"], MAIL_FROM, "Set a new password for Capa"]);
    const { link, token } = linkIn(mail, "/admin/reset-password");
    expect(link).toBe(`${API}/admin/reset-password?token=${token}`);
    expect(mail.text).toBe(
      [
        `Someone asked to set a new password for the Capa account new.hire@x.test at ${API}.`,
        "",
        "To choose a new password, open this link within one hour (it works once):",
        link,
        "",
        "Setting a new password signs this account out on every device.",
        "If you did not ask for this, ignore this mail: your password stays as it is.",
        "",
      ].join("\n"),
    );
    const done = await confirm({ token, password: "real-hire-password-1" });
    expect([done.status, done.body]).toEqual([204, null]);

    // The squatter's session and password are over; the real person signs in.
    expect((await h.json("GET", "/v2/projects", { token: squat.body.accessToken })).body).toEqual(REFUSED);
    expect((await h.json("POST", "/v2/user/refresh-token", { body: { refreshToken: squat.body.refreshToken } })).status).toBe(401);
    expect((await signIn("new.hire@x.test", "squatter-password-1")).status).toBe(401);
    expect((await signIn("new.hire@x.test", "real-hire-password-1")).status).toBe(200);
  });
});

describe("POST /v2/user/password-reset", () => {
  test("an address with no account: the same 202, and no mail and no link are made", async () => {
    const r = await ask("nobody@x.test");
    expect([r.status, r.body]).toEqual([202, ASKED]);
    const before = smtp.inbox.length;
    await h.capa.services.mail!.drain();
    expect([smtp.inbox.length, resetRows().n]).toEqual([before, 0]);
  });

  test("the request does the same work for a known and an unknown address (the account is looked up after the answer)", async () => {
    // The sender is held back, to look at the rows the two requests wrote.
    const sender = h.capa.services.mail!;
    const kick = sender.kick;
    sender.kick = () => {};
    await ask("owner@example.com");
    await ask("nobody@example.com");
    const rows = h.capa.services.control.sqlite.query("SELECT kind, recipient, ref, attempts, last_error FROM mail_outbox ORDER BY recipient").all();
    expect(rows).toEqual([
      { kind: "password_reset", recipient: "nobody@example.com", ref: null, attempts: 0, last_error: null },
      { kind: "password_reset", recipient: "owner@example.com", ref: null, attempts: 0, last_error: null },
    ]);
    expect(resetRows().n).toBe(0);
    sender.kick = kick;
    await sender.drain();
    expect(resetRows().n).toBe(1);
    await smtp.next();
    // And their times are alike: the median of 15 of each, within a wide factor.
    const time = async (email: string) => {
      const ts: number[] = [];
      for (let i = 0; i < 15; i++) {
        h.clock.advance(3_600_000); // past the per-address and per-IP windows
        const t0 = performance.now();
        expect((await ask(email)).status).toBe(202);
        ts.push(performance.now() - t0);
      }
      return ts.sort((a, b) => a - b)[7]!;
    };
    const known = await time("owner@example.com");
    const unknown = await time("nobody@example.com");
    expect(unknown / known).toBeGreaterThan(1 / 3);
    expect(unknown / known).toBeLessThan(3);
  });

  test("bad input: 400 naming the field, nothing queued", async () => {
    const cases: [unknown, unknown][] = [
      [{ email: "not-an-address" }, { error: "email must be an e-mail address", code: "invalid_body", field: "email" }],
      [{}, { error: "email must be an e-mail address", code: "invalid_body", field: "email" }],
      [
        { email: "owner@example.com", password: "x" },
        { error: "password is not a field of this request; send { email }", code: "invalid_body", field: "password" },
      ],
    ];
    for (const [body, answer] of cases) {
      const r = await h.json("POST", "/v2/user/password-reset", { body });
      expect([r.status, r.body]).toEqual([400, answer]);
    }
    expect(h.capa.services.control.sqlite.query("SELECT count(*) AS n FROM mail_outbox").get()).toEqual({ n: 0 });
  });

  test("one address gets at most 3 mails an hour; later requests answer 202 and send nothing", async () => {
    for (let i = 0; i < 4; i++) expect((await ask("owner@example.com")).body).toEqual(ASKED);
    await h.capa.services.mail!.drain();
    const tokens = [await smtp.next(), await smtp.next(), await smtp.next()].map((m) => linkIn(m, "/admin/reset-password").token);
    expect(new Set(tokens).size).toBe(3);
    expect(resetRows().n).toBe(3);
    h.clock.advance(3_600_000);
    await mailedToken("owner@example.com");
  });

  test("one client may ask 20 times an hour; the 21st is 429 reset_throttled with Retry-After", async () => {
    for (let i = 0; i < 20; i++) expect((await ask(`someone${i}@x.test`)).status).toBe(202);
    h.clock.advance(60_000);
    const r = await ask("someone-else@x.test");
    expect([r.status, r.body, r.headers.get("retry-after")]).toEqual([
      429,
      { error: "Too many password reset requests from this network address; wait before asking again.", code: "reset_throttled" },
      "3540",
    ]);
    h.clock.advance(3_540_000);
    expect((await ask("someone-else@x.test")).status).toBe(202);
    const page = await h.req("GET", "/docs/errors/reset_throttled");
    expect(await page.text()).toContain("<dt>Status</dt><dd>429</dd>");
  });
});

describe("POST /v2/user/password-reset/confirm", () => {
  test("sets the password and ends every session of the account, cookie sessions included", async () => {
    const api = await signIn("owner@example.com", "owner-password-1");
    const browser = await h.json("POST", "/v2/user/login", {
      body: { email: "owner@example.com", password: "owner-password-1" },
      headers: { "x-capa-session": "cookie" },
    });
    const token = await mailedToken("owner@example.com");
    expect((await confirm({ token, password: "owner-password-2" })).status).toBe(204);
    for (const t of [api.body.accessToken, browser.body.accessToken]) expect((await h.json("GET", "/v2/projects", { token: t })).body).toEqual(REFUSED);
    expect((await signIn("owner@example.com", "owner-password-1")).status).toBe(401);
    expect((await signIn("owner@example.com", "owner-password-2")).status).toBe(200);
  });

  test("a link works once; every other link of the account is spent with it", async () => {
    const first = await mailedToken("owner@example.com");
    const second = await mailedToken("owner@example.com");
    expect((await confirm({ token: first, password: "owner-password-2" })).status).toBe(204);
    for (const token of [first, second]) {
      const again = await confirm({ token, password: "owner-password-3" });
      expect([again.status, again.body]).toEqual([401, BAD_LINK]);
    }
    expect((await signIn("owner@example.com", "owner-password-2")).status).toBe(200);
  });

  test("a link works for one hour", async () => {
    const late = await mailedToken("owner@example.com");
    h.clock.advance(3_600_000);
    expect((await confirm({ token: late, password: "owner-password-2" })).body).toEqual(BAD_LINK);
    const inTime = await mailedToken("owner@example.com");
    h.clock.advance(3_599_000);
    expect((await confirm({ token: inTime, password: "owner-password-2" })).status).toBe(204);
  });

  test("bad input: a clear 400 or 401, and the password and the link stay as they were", async () => {
    const token = await mailedToken("owner@example.com");
    const cases: [Record<string, unknown>, number, unknown][] = [
      [{ password: "owner-password-2" }, 400, { error: "token is required: the one in the link of the mail", code: "invalid_body", field: "token" }],
      [{ token, password: "short" }, 400, { error: "password must be 8 to 200 characters", code: "invalid_body", field: "password" }],
      [{ token }, 400, { error: "password must be 8 to 200 characters", code: "invalid_body", field: "password" }],
      [
        { token, password: "owner-password-2", email: "x@x.test" },
        400,
        { error: "email is not a field of this request; send { token, password }", code: "invalid_body", field: "email" },
      ],
      [{ token: "pwr_unknown", password: "owner-password-2" }, 401, BAD_LINK],
    ];
    for (const [body, status, answer] of cases) {
      const r = await confirm(body);
      expect([r.status, r.body]).toEqual([status, answer]);
    }
    expect((await signIn("owner@example.com", "owner-password-1")).status).toBe(200);
    expect((await confirm({ token, password: "owner-password-2" })).status).toBe(204);
  });

  test("the token is kept only as its SHA-256: no byte of the control file or its WAL holds it", async () => {
    const token = await mailedToken("owner@example.com");
    const hash = new Bun.CryptoHasher("sha256").update(token).digest("hex");
    expect(h.capa.services.control.sqlite.query("SELECT token_hash FROM password_resets").all()).toEqual([{ token_hash: hash }]);
    for (const file of ["control.sqlite", "control.sqlite-wal"]) {
      expect(readFileSync(join(h.dir, file)).includes(Buffer.from(token.slice(4)))).toBe(false);
    }
  });
});

describe("without mail", () => {
  test("asking for a reset is 400 mail_not_configured; the confirmation route still answers", async () => {
    const plain = startApp();
    try {
      const r = await plain.json("POST", "/v2/user/password-reset", { body: { email: "owner@example.com" } });
      expect([r.status, r.body]).toEqual([
        400,
        { error: "This server sends no mail: its operator has not set CAPA_SMTP_URL and CAPA_MAIL_FROM.", code: "mail_not_configured" },
      ]);
      const c = await plain.json("POST", "/v2/user/password-reset/confirm", { body: { token: "pwr_x", password: "some-password-1" } });
      expect([c.status, c.body]).toEqual([401, BAD_LINK]);
    } finally {
      plain.close();
    }
  });
});
