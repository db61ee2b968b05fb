// A person's own account: their profile (id, e-mail, name) and their password. Only the person
// changes these, signed in as themselves (decisions.md section 2: no one ever sets another
// person's password); the operator's CLI (`capa user password`) stays for accounts on the server.
import { eq } from "drizzle-orm";
import { users } from "../../storage/control/schema.ts";
import type { Static } from "@sinclair/typebox";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { getUser, replacePassword, type User } from "./service.ts";
import { startSession } from "./sessions.ts";
import type { PasswordBody, ProfileBody } from "./bodies.ts";

/** What `GET /v2/user/me` answers. */
export interface Profile {
  id: string;
  email: string;
  name: string | null;
}

function userOrFail(s: Services, userId: string): User {
  const user = getUser(s, userId);
  // The token was valid a moment ago; an account removed since is a spent session.
  if (!user) fail("invalid_token");
  return user;
}

function profileOf(u: User): Profile {
  return { id: u.id, email: u.email, name: u.name };
}

/** `GET /v2/user/me`: the signed-in person's own profile. */
export function getProfile(s: Services, userId: string): Profile {
  return profileOf(userOrFail(s, userId));
}

/**
 * `PATCH /v2/user/me { name }`: a name of 1 to 100 characters (edge spaces trimmed), or null to
 * clear it. The e-mail is the sign-in name and is not changed here.
 */
export function updateProfile(s: Services, userId: string, body: Static<typeof ProfileBody>): Profile {
  // The body's model (ProfileBody) allows 1 to 100 characters once edge spaces are trimmed.
  const name = body.name === null ? null : body.name.trim();
  userOrFail(s, userId);
  s.control.db.update(users).set({ name }).where(eq(users.id, userId)).run();
  return getProfile(s, userId);
}

/**
 * `POST /v2/user/password { currentPassword, newPassword }`. The current password is checked as
 * sign-in checks it, under the same throttle (so a stolen access token cannot guess it quickly);
 * the new one follows the rule of every password (8 to 200 characters). On success every session
 * of the person ends: the session version moves (older access tokens are refused) and every
 * refresh token is spent. The caller gets a new session, as sign-in answers, so the device that
 * changed the password stays signed in.
 */
export async function changePassword(s: Services, userId: string, body: Static<typeof PasswordBody>, ip: string) {
  const next = body.newPassword;
  const user = userOrFail(s, userId);
  const settle = s.signIns.begin(user.email, ip);
  const ok = user.passwordHash !== null && (await s.passwords.verify(body.currentPassword, user.passwordHash));
  settle(ok);
  if (!ok) fail("wrong_password", { param: "currentPassword", extra: { field: "currentPassword" } });
  replacePassword(s, userId, await s.passwords.hash(next));
  const changed = getUser(s, userId)!;
  return startSession(s, changed);
}
