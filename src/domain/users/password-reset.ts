// Password reset by mail (decisions.md section 15; docs/security.md, "Password reset by mail"):
// `POST /v2/user/password-reset { email }` always answers 202 and, when the address has an
// account, a mail with a one-use link valid one hour goes out through the outbox;
// `POST /v2/user/password-reset/confirm { token, password }` sets the password and ends every
// session of the account. This is how the holder of a mailbox takes back an account that someone
// else created under their address.
//
// The request does the same work whatever the address: it writes an outbox row holding only the
// address. Whether an account exists is looked up when the mail is composed, after the answer,
// so neither the answer nor its timing tells.
import { and, eq, isNull, lte } from "drizzle-orm";
import { passwordResets, users } from "../../storage/control/schema.ts";
import type { Static } from "@sinclair/typebox";
import { AppError, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import type { Mail } from "../../infra/mailer.ts";
import type { Services } from "../../services.ts";
import { writeControl } from "../unit-of-work.ts";
import { queueMail, type OutboxRow } from "../mail/outbox.ts";
import { checkPassword, findUserByEmail, normalEmail } from "./service.ts";
import { endAllSessions } from "./revocation.ts";
import type { PasswordResetBody, PasswordResetConfirmBody } from "./bodies.ts";

/** How long a reset link works. */
export const RESET_TTL_MS = 3_600_000;

/** What the request answers, whatever the address. */
export const RESET_ASKED = {
  message: "If an account uses this address, a link to set a new password is on its way to it. The link works once, for one hour.",
};

/** Refuses every key of a body outside `allowed`, naming the first. */

/** `POST /v2/user/password-reset { email }`: queues the mail (see the file comment). */
export function askPasswordReset(s: Services, body: Static<typeof PasswordResetBody>, ip: string): typeof RESET_ASKED {
  if (!s.mail) fail("mail_not_configured");
  const email = normalEmail(body.email);
  if (s.resets.allow(email, ip)) queueMail(s, "password_reset", email, null);
  return RESET_ASKED;
}

/** The composer of a reset mail: a new link for the address's account, or null when it has none. */
export function resetMail(s: Services, row: OutboxRow): Mail | null {
  const user = findUserByEmail(s, row.recipient);
  if (!user) return null;
  const token = `pwr_${randomToken(40)}`;
  const now = s.clock.now();
  s.control.db
    .insert(passwordResets)
    .values({ id: s.ids.uuid(), userId: user.id, tokenHash: sha256Hex(token), createdAt: iso(now), expiresAt: iso(now + RESET_TTL_MS), usedAt: null })
    .run();
  const link = `${s.config.apiUrl}/admin/reset-password?token=${token}`;
  return {
    to: user.email,
    subject: "Set a new password for Capa",
    text: [
      `Someone asked to set a new password for the Capa account ${user.email} at ${s.config.apiUrl}.`,
      "",
      "To choose a new password, open this link within one hour (it works once):",
      link,
      "",
      "Setting a new password signs this account out on every device.",
      "If you did not ask for this, ignore this mail: your password stays as it is.",
      "",
    ].join("\n"),
  };
}

/**
 * `POST /v2/user/password-reset/confirm { token, password }`: the token must be one a mail carried,
 * unused and less than an hour old (`401 invalid_token` otherwise); the password follows the rule
 * of every password. The password is set, every reset link of the account is spent and every
 * session of the account ends, in one transaction. Answers 204: the person signs in with it.
 */
export async function confirmPasswordReset(s: Services, body: Static<typeof PasswordResetConfirmBody>): Promise<void> {
  const password = checkPassword(body.password);
  const found = live(s, body.token);
  if (!found) throw invalidLink();
  const hash = await s.passwords.hash(password);
  const now = iso(s.clock.now());
  writeControl(s, () => {
    // A second confirmation racing this one finds the row used and changes nothing.
    const spent = s.control.sqlite.query("UPDATE password_resets SET used_at = ? WHERE id = ? AND used_at IS NULL").run(now, found.id);
    if (spent.changes === 0) throw invalidLink();
    s.control.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, found.userId), isNull(passwordResets.usedAt)))
      .run();
    s.control.db.update(users).set({ passwordHash: hash }).where(eq(users.id, found.userId)).run();
    endAllSessions(s, found.userId);
  });
}

function live(s: Services, token: string) {
  const row = s.control.db
    .select()
    .from(passwordResets)
    .where(eq(passwordResets.tokenHash, sha256Hex(token)))
    .get();
  return row && !row.usedAt && Date.parse(row.expiresAt) > s.clock.now() ? row : null;
}

function invalidLink(): AppError {
  return new AppError("invalid_token", {
    message: "The password reset link is not valid: it was used, has expired, or was never sent.",
    hint: "Ask for a new link with POST /v2/user/password-reset { email }.",
  });
}

/** Forgets reset links past their hour (the sessions job). */
export function pruneResets(s: Services, now: number): void {
  s.control.db
    .delete(passwordResets)
    .where(lte(passwordResets.expiresAt, iso(now)))
    .run();
}
