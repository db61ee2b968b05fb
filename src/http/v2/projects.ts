// Projects and members: /v2/projects...
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import type { Replication } from "../../infra/replication.ts";
import { fail } from "../../errors.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  CreatedProject,
  CreateProjectBody,
  CurrentProject,
  CurrentProjectBody,
  DeleteProjectBody,
  InvitationList,
  InviteBody,
  Member,
  MemberBody,
  MemberList,
  NewInvitation,
  ProjectList,
  ProjectRecord,
  TransferOwnershipBody,
  UpdateProjectBody,
} from "../../domain/projects/bodies.ts";
import { managementAuth } from "../plugins/management.ts";
import { requireScope, type Principal } from "../../domain/access/principal.ts";
import { requireProjectCreator } from "../../domain/access/operator.ts";
import { invite, listInvitations, reissueInvitation, withdrawInvitation } from "../../domain/projects/invitations.ts";
import { transferOwnership } from "../../domain/projects/ownership.ts";
import type { Role } from "../../domain/access/roles.ts";
import {
  createProject,
  deleteProject,
  getProject,
  listMembers,
  listProjects,
  membershipOf,
  removeMember,
  setCurrentProject,
  updateMember,
  updateProject,
  UUID,
} from "../../domain/projects/service.ts";

/** The caller as a member of the project named in the path (not the header's project). */
function memberOf(s: Services, p: Principal, projectId: string): Principal {
  if (p.kind !== "user") fail("insufficient_permissions");
  const id = projectId.toLowerCase();
  const mem = UUID.test(id) ? membershipOf(s, id, p.userId) : undefined;
  if (!mem || !getProject(s, id)) fail("not_a_member");
  return { kind: "user", userId: p.userId, projectId: id, role: mem.role };
}

/** The caller's role in the path's project (memberOf always answers a member). */
function roleOf(p: Principal): Role {
  return p.kind === "user" && p.role ? p.role : "viewer";
}

/** How long creation waits for the new project's first snapshot to reach the replica. */
const PROTECT_TIMEOUT_MS = 5_000;

