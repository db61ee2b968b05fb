// The types of the project, member, invitation, session, profile, home and search routes'
// answers (src/http/v2/projects.ts, sessions.ts, profile.ts, shell.ts), made from their TypeBox
// models; their bodies are in bodies.ts. Type-only.
import type { Static } from "@sinclair/typebox";
import type { Home } from "../domain/home/bodies.ts";
import type {
  CreatedProject as CreatedProjectModel,
  Invitation as InvitationModel,
  JoinedProject as JoinedProjectModel,
  Member as MemberModel,
  NewInvitation as NewInvitationModel,
  ProjectListItem,
  ProjectRecord as ProjectRecordModel,
  ServerFacts as ServerFactsModel,
} from "../domain/projects/bodies.ts";
import type { Profile, ResetAsked as ResetAskedModel, Session as SessionModel } from "../domain/users/bodies.ts";
import type { SearchAnswer as SearchAnswerModel } from "../domain/search/bodies.ts";

/** A project the person belongs to (GET /v2/projects), one they made, and one as read or renamed. */
export type Project = Static<typeof ProjectListItem>;
export type CreatedProject = Static<typeof CreatedProjectModel>;
export type ProjectRecord = Static<typeof ProjectRecordModel>;

/** A member of a project (GET /v2/projects/:id/members). */
export type Member = Static<typeof MemberModel>;

/** An invitation as the list shows it (never its token), and a new or reissued one. */
export type Invitation = Static<typeof InvitationModel>;
export type NewInvitation = Static<typeof NewInvitationModel>;

/** Accepting an invitation signed in (200) or as a new account (201, a session). */
export type JoinedProject = Static<typeof JoinedProjectModel>;
export type Session = Static<typeof SessionModel>;

/** What the app needs before sign-in (GET /v2/server), and the answer to asking for a reset link. */
export type ServerFacts = Static<typeof ServerFactsModel>;
export type ResetAsked = Static<typeof ResetAskedModel>;

/** The signed-in person (GET /v2/user/me). */
export type Me = Static<typeof Profile>;

/** The home screen in one answer (GET /v2/home), and one of its recent entries. */
export type HomeAnswer = Static<typeof Home>;
export type HomeEntry = HomeAnswer["recentEntries"][number];

/** The command palette's search (GET /v2/search). */
export type SearchAnswer = Static<typeof SearchAnswerModel>;
