// A real SMTP server for the mail tests (`smtp-server`, from the makers of nodemailer), started
// in-process on a free loopback port, with the received mails parsed by `mailparser`. It asks for a
// user and password (AUTH PLAIN/LOGIN; over plain TCP, which nodemailer only allows to loopback
// here), and can be told to refuse mail for a while, so retries are tested against a server that
// says no rather than against a mock of our mailer.
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";
import type { AddressInfo } from "node:net";
import type { MailSettings } from "../../src/domain/mail/settings.ts";

/** One mail as the server received it. */
export interface Received {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
}

export const SMTP_USER = "capa-mailer";
export const SMTP_PASSWORD = "smtp-secret-1";
export const MAIL_FROM = "Capa <capa@capa.test>";

/** A running server. */
export interface SmtpServer {
  port: number;
  /** The settings that reach it (what CAPA_SMTP_URL and CAPA_MAIL_FROM would give). */
  settings: MailSettings;
  /** Every mail received, oldest first. */
  inbox: Received[];
  /** While true, every MAIL FROM is refused with 451 (a temporary failure). */
  refusing: boolean;
  /** The next mail received (waits up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<Received>;
  /** Counts every mail received so far as seen: the next `next` waits for a new one. */
  clear(): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1. */
export async function startSmtp(): Promise<SmtpServer> {
  const inbox: Received[] = [];
  const waiting: ((m: Received) => void)[] = [];
  let seen = 0;
  const state = { refusing: false };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onMailFrom(_address, _session, cb) {
      if (state.refusing) {
        const e = new Error("Try again later") as Error & { responseCode: number };
        e.responseCode = 451;
        cb(e);
      } else cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (m) => {
          const mail: Received = {
            to: session.envelope.rcptTo.map((r) => r.address),
            from: m.from ? m.from.value.map((a) => (a.name ? `${a.name} <${a.address}>` : (a.address ?? ""))).join(", ") : "",
            subject: m.subject ?? "",
            text: m.text ?? "",
          };
          inbox.push(mail);
          waiting.shift()?.(mail);
          cb();
        },
        (e) => cb(e),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  // What CAPA_SMTP_URL=smtp://capa-mailer:smtp-secret-1@127.0.0.1:<port> gives (test/mail/config.test.ts
  // checks that reading); written out so these tests import nothing of the mail code themselves.
  const settings: MailSettings = {
    host: "127.0.0.1",
    port,
    secure: false,
    requireTls: false,
    auth: { user: SMTP_USER, pass: SMTP_PASSWORD },
    from: MAIL_FROM,
    shown: `smtp://${SMTP_USER}:***@127.0.0.1:${port}`,
  };
  return {
    port,
    settings,
    inbox,
    get refusing() {
      return state.refusing;
    },
    set refusing(v: boolean) {
      state.refusing = v;
    },
    next(timeoutMs = 5_000) {
      // Mails that arrived before the call are handed out in order.
      if (seen < inbox.length) return Promise.resolve(inbox[seen++]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail within ${timeoutMs} ms`)), timeoutMs);
        waiting.push((m) => {
          clearTimeout(timer);
          seen++;
          resolve(m);
        });
      });
    },
    clear() {
      seen = inbox.length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one link, on a line of its own in a mail's text, whose path is `path` (e.g. /admin/invite), and its token. */
export function linkIn(mail: Received, path: string): { link: string; token: string } {
  const links = mail.text.match(/^https?:\/\/\S+$/gm)?.filter((l) => new URL(l).pathname === path) ?? [];
  if (links.length !== 1) throw new Error(`expected one ${path} link in the mail, found ${links.length}:\n${mail.text}`);
  return { link: links[0]!, token: new URL(links[0]!).searchParams.get("token")! };
}
