// TypeBox models of the project and member bodies (decisions.md 2; interface.md, Project), and of
// their answers. The domain adds what a shape cannot say: a slug not taken, a member's role
// changes ownership only for owners, the confirmation matches.
import { Type } from "@sinclair/typebox";
import { ROLES } from "../access/roles.ts";
import { listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { Email, passwordOf } from "../users/bodies.ts";

/** 3 to 48 characters, lowercase letters and digits, single hyphens between them. */
export const Slug = Type.String({
  minLength: 3,
  maxLength: 48,
  pattern: "^[a-z0-9]+(-[a-z0-9]+)*$",
  error: "slug must be 3 to 48 characters of lowercase letters and digits, with single hyphens between them",
});

/** A project's name: 1 to 120 characters with more than spaces. */
export const ProjectName = Type.String({ maxLength: 120, pattern: "\\S", error: "name must be 1 to 120 characters" });

export const Role = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { error: `role must be one of ${ROLES.join(", ")}` },
);

/** POST /v2/projects: without a slug, one is made from the name. */
export const CreateProjectBody = Type.Object(
  { name: ProjectName, slug: Type.Optional(Type.Union([Type.Null(), Slug], { error: Slug.error })) },
  { $id: "CreateProjectBody" },
);

/** PATCH /v2/projects/:id: a new name, slug or both. */
export const UpdateProjectBody = Type.Object({ name: Type.Optional(ProjectName), slug: Type.Optional(Slug) }, { $id: "UpdateProjectBody" });

/** DELETE /v2/projects/:id: the project's slug, typed to confirm. */
export const DeleteProjectBody = Type.Object(
  { slug: Type.String({ error: "Type the project's slug in the body as { slug } to confirm.", code: "confirmation_mismatch" }) },
  { $id: "DeleteProjectBody" },
);

/** PUT /v2/projects/current. */
export const CurrentProjectBody = Type.Object(
  {
    projectId: Type.String({
      pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
      error: "projectId must be a project id",
    }),
  },
  { $id: "CurrentProjectBody" },
);

const NO_PASSWORD_HERE = "A member sets their own password when they accept the invitation; no one sets it for them";

/** POST /v2/projects/:id/members: an invitation; no one sets another person's password. */
export const InviteBody = Type.Object(
  {
    password: Type.Optional(Type.Never({ error: NO_PASSWORD_HERE })),
    send: Type.Optional(
      Type.Boolean({ error: "send must be true (mail the invitation) or false", description: "true: mail the invitation (needs CAPA_SMTP_URL)." }),
    ),
    email: Email,
    role: Role,
  },
  { $id: "InviteBody" },
);

/** PATCH /v2/projects/:id/members/:userId. */
export const MemberBody = Type.Object(
  {
    password: Type.Optional(Type.Never({ error: "A member's password cannot be changed by a project; only the person can change it" })),
    role: Role,
  },
  { $id: "MemberBody" },
);

/** POST /v2/invitations/accept: a new account sets its password here; an existing one signs in and sends none. */
export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, error: "token is the invitation token you were given (inv_...)" }),
    password: Type.Optional(Type.Unknown({ description: "For a new account: 8 to 200 characters. Refused for an existing account." })),
  },
  { $id: "AcceptInvitationBody" },
);
/** Checked by the domain once it knows the account is new (an existing one refuses any password). */
export const NewAccountPassword = passwordOf("password");

export const ProjectListItem = record(
  { id: Uuid, name: Type.String(), slug: Type.String(), role: Type.String(), lastOpenedAt: nullable(Time) },
  { $id: "ProjectListItem" },
);
export const ProjectList = listOf(ProjectListItem);
export const CreatedProject = record(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String(),
    role: Type.String(),
    lastOpenedAt: Time,
    createdAt: Time,
    backup: Type.String({ description: "off, or whether the replica holds the new project." }),
  },
  { $id: "CreatedProject" },
);
export const ProjectRecord = record(
  { id: Uuid, name: Type.String(), slug: Type.String(), role: Type.Optional(nullable(Type.String())), createdAt: Time, updatedAt: Time },
  { $id: "ProjectRecord" },
);
export const CurrentProject = record({ projectId: Uuid });
export const Member = record({ userId: Uuid, email: Type.String(), name: nullable(Type.String()), role: Type.String(), createdAt: Time }, { $id: "Member" });
export const MemberList = listOf(Member);
export const Invitation = record(
  {
    id: Uuid,
    email: Type.String(),
    role: Type.String(),
    status: oneOf(["pending", "accepted", "expired"]),
    createdAt: Time,
    createdBy: Uuid,
    expiresAt: Time,
    acceptedAt: nullable(Time),
  },
  { $id: "Invitation" },
);
export const InvitationList = listOf(Invitation);
export const NewInvitation = record({
  invitation: record({
    id: Uuid,
    email: Type.String(),
    role: Type.String(),
    expiresAt: Time,
    token: Type.Optional(Type.String({ description: "Without mail: the link's token, shown once." })),
    sent: Type.Optional(Type.Literal(true, { description: "With mail: the invitation was mailed; no token is shown." })),
  }),
});

/** POST /v2/projects/:id/transfer-ownership: the member who becomes owner; you become admin. */
export const TransferOwnershipBody = Type.Object(
  {
    userId: Type.String({
      pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
      error: "userId must be the id of a member of the project",
    }),
  },
  { $id: "TransferOwnershipBody", additionalProperties: false, unknown: "{field} is not part of a transfer; send { userId }" },
);

/** GET /v2/server: what the app must know before anyone signs in. */
export const ServerFacts = record(
  { mail: Type.Boolean({ description: 'The server sends mail (invitations, password resets): show "Forgot password?".' }) },
  { $id: "ServerFacts" },
);
export const JoinedProject = record({ project: record({ id: Uuid, name: Type.String(), slug: Type.String() }), role: Type.String() });
