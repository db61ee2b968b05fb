// The member and invitation routes of /v2 (decisions.md 2), used only by the lazily loaded
// People and invitation screens.
import type { AcceptInvitationBody, DeleteProjectBody, InviteBody, MemberBody, TransferOwnershipBody, UpdateProjectBody } from "../../../src/shared/bodies.ts";
import type { Invitation, JoinedProject, Member, NewInvitation, ProjectRecord, Session } from "../../../src/shared/people.ts";
import { call } from "./client.ts";

export type { Invitation } from "../../../src/shared/people.ts";

/** A role a member can be given. */
export type Role = InviteBody["role"];

/** The roles of a project, highest first, with the words people read. */
export const ROLE_WORDS: Record<string, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  editor: "Editor",
  viewer: "Viewer",
};

/** The member routes of project `p`, one function per documented route. */
export const peopleApi = {
  members: (p: string) => call<{ data: Member[] }>("GET", `/v2/projects/${p}/members`).then((r) => r.data),
  /** Invites; the answer holds the token to pass on, or, on a server that sends mail, `sent: true` and no token. */
  invite: (p: string, email: string, role: Role) => call<NewInvitation>("POST", `/v2/projects/${p}/members`, { body: { email, role } satisfies InviteBody }),
  invitations: (p: string) => call<{ data: Invitation[] }>("GET", `/v2/projects/${p}/invitations`).then((r) => r.data),
  /** Revokes an invitation: its link stops working. */
  revoke: (p: string, id: string) => call<void>("DELETE", `/v2/projects/${p}/invitations/${id}`),
  /**
   * A fresh link for a pending or expired invitation (the old one stops working): without mail the
   * answer holds the new token once ("Copy link"); with mail it is mailed again ("Resend").
   */
  reissue: (p: string, id: string) => call<NewInvitation>("POST", `/v2/projects/${p}/invitations/${id}/reissue`).then((r) => r.invitation),
  /** Makes member `userId` owner and the caller admin, in one step; answers the members after it. */
  transfer: (p: string, userId: string) =>
    call<{ data: Member[] }>("POST", `/v2/projects/${p}/transfer-ownership`, { body: { userId } satisfies TransferOwnershipBody }).then((r) => r.data),
  setRole: (p: string, userId: string, role: Role) => call<Member>("PATCH", `/v2/projects/${p}/members/${userId}`, { body: { role } satisfies MemberBody }),
  /** Removes a member; with the caller's own id it is leaving the project. */
  remove: (p: string, userId: string) => call<void>("DELETE", `/v2/projects/${p}/members/${userId}`),
  /** Accepts an invitation: with a password as a new account (201, a session), or signed in as the invited account (200). */
  accept: (token: string, password?: string) =>
    call<JoinedProject | Session>("POST", "/v2/invitations/accept", {
      body: (password === undefined ? { token } : { token, password }) satisfies AcceptInvitationBody,
      // A new account's session is a cookie session, like sign-in's (the refresh token stays in the httpOnly cookie).
      headers: { "x-capa-session": "cookie" },
    }),
};

/** The link an invitation token is accepted at. */
export function invitationLink(token: string): string {
  return `${window.location.origin}/admin/invite?token=${encodeURIComponent(token)}`;
}

/** Query keys of the People screen. */
export const peopleKeys = {
  members: (p: string) => ["members", p] as const,
  invitations: (p: string) => ["invitations", p] as const,
};

/** The project settings routes. */
export const projectApi = {
  update: (p: string, patch: UpdateProjectBody) => call<ProjectRecord>("PATCH", `/v2/projects/${p}`, { body: patch }),
  /** Deletes the project; `slug` must be typed to confirm. */
  remove: (p: string, slug: string) => call<void>("DELETE", `/v2/projects/${p}`, { body: { slug } satisfies DeleteProjectBody }),
};
