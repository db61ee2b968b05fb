// People and projects: sign-in, sessions, a person's own profile and password, projects and members;
// the job that forgets signed-out sessions once their tokens have expired.
import { Elysia } from "elysia";
import { sessionRoutes } from "../http/v2/sessions.ts";
import { projectRoutes } from "../http/v2/projects.ts";
import { profileRoutes } from "../http/v2/profile.ts";
import { pruneRevokedSessions } from "../domain/users/revocation.ts";
import type { Feature } from "./feature.ts";

export const people: Feature = ({ s, jobs, replication }) => {
  jobs.add({ name: "sessions", pattern: "0 */10 * * * *", run: (now) => pruneRevokedSessions(s, now) });
  return new Elysia().use(sessionRoutes(s)).use(profileRoutes(s)).use(projectRoutes(s, replication));
};
