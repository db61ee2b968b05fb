// People and sessions: accounts with argon2id passwords, JWT access tokens (24 h) and opaque,
// single-use refresh tokens stored as SHA-256 hashes.
import { and, eq, isNull, sql } from "drizzle-orm";
import { users, refreshTokens } from "../../storage/control/schema.ts";
import { AppError, badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { sha256Hex, randomToken } from "../../infra/crypto.ts";
import { writeControl } from "../unit-of-work.ts";
import { checkValue } from "../access/body-check.ts";
import { Email, passwordOf } from "./bodies.ts";

export const ACCESS_TTL_S = 24 * 3600;
export const REFRESHED_TTL_S = 12 * 3600;
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

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
    passwordHash: input.password === null ? null : (input.passwordHash ?? Bun.password.hashSync(input.password)),
    lastProjectId: null,
    createdAt: iso(s.clock.now()),
    sessionVersion: 0,
  };
  s.control.db.insert(users).values(row).run();
  return row;
}

async function issueTokens(s: Services, user: User, ttlS: number) {
  const nowS = Math.floor(s.clock.now() / 1000);
  // `sv` is the account's session version: a password change moves it and ends older tokens.
  const accessToken = await s.tokens.sign({ sub: user.id, sv: user.sessionVersion, iat: nowS, exp: nowS + ttlS });
  const refreshToken = `rt_${randomToken(40)}`;
  s.control.db
    .insert(refreshTokens)
    .values({
      id: s.ids.uuid(),
      userId: user.id,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: iso(s.clock.now() + REFRESH_TOKEN_TTL_MS),
      usedAt: null,
      createdAt: iso(s.clock.now()),
    })
    .run();
  return { accessToken, refreshToken };
}

/** A new session for a person who has just proved who they are (an accepted invitation): what sign-in answers. */
export function startSession(s: Services, user: User) {
  return issueTokens(s, user, ACCESS_TTL_S);
}

/**
 * Signs a person in: `{ accessToken, refreshToken }`, `401 Invalid credentials`, or `429
 * sign_in_throttled` while the e-mail or the client IP is locked (the same for unknown e-mails,
 * so the throttle reveals no more than the answer does).
 */
export async function login(s: Services, email: unknown, password: unknown, ip = "local") {
  if (typeof email !== "string" || typeof password !== "string") fail("invalid_credentials");
  const settle = s.signIns.begin(email, ip);
  const user = findUserByEmail(s, email);
  // Verify against a dummy hash when the account is unknown, so timing does not reveal which.
  const hash = user?.passwordHash ?? dummyHash();
  const ok = await Bun.password.verify(password, hash);
  settle(Boolean(user?.passwordHash && ok));
  if (!user?.passwordHash || !ok) fail("invalid_credentials");
  return issueTokens(s, user, ACCESS_TTL_S);
}

// The dummy hash must cost what a real one costs (Bun's argon2id defaults, as createUser uses);
// a cheaper one would answer unknown e-mails measurably faster and reveal which accounts exist.
// It is a constant (made once with Bun.password.hashSync), so nothing is computed or kept at run time.
const DUMMY_HASH = "$argon2id$v=19$m=65536,t=2,p=1$Xftgozwy+ufwjhyEPoQa40m+tFgZpqtCA3TjG1C3qsg$Jt0JHhT9Q6IakLunLJE497q/vYCRHxcT8QXt4/KGtvU";
function dummyHash(): string {
  return DUMMY_HASH;
}

/** Exchanges a refresh token (single use) for a new 12-hour access token and a new refresh token. */
export async function refresh(s: Services, token: unknown) {
  if (typeof token !== "string" || token.length === 0) badField("refreshToken", "refreshToken is required");
  const now = iso(s.clock.now());
  const user = writeControl(s, () => {
    const row = s.control.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(token)))
      .get();
    if (!row || row.usedAt || row.expiresAt <= now) return null;
    s.control.db.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id)).run();
    return getUser(s, row.userId) ?? null;
  });
  if (!user) throw new AppError("invalid_token", { message: "The refresh token is not valid." });
  return issueTokens(s, user, REFRESHED_TTL_S);
}

/** Ends a session: the refresh token can no longer be used (an unknown one changes nothing). */
export function logout(s: Services, token: string): void {
  s.control.db
    .update(refreshTokens)
    .set({ usedAt: iso(s.clock.now()) })
    .where(eq(refreshTokens.tokenHash, sha256Hex(token)))
    .run();
}

/** How long a refresh token (and the session cookie holding it) lives. */
export const REFRESH_TTL_MS = REFRESH_TOKEN_TTL_MS;

/** Sets a person's password (the operator's CLI); like a change of one's own, it ends every session. */
export function setPassword(s: Services, userId: string, password: string): void {
  replacePassword(s, userId, Bun.password.hashSync(checkPassword(password)));
}

/**
 * Stores a new password hash and ends every session of the account, in one transaction: the
 * session version moves (access tokens issued before are refused) and every refresh token is spent.
 */
export function replacePassword(s: Services, userId: string, hash: string): void {
  const now = iso(s.clock.now());
  writeControl(s, () => {
    s.control.db
      .update(users)
      .set({ passwordHash: hash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, userId))
      .run();
    s.control.db
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.usedAt)))
      .run();
  });
}

/** Whether any account exists; a data directory without one is on its first start. */
export function hasUsers(s: Services): boolean {
  return !!s.control.db.select({ id: users.id }).from(users).limit(1).get();
}
