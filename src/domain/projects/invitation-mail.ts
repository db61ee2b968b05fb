// The mail of an invitation (decisions.md sections 2 and 15), composed when the outbox sends it:
// a new token is made then and only its hash replaces the invitation's, so the token exists only
// in the mail. An invitation withdrawn, replaced, accepted or expired since it was asked for
// sends nothing.
import { eq } from "drizzle-orm";
import { invitations } from "../../storage/control/schema.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import type { Mail } from "../../infra/mailer.ts";
import type { Services } from "../../services.ts";
import type { OutboxRow } from "../mail/outbox.ts";
import { getUser } from "../users/service.ts";
import { getProject } from "./service.ts";

/** The composer of an invitation's mail, or null when there is nothing to send any more. */
export function invitationMail(s: Services, row: OutboxRow): Mail | null {
  const inv = row.ref ? s.control.db.select().from(invitations).where(eq(invitations.id, row.ref)).get() : undefined;
  if (!inv || inv.acceptedAt || Date.parse(inv.expiresAt) <= s.clock.now()) return null;
  const project = getProject(s, inv.projectId);
  if (!project) return null;
  const token = `inv_${randomToken(32)}`;
  s.control.db
    .update(invitations)
    .set({ tokenHash: sha256Hex(token) })
    .where(eq(invitations.id, inv.id))
    .run();
  const inviter = getUser(s, inv.createdBy);
  const who = inviter ? (inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email) : "A member";
  return {
    to: inv.email,
    subject: `You are invited to ${project.name} on Capa`,
    text: [
      `${who} invited you to the project "${project.name}" on Capa (${s.config.apiUrl}) as ${inv.role}.`,
      "",
      `To accept, open this link (it works once, until ${inv.expiresAt.slice(0, 10)}):`,
      `${s.config.apiUrl}/admin/invite?token=${token}`,
      "",
      "If this address has no Capa account yet, you choose its password there. If you did not expect this mail, ignore it.",
      "",
    ].join("\n"),
  };
}
