// Sending one mail over SMTP with nodemailer (docs/dependencies.md says why that library). The
// outbox (src/domain/mail/outbox.ts) decides what to send and when; this only hands a message to
// the configured server. Mail is plain text; nodemailer's own logger stays off, so no message
// (which may hold a one-use link) reaches the log. nodemailer is loaded with the first message,
// not at start: most servers send a few mails a day, and its code is a few megabytes of an idle
// server's memory (docs/performance.md).
import type { Transporter } from "nodemailer";
import type { MailSettings } from "../domain/mail/settings.ts";

/** One message. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Something that sends a mail or throws. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** A mailer that opens a connection to the SMTP server for each message (the volume is a few a minute at most). */
export function smtpMailer(m: MailSettings): Mailer {
  let transport: Promise<Transporter> | null = null;
  const open = async () =>
    (await import("nodemailer")).default.createTransport({
      host: m.host,
      port: m.port,
      secure: m.secure,
      requireTLS: m.requireTls,
      auth: m.auth ?? undefined,
      // A server that does not answer must not hold the outbox for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      // Messages are built from our own text only: no file or URL is ever read into one.
      disableFileAccess: true,
      disableUrlAccess: true,
      logger: false,
    });
  return {
    async send(mail) {
      transport ??= open();
      await (await transport).sendMail({ from: m.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close() {
      // A transport never opened has nothing to close; one still loading closes once it is there.
      transport?.then((t) => t.close()).catch(() => {});
    },
  };
}
