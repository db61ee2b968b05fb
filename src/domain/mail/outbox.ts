// The mail outbox (decisions.md section 15; docs/security.md, "Mail"). A mail is asked for by a
// row of `mail_outbox` written in the same transaction as what it is about (the invitation, the
// reset request), so a crash between the answer and the sending loses nothing: the `mail` job
// sends what is due every 15 seconds, and each new row wakes the sender at once. A row holds no
// secret: the link's token is made by the kind's composer when the mail goes out, and only its
// hash is kept. A failed attempt is retried after 1, 2, 4 ... 60 minutes; after 8 attempts the
// row is dropped with an error line.
import { asc, eq, lte } from "drizzle-orm";
import { mailOutbox } from "../../storage/control/schema.ts";
import { iso } from "../../infra/clock.ts";
import type { Mail, Mailer } from "../../infra/mailer.ts";
import type { Services } from "../../services.ts";
import { writeControl } from "../unit-of-work.ts";

/** What a mail is about. */
export type MailKind = "invitation" | "password_reset";

/** A row of the outbox. */
export type OutboxRow = typeof mailOutbox.$inferSelect;

/** Builds the mail of a row (making its link's token), or null when there is nothing to send any more. */
export type Composer = (row: OutboxRow) => Mail | null;

/** Attempts before a mail is given up. */
export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 3_600_000;
/** Rows taken per query while draining. */
const BATCH = 10;

/**
 * Asks for a mail, in the caller's unit of work on the control file (or one of its own); the
 * sender is woken after the commit.
 */
export function queueMail(s: Services, kind: MailKind, recipient: string, ref: string | null): void {
  writeControl(s, (afterCommit) => {
    const now = iso(s.clock.now());
    s.control.db.insert(mailOutbox).values({ id: s.ids.uuid(), kind, recipient, ref, createdAt: now, attempts: 0, nextAttemptAt: now, lastError: null }).run();
    afterCommit(() => s.mail?.kick());
  });
}

/** Sends the outbox's due rows, one drain at a time. */
export class MailSender {
  private readonly composers = new Map<MailKind, Composer>();
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly self: () => Services,
    private readonly mailer: Mailer,
  ) {}

  /** Registers the composer of a kind (feature modules, at start). */
  on(kind: MailKind, composer: Composer): void {
    this.composers.set(kind, composer);
  }

  /**
   * Starts a drain after the current request has answered (a composer's work, such as looking up
   * whether an address has an account, must not add to the answer's time), or asks the running
   * one to look again when it ends.
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    setTimeout(() => void this.drain(), 0);
  }

  /** Sends every due row; resolves when none is left due (the job's body). */
  drain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.loop()
      .catch((e) => this.self().log.error("mail outbox failed", { error: String(e instanceof Error ? e.stack : e) }))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
    return this.running;
  }

  /** Sends nothing more: waits for a drain under way, then closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    this.mailer.close();
  }

  private async loop(): Promise<void> {
    const s = this.self();
    for (;;) {
      const rows = s.control.db
        .select()
        .from(mailOutbox)
        .where(lte(mailOutbox.nextAttemptAt, iso(s.clock.now())))
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(BATCH)
        .all();
      if (rows.length === 0) return;
      for (const row of rows) await this.attempt(s, row);
    }
  }

  private async attempt(s: Services, row: OutboxRow): Promise<void> {
    const compose = this.composers.get(row.kind as MailKind);
    const mail = compose ? compose(row) : null;
    if (!mail) {
      // Withdrawn, replaced, accepted or expired since, or an address with no account.
      s.control.db.delete(mailOutbox).where(eq(mailOutbox.id, row.id)).run();
      return;
    }
    try {
      await this.mailer.send(mail);
      s.control.db.delete(mailOutbox).where(eq(mailOutbox.id, row.id)).run();
      s.log.info("mail sent", { kind: row.kind, to: mail.to, attempt: row.attempts + 1 });
    } catch (e) {
      const attempts = row.attempts + 1;
      const error = String(e instanceof Error ? e.message : e).slice(0, 500);
      if (attempts >= MAX_ATTEMPTS) {
        s.control.db.delete(mailOutbox).where(eq(mailOutbox.id, row.id)).run();
        s.log.error("mail not sent; given up", { kind: row.kind, to: mail.to, attempts, error });
        return;
      }
      const wait = Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_RETRY_MS);
      s.control.db
        .update(mailOutbox)
        .set({ attempts, nextAttemptAt: iso(s.clock.now() + wait), lastError: error })
        .where(eq(mailOutbox.id, row.id))
        .run();
      s.log.warn("mail not sent; will retry", { kind: row.kind, to: mail.to, attempts, retryInSeconds: wait / 1000, error });
    }
  }
}
