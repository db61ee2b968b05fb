// The mail outbox (docs/security.md, "Mail"): a mail asked for is a row written with what it is
// about, so a refusing or unreachable SMTP server, or a crash, loses nothing; retries wait 1, 2,
// 4 ... minutes; after 8 attempts the mail is given up with an error line. Against a real SMTP
// server that refuses, and a port where none listens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createLogger } from "../../src/infra/log.ts";
import { readMailSettings } from "../../src/domain/mail/settings.ts";
import { linkIn, MAIL_FROM, SMTP_USER, startSmtp, type SmtpServer } from "./smtp.ts";

let smtp: SmtpServer;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());

const MINUTE = 60_000;
type Row = { kind: string; recipient: string; attempts: number; next_attempt_at: string; last_error: string | null };
const rows = (h: Harness) =>
  h.capa.services.control.sqlite.query("SELECT kind, recipient, attempts, next_attempt_at, last_error FROM mail_outbox").all() as Row[];

/** A loopback port where nothing listens. */
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** An app whose log lines are kept. */
function loggedApp(over: Parameters<typeof startApp>[0], dir?: string) {
  const lines: Record<string, unknown>[] = [];
  const h = startApp(over, dir, { log: createLogger("info", (l) => lines.push(JSON.parse(l))) });
  return { h, lines };
}

describe("the mail outbox", () => {
  test("a server that refuses: the mail waits 1, 2, 4 minutes between attempts, then goes out with a working link", async () => {
    smtp.clear();
    const { h, lines } = loggedApp({ mail: smtp.settings });
    try {
      await withOwner(h);
      smtp.refusing = true;
      expect((await h.json("POST", "/v2/user/password-reset", { body: { email: "owner@example.com" } })).status).toBe(202);
      await h.capa.services.mail!.drain();
      const [first] = rows(h);
      expect([first!.attempts, first!.next_attempt_at]).toEqual([1, "2026-11-21T12:01:00.000Z"]);
      expect(first!.last_error).toBe("Mail command failed: 451 Try again later");
      // Not due yet: nothing is tried.
      h.clock.advance(MINUTE - 1);
      await h.capa.jobs.runNow("mail");
      expect(rows(h)[0]!.attempts).toBe(1);
      h.clock.advance(1);
      await h.capa.jobs.runNow("mail");
      expect([rows(h)[0]!.attempts, rows(h)[0]!.next_attempt_at]).toEqual([2, "2026-11-21T12:03:00.000Z"]);
      expect(lines.filter((l) => l.msg === "mail not sent; will retry").map((l) => [l.kind, l.to, l.attempts, l.retryInSeconds])).toEqual([
        ["password_reset", "owner@example.com", 1, 60],
        ["password_reset", "owner@example.com", 2, 120],
      ]);
      smtp.refusing = false;
      h.clock.advance(2 * MINUTE);
      await h.capa.jobs.runNow("mail");
      expect(rows(h)).toEqual([]);
      const { token } = linkIn(await smtp.next(), "/admin/reset-password");
      expect((await h.json("POST", "/v2/user/password-reset/confirm", { body: { token, password: "owner-password-2" } })).status).toBe(204);
      // No line holds the link or its token.
      expect(JSON.stringify(lines)).not.toContain(token);
      expect(lines.find((l) => l.msg === "mail sent")).toMatchObject({ kind: "password_reset", to: "owner@example.com", attempt: 3 });
    } finally {
      smtp.refusing = false;
      h.close();
    }
  });

  test("a crash loses no mail: the row written with the request is sent by the next start", async () => {
    smtp.clear();
    const down = readMailSettings({ CAPA_SMTP_URL: `smtp://${SMTP_USER}:x@127.0.0.1:${await deadPort()}`, CAPA_MAIL_FROM: MAIL_FROM })!;
    const first = startApp({ mail: down });
    const o = await withOwner(first);
    const invited = await first.json("POST", `/v2/projects/${o.project.id}/members`, { token: o.token, body: { email: "ivy@x.test", role: "editor" } });
    expect(invited.body.invitation.sent).toBe(true);
    await first.capa.services.mail!.drain();
    expect(rows(first).map((r) => [r.kind, r.recipient, r.attempts])).toEqual([["invitation", "ivy@x.test", 1]]);
    // The process ends without sending (as a crash would); the next start has a reachable server.
    first.capa.close();
    const next = startApp({ mail: smtp.settings }, first.dir);
    try {
      next.clock.advance(MINUTE);
      await next.capa.jobs.runNow("mail");
      const mail = await smtp.next();
      expect(mail.to).toEqual(["ivy@x.test"]);
      const { token } = linkIn(mail, "/admin/invite");
      expect((await next.json("POST", "/v2/invitations/accept", { body: { token, password: "ivy-password-1" } })).status).toBe(201);
    } finally {
      next.close();
    }
  });

  test("after 8 attempts the mail is given up, with an error line", async () => {
    const { h, lines } = loggedApp({ mail: smtp.settings });
    try {
      await withOwner(h);
      smtp.refusing = true;
      await h.json("POST", "/v2/user/password-reset", { body: { email: "owner@example.com" } });
      await h.capa.services.mail!.drain();
      for (let i = 1; i < 8; i++) {
        h.clock.advance(60 * MINUTE);
        await h.capa.jobs.runNow("mail");
      }
      expect(rows(h)).toEqual([]);
      const waits = lines.filter((l) => l.msg === "mail not sent; will retry").map((l) => l.retryInSeconds);
      expect(waits).toEqual([60, 120, 240, 480, 960, 1920, 3600]);
      expect(lines.filter((l) => l.msg === "mail not sent; given up").map((l) => [l.level, l.to, l.attempts])).toEqual([["error", "owner@example.com", 8]]);
    } finally {
      smtp.refusing = false;
      h.close();
    }
  });

  test("wrong SMTP credentials: each attempt fails with the server's answer in the row, never the password", async () => {
    const wrong = readMailSettings({ CAPA_SMTP_URL: `smtp://${SMTP_USER}:not-the-password@127.0.0.1:${smtp.port}`, CAPA_MAIL_FROM: MAIL_FROM })!;
    const { h, lines } = loggedApp({ mail: wrong });
    try {
      await withOwner(h);
      await h.json("POST", "/v2/user/password-reset", { body: { email: "owner@example.com" } });
      await h.capa.services.mail!.drain();
      expect(rows(h)[0]!.last_error).toContain("Invalid username or password");
      expect(JSON.stringify([lines, rows(h)])).not.toContain("not-the-password");
    } finally {
      h.close();
    }
  });
});