export function projectRoutes(s: Services, replication?: Replication) {
  return new Elysia({ prefix: "/v2/projects" })
    .use(managementAuth(s, "/v2"))
    .get(
      "/",
      async ({ person: p }) => {
        return { data: listProjects(s, p.userId) };
      },
      { signedIn: true, detail: doc({ summary: "The projects you belong to, most recently opened first", answers: { 200: ProjectList } }) },
    )
    .post(
      "/",
      async ({ person: p, request, set }) => {
        requireProjectCreator(s, p);
        const body = await typedBody(request, CreateProjectBody);
        const row = createProject(s, { name: body.name, slug: body.slug, ownerId: p.userId });
        // Acknowledged once the replica holds the project, or the answer says it does not yet.
        const backup = replication ? await replication.protect(row.id, PROTECT_TIMEOUT_MS) : "off";
        set.status = 201;
        return { id: row.id, name: row.name, slug: row.slug, role: "owner", lastOpenedAt: row.createdAt, createdAt: row.createdAt, backup };
      },
      { signedIn: true, detail: doc({ summary: "Create a project; you become its owner", body: CreateProjectBody, answers: { 201: CreatedProject } }) },
    )
    .put(
      "/current",
      async ({ person: p, request }) => {
        const body = await typedBody(request, CurrentProjectBody);
        return setCurrentProject(s, p.userId, body.projectId);
      },
      { signedIn: true, detail: doc({ summary: "Set the project you last opened", body: CurrentProjectBody, answers: { 200: CurrentProject } }) },
    )
    .get(
      "/:id",
      async ({ person, params }) => {
        const p = memberOf(s, person, params.id);
        const row = getProject(s, p.projectId!)!;
        return { id: row.id, name: row.name, slug: row.slug, role: p.kind === "user" ? p.role : null, createdAt: row.createdAt, updatedAt: row.updatedAt };
      },
      { signedIn: true, detail: doc({ summary: "One project you belong to, with your role", answers: { 200: ProjectRecord } }) },
    )
    .patch(
      "/:id",
      async ({ person, request, params }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "settings:update");
        const body = await typedBody(request, UpdateProjectBody);
        const row = updateProject(s, p.projectId!, { name: body.name, slug: body.slug });
        return { id: row.id, name: row.name, slug: row.slug, createdAt: row.createdAt, updatedAt: row.updatedAt };
      },
      {
        signedIn: true,
        detail: doc({ summary: "Rename a project or change its slug (owners and admins)", body: UpdateProjectBody, answers: { 200: ProjectRecord } }),
      },
    )
    .delete(
      "/:id",
      async ({ person, request, params, set }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "project:delete");
        const body = await typedBody(request, DeleteProjectBody);
        deleteProject(s, p.projectId!, body.slug);
        set.status = 204;
        return null;
      },
      {
        signedIn: true,
        detail: doc({
          summary: "Delete a project, its keys and its file (owners; the slug typed to confirm)",
          body: DeleteProjectBody,
          answers: { 204: null },
        }),
      },
    )
    .get(
      "/:id/members",
      async ({ person, params }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "member:read");
        return { data: listMembers(s, p.projectId!) };
      },
      { signedIn: true, detail: doc({ summary: "The project's members", answers: { 200: MemberList } }) },
    )
    .post(
      "/:id/members",
      async ({ person, request, params, set }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "member:update");
        const body = await typedBody(request, InviteBody);
        set.status = 201;
        return invite(s, p.projectId!, { userId: person.userId, role: roleOf(p) }, body);
      },
      {
        signedIn: true,
        detail: doc({ summary: "Invite a person by e-mail: the token (7 days, single use) is shown once", body: InviteBody, answers: { 201: NewInvitation } }),
      },
    )
    .get(
      "/:id/invitations",
      ({ person, params }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "member:update");
        return listInvitations(s, p.projectId!);
      },
      { signedIn: true, detail: doc({ summary: "The project's invitations, newest first, without tokens", answers: { 200: InvitationList } }) },
    )
    .post(
      "/:id/invitations/:invitationId/reissue",
      ({ person, params }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "member:update");
        return reissueInvitation(s, p.projectId!, roleOf(p), params.invitationId);
      },
      {
        signedIn: true,
        detail: doc({
          summary:
            "A fresh link for a pending or expired invitation (7 days; the old link stops working): without mail its token, shown once; with mail it is mailed again",
          answers: { 200: NewInvitation },
        }),
      },
    )
    .post(
      "/:id/transfer-ownership",
      async ({ person, request, params }) => {
        const p = memberOf(s, person, params.id);
        const body = await typedBody(request, TransferOwnershipBody);
        return transferOwnership(s, p.projectId!, { userId: person.userId, role: roleOf(p) }, body.userId);
      },
      {
        signedIn: true,
        detail: doc({
          summary: "Make another member owner and become admin, in one step (owners)",
          body: TransferOwnershipBody,
          answers: { 200: MemberList },
        }),
      },
    )
    .delete(
      "/:id/invitations/:invitationId",
      ({ person, params, set }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "member:update");
        withdrawInvitation(s, p.projectId!, params.invitationId);
        set.status = 204;
        return null;
      },
      { signedIn: true, detail: doc({ summary: "Withdraw an invitation; its token stops working", answers: { 204: null } }) },
    )
    .patch(
      "/:id/members/:userId",
      async ({ person, request, params }) => {
        const p = memberOf(s, person, params.id);
        requireScope(p, "member:update");
        const body = await typedBody(request, MemberBody);
        return updateMember(s, p.projectId!, roleOf(p), params.userId, { role: body.role });
      },
      { signedIn: true, detail: doc({ summary: "Change a member's role (ownership is the owners' alone)", body: MemberBody, answers: { 200: Member } }) },
    )
    .delete(
      "/:id/members/:userId",
      async ({ person, params, set }) => {
        const p = memberOf(s, person, params.id);
        // Anyone may leave a project; removing someone else is for owners and admins.
        if (params.userId.toLowerCase() !== person.userId) requireScope(p, "member:update");
        removeMember(s, p.projectId!, roleOf(p), params.userId.toLowerCase());
        set.status = 204;
        return null;
      },
      {
        signedIn: true,
        detail: doc({ summary: "Remove a member (owners and admins), or leave the project (your own id); the last owner stays", answers: { 204: null } }),
      },
    );
}
