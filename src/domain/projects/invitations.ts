// Invitations (decisions.md section 2): members join a project only by accepting an invitation.
// The inviter gets a single-use token, valid 7 days and shown once, to pass on; the person sets
// their own password on acceptance, or accepts while signed in to the account the e-mail names.
// No one ever sets another person's password, and controlling an account never makes it a member
// of a project that did not invite it.
import type { Static } from "@sinclair/typebox";
import { and, desc, eq, isNull } from "drizzle-orm";
import { invitations, memberships } from "../../storage/control/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import type { Role } from "../access/roles.ts";
import { authenticatePerson } from "../access/authenticate.ts";
import { writeControl } from "../unit-of-work.ts";
import { queueMail } from "../mail/outbox.ts";
import { checkPassword, createUser, findUserByEmail, normalEmail } from "../users/service.ts";
import { startSession } from "../users/sessions.ts";
import { getProject, membershipOf, requireOwnerFor } from "./service.ts";
import type { AcceptInvitationBody, InviteBody } from "./bodies.ts";

/** How long an invitation can be accepted. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

type InvitationRow = typeof invitations.$inferSelect;

/** An invitation as the routes show it (never its token, which only the 201 answer holds). */
function invitationOut(r: InvitationRow, now: number) {
  const status = r.acceptedAt ? "accepted" : Date.parse(r.expiresAt) <= now ? "expired" : "pending";
  return { id: r.id, email: r.email, role: r.role, status, createdAt: r.createdAt, createdBy: r.createdBy, expiresAt: r.expiresAt, acceptedAt: r.acceptedAt };
}

/**
 * `POST /v2/projects/:id/members { email, role, send? }`: an invitation. Without mail it is
 * answered once with its token, for the inviter to pass on. With mail (CAPA_SMTP_URL) it is only
 * mailed, whatever `send` says short of `false` (refused): the answer holds no token, so only the
 * holder of the mailbox can accept it, and an invitation to an address with no account cannot be
 * accepted by the inviter under a password of their choosing (docs/security.md, "Mail").
 * Inviting someone again replaces their pending invitation (the old token stops working).
 */
export function invite(s: Services, projectId: string, inviter: { userId: string; role: Role }, input: Static<typeof InviteBody>) {
  // The body's model (InviteBody) refuses a password and checks the e-mail's form, the role and `send`.
  if (input.send === true && !s.mail) fail("mail_not_configured");
  if (input.send === false && s.mail) {
    badField("send", "This server mails every invitation, so that only the holder of the address can accept it; leave send out or set it to true");
  }
  const email = normalEmail(input.email);
  const role = input.role;
  requireOwnerFor(inviter.role, role === "owner");
  const existing = findUserByEmail(s, email);
  if (existing && membershipOf(s, projectId, existing.id)) fail("conflict", { message: "That person is already a member.", extra: { field: "email" } });
  // A mailed invitation's token is made when the mail goes out (invitation-mail.ts); this one is never shown.
  const token = `inv_${randomToken(32)}`;
  const now = s.clock.now();
  const row: InvitationRow = {
    id: s.ids.uuid(),
    projectId,
    email,
    role,
    tokenHash: sha256Hex(token),
    createdBy: inviter.userId,
    createdAt: iso(now),
    expiresAt: iso(now + INVITATION_TTL_MS),
    acceptedAt: null,
    acceptedBy: null,
  };
  writeControl(s, () => {
    s.control.db
      .delete(invitations)
      .where(and(eq(invitations.projectId, projectId), eq(invitations.email, email), isNull(invitations.acceptedAt)))
      .run();
    s.control.db.insert(invitations).values(row).run();
    if (s.mail) queueMail(s, "invitation", email, row.id);
  });
  if (s.mail) return { invitation: { id: row.id, email, role, expiresAt: row.expiresAt, sent: true } };
  return { invitation: { id: row.id, email, role, expiresAt: row.expiresAt, token } };
}

/** `GET /v2/projects/:id/invitations`: every invitation of the project, newest first, without tokens. */
export function listInvitations(s: Services, projectId: string) {
  const now = s.clock.now();
  const rows = s.control.db.select().from(invitations).where(eq(invitations.projectId, projectId)).orderBy(desc(invitations.createdAt)).all();
  return { data: rows.map((r) => invitationOut(r, now)) };
}

