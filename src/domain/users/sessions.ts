// Sessions: sign-in, refresh and sign-out. A session is one sign-in (or accepted invitation, or
// password change) and the refreshes that follow it. Access tokens are JWTs (24 h; 12 h after a
// refresh) carrying the account (`sub`), its session version (`sv`) and the session (`sid`);
// refresh tokens are opaque, single use, stored as SHA-256 hashes with their session's id.
// Signing out ends the session at once (revocation.ts); the checks run in
// domain/access/authenticate.ts.
import { eq } from "drizzle-orm";
import { refreshTokens } from "../../storage/control/schema.ts";
import { AppError, badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import { writeControl } from "../unit-of-work.ts";
import { findUserByEmail, getUser, type User } from "./service.ts";
import { ACCESS_TTL_S, endAllSessions, revokeSession } from "./revocation.ts";

export { ACCESS_TTL_S };
/** How long a refreshed access token lives. */
export const REFRESHED_TTL_S = 12 * 3600;
/** How long a refresh token (and the session cookie holding it) lives. */
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * The tokens of a session: the refresh token's row is written before the access token is signed
 * (signing awaits), so a sign-out that runs meanwhile finds and spends it.
 */
async function issueTokens(s: Services, user: User, sessionId: string, ttlS: number) {
  const refreshToken = `rt_${randomToken(40)}`;
  s.control.db
    .insert(refreshTokens)
    .values({
      id: s.ids.uuid(),
      userId: user.id,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: iso(s.clock.now() + REFRESH_TTL_MS),
      usedAt: null,
      createdAt: iso(s.clock.now()),
      sessionId,
    })
    .run();
  const nowS = Math.floor(s.clock.now() / 1000);
  // `sv` is the account's session version (moved when every session ends); `sid` this session.
  const accessToken = await s.tokens.sign({ sub: user.id, sv: user.sessionVersion, sid: sessionId, iat: nowS, exp: nowS + ttlS });
  return { accessToken, refreshToken };
}

/** A new session id: 128 random bits. */
function newSessionId(): string {
  return `ses_${randomToken(22)}`;
}

/** A new session for a person who has just proved who they are: what sign-in answers. */
export function startSession(s: Services, user: User) {
  return issueTokens(s, user, newSessionId(), ACCESS_TTL_S);
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
  const hash = user?.passwordHash ?? s.passwords.dummy();
  const ok = await s.passwords.verify(password, hash);
  settle(Boolean(user?.passwordHash && ok));
  if (!user?.passwordHash || !ok) fail("invalid_credentials");
  return startSession(s, user);
}

/**
 * Exchanges a refresh token (single use) for a new 12-hour access token and a new refresh token of
 * the same session. A token from before sessions had ids starts one.
 */
export async function refresh(s: Services, token: unknown) {
  if (typeof token !== "string" || token.length === 0) badField("refreshToken", "refreshToken is required");
  const now = iso(s.clock.now());
  const found = writeControl(s, () => {
    const row = s.control.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(token)))
      .get();
    if (!row || row.usedAt || row.expiresAt <= now) return null;
    s.control.db.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id)).run();
    const user = getUser(s, row.userId);
    return user ? { user, sessionId: row.sessionId ?? newSessionId() } : null;
  });
  if (!found || s.revoked.has(found.sessionId)) throw new AppError("invalid_token", { message: "The refresh token is not valid." });
  return issueTokens(s, found.user, found.sessionId, REFRESHED_TTL_S);
}

/** The live session a refresh token belongs to, or null (unknown, used or expired). */
function sessionOfRefreshToken(s: Services, token: string): { userId: string; sessionId: string | null } | null {
  const row = s.control.db
    .select({ userId: refreshTokens.userId, sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt, expiresAt: refreshTokens.expiresAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256Hex(token)))
    .get();
  if (!row || row.usedAt || row.expiresAt <= iso(s.clock.now())) return null;
  return { userId: row.userId, sessionId: row.sessionId };
}

/** The credentials a sign-out may carry: the refresh token (body or cookie) and the bearer token's verified session. */
export interface SignOutProof {
  refreshToken: string | null;
  /** The bearer token's account and session when it passed every check, null when it did not, undefined when none was sent. */
  bearer: { userId: string; sessionId: string } | null | undefined;
}

/**
 * `POST /v2/user/logout`. Without `all`, ends the session of each credential sent (its refresh
 * tokens are spent, its access tokens refused); credentials that are unknown or over already
 * change nothing, so signing out twice is not an error. With `all: true`, ends every session of
 * the person the credentials prove, which needs one live credential: `401 invalid_token`
 * otherwise (`401 Authentication token required` with none at all).
 */
export function logout(s: Services, proof: SignOutProof, all: unknown): void {
  if (all !== undefined && typeof all !== "boolean") badField("all", "all must be true (sign out everywhere) or false");
  const fromRefresh = proof.refreshToken === null ? null : sessionOfRefreshToken(s, proof.refreshToken);
  if (all === true) {
    const userId = proof.bearer?.userId ?? fromRefresh?.userId;
    if (!userId) fail(proof.bearer === undefined && proof.refreshToken === null ? "auth_required" : "invalid_token");
    endAllSessions(s, userId);
    return;
  }
  if (proof.bearer) revokeSession(s, proof.bearer.sessionId, proof.bearer.userId);
  if (fromRefresh?.sessionId) revokeSession(s, fromRefresh.sessionId, fromRefresh.userId);
  else if (fromRefresh && proof.refreshToken) {
    // A refresh token from before sessions had ids: spending it is all there is to do.
    s.control.db
      .update(refreshTokens)
      .set({ usedAt: iso(s.clock.now()) })
      .where(eq(refreshTokens.tokenHash, sha256Hex(proof.refreshToken)))
      .run();
  }
}
