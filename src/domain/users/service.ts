// People: accounts with argon2id passwords. Their sessions (sign-in, refresh, sign-out) are in
// sessions.ts; ending them early in revocation.ts.
import { eq } from "drizzle-orm";
import { users } from "../../storage/control/schema.ts";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { writeControl } from "../unit-of-work.ts";
import { endAllSessions } from "./revocation.ts";
import { checkValue } from "../access/body-check.ts";
import { Email, passwordOf } from "./bodies.ts";

export type User = typeof users.$inferSelect;

/** Normalises and checks an e-mail address. */
export function normalEmail(email: unknown): string {
  checkValue(Email, email, "email");
  return (email as string).trim().toLowerCase();
}

/** Every password, wherever it is set: 8 to 200 characters (the models' rule, for the CLI too). */
export function checkPassword(password: unknown, field = "password"): string {
  checkValue(passwordOf(field), password, field);
  return password as string;
}

export function findUserByEmail(s: Services, email: string): User | undefined {
  return s.control.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

export function getUser(s: Services, id: string): User | undefined {
  return s.control.db.select().from(users).where(eq(users.id, id)).get();
}

/**
 * Creates an account; `password` may be null (an account that cannot sign in yet). `passwordHash`
 * is `password` hashed ahead (the first start's owner, owner-password.ts); the rules still apply.
 */
export function createUser(s: Services, input: { email: string; password: string | null; passwordHash?: string; name?: string | null }): User {
  const email = normalEmail(input.email);
  if (findUserByEmail(s, email)) fail("conflict", { message: "An account with that e-mail already exists.", extra: { field: "email" } });
  if (input.password !== null) checkPassword(input.password);
  const row: User = {
    id: s.ids.uuid(),
    email,
    name: input.name ?? null,
    passwordHash: input.password === null ? null : (input.passwordHash ?? s.passwords.hashSync(input.password)),
    lastProjectId: null,
    createdAt: iso(s.clock.now()),
    sessionVersion: 0,
  };
  s.control.db.insert(users).values(row).run();
  return row;
}

/** Sets a person's password (the operator's CLI); like a change of one's own, it ends every session. */
export function setPassword(s: Services, userId: string, password: string): void {
  replacePassword(s, userId, s.passwords.hashSync(checkPassword(password)));
}

/**
 * Stores a new password hash and ends every session of the account, in one transaction: the
 * session version moves (access tokens issued before are refused) and every refresh token is spent.
 */
export function replacePassword(s: Services, userId: string, hash: string): void {
  writeControl(s, () => {
    s.control.db.update(users).set({ passwordHash: hash }).where(eq(users.id, userId)).run();
    endAllSessions(s, userId);
  });
}

/** Whether any account exists; a data directory without one is on its first start. */
export function hasUsers(s: Services): boolean {
  return !!s.control.db.select({ id: users.id }).from(users).limit(1).get();
}
