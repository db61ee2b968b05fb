// People and projects: sign-in, sessions, password reset by mail, a person's own profile and
// password, projects and members; the job that forgets signed-out sessions and spent reset links,
// and, when the server sends mail, the composers of its mails and the outbox's job.
import { Elysia } from "elysia";
import { sessionRoutes } from "../http/v2/sessions.ts";
import { projectRoutes } from "../http/v2/projects.ts";
import { profileRoutes } from "../http/v2/profile.ts";
import { passwordResetRoutes } from "../http/v2/password-reset.ts";
import { pruneRevokedSessions } from "../domain/users/revocation.ts";
import { pruneResets, resetMail } from "../domain/users/password-reset.ts";
import { invitationMail } from "../domain/projects/invitation-mail.ts";
import type { Feature } from "./feature.ts";

export const people: Feature = ({ s, jobs, replication, onClose }) => {
  jobs.add({
    name: "sessions",
    pattern: "0 */10 * * * *",
    run: (now) => {
      pruneRevokedSessions(s, now);
      pruneResets(s, now);
    },
  });
  const mail = s.mail;
  if (mail) {
    mail.on("invitation", (row) => invitationMail(s, row));
    mail.on("password_reset", (row) => resetMail(s, row));
    // New rows wake the sender at once; the job sends retries and what a crash left behind.
    jobs.add({ name: "mail", pattern: "*/15 * * * * *", run: () => mail.drain() });
    onClose(() => void mail.stop());
  }
  return { management: () => new Elysia().use(sessionRoutes(s)).use(passwordResetRoutes(s)).use(profileRoutes(s)).use(projectRoutes(s, replication)) };
};