/**
 * `POST /v2/projects/:id/invitations/:invitationId/reissue`: a pending (or expired) invitation gets
 * a fresh link valid 7 days from now, and the old link stops working. Tokens are kept only as
 * hashes, so the link cannot be shown again: without mail the answer holds the new token once
 * ("copy the link again"); with mail a new mail is sent ("resend"), whose composer makes the token.
 * An accepted invitation is refused. Only an owner reissues an invitation to be owner.
 */
export function reissueInvitation(s: Services, projectId: string, inviterRole: Role, id: string) {
  const row = s.control.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id.toLowerCase()), eq(invitations.projectId, projectId)))
    .get();
  if (!row) fail("not_found", { message: "No such invitation." });
  if (row.acceptedAt !== null) {
    fail("invitation_accepted", { message: `${row.email} accepted this invitation on ${row.acceptedAt.slice(0, 10)}; they are a member already.` });
  }
  requireOwnerFor(inviterRole, row.role === "owner");
  const token = `inv_${randomToken(32)}`;
  const expiresAt = iso(s.clock.now() + INVITATION_TTL_MS);
  writeControl(s, () => {
    s.control.db
      .update(invitations)
      .set({ tokenHash: sha256Hex(token), expiresAt })
      .where(eq(invitations.id, row.id))
      .run();
    if (s.mail) queueMail(s, "invitation", row.email, row.id);
  });
  const out = { id: row.id, email: row.email, role: row.role, expiresAt };
  return s.mail ? { invitation: { ...out, sent: true } } : { invitation: { ...out, token } };
}

/** `DELETE /v2/projects/:id/invitations/:id`: withdraws an invitation; its token stops working. */
export function withdrawInvitation(s: Services, projectId: string, id: string): void {
  const gone = s.control.sqlite.query("DELETE FROM invitations WHERE id = ? AND project_id = ?").run(id.toLowerCase(), projectId);
  if (gone.changes === 0) fail("not_found", { message: "No such invitation." });
}

/**
 * `POST /v2/invitations/accept { token, password? }`. For an e-mail with no account, the account
 * is created with the password and the answer is a session, as sign-in answers. For an existing
 * account the caller must be signed in as it (bearer token), and `password` is refused. The
 * person's current project is left as it was: they open the new one when they choose to.
 */
export async function acceptInvitation(s: Services, headers: Headers, body: Static<typeof AcceptInvitationBody>) {
  const row = s.control.db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, sha256Hex(body.token)))
    .get();
  if (!row || row.acceptedAt !== null || Date.parse(row.expiresAt) <= s.clock.now() || !getProject(s, row.projectId)) fail("invitation_not_found");
  const existing = findUserByEmail(s, row.email);
  if (existing) {
    if (body.password !== undefined) {
      badField("password", "This e-mail has an account already: sign in as it and accept without a password");
    }
    const caller = await authenticatePerson(s, headers);
    if (caller.kind !== "user" || caller.userId !== existing.id) fail("invitation_for_another_account");
    join(s, row, existing.id);
    const project = getProject(s, row.projectId)!;
    return { status: 200, body: { project: { id: project.id, name: project.name, slug: project.slug }, role: row.role } };
  }
  const password = checkPassword(body.password);
  const user = writeControl(s, () => {
    const created = createUser(s, { email: row.email, password });
    join(s, row, created.id);
    return created;
  });
  return { status: 201, body: await startSession(s, user) };
}

/** Makes the person a member with the invitation's role and marks the invitation used. */
function join(s: Services, row: InvitationRow, userId: string): void {
  const now = iso(s.clock.now());
  writeControl(s, () => {
    // A second acceptance racing this one finds the row used and changes nothing.
    const used = s.control.sqlite
      .query("UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND accepted_at IS NULL")
      .run(now, userId, row.id);
    if (used.changes === 0) fail("invitation_not_found");
    if (!membershipOf(s, row.projectId, userId)) {
      s.control.db.insert(memberships).values({ projectId: row.projectId, userId, role: row.role, lastOpenedAt: null, createdAt: now }).run();
    }
  });
}
