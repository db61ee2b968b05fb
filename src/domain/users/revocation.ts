// Ending sessions before their tokens expire (docs/security.md, "Signing out").
//
// A session is one sign-in and the refreshes that follow it: its refresh tokens share a
// `session_id` and its access tokens carry the same id as the claim `sid`. Signing out revokes
// that one session: its refresh tokens are spent and its id goes on a revocation list until the
// last access token it could hold has expired. The list is kept in memory and written through to
// the control file (loaded again at start), so the check on every /v2 request is one Set lookup
// and no query. Ending every session of a person (sign out everywhere, a new or reset password)
// moves the account's session version instead, which the authentication already reads with the
// account's row; the person's entries on the list are then no longer needed and are dropped.
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { refreshTokens, revokedSessions, users } from "../../storage/control/schema.ts";
import { iso, type Clock } from "../../infra/clock.ts";
import type { ControlDb } from "../../storage/sqlite.ts";
import type { Services } from "../../services.ts";
import { writeControl } from "../unit-of-work.ts";

/** The longest an access token lives (sign-in's 24 hours; a refreshed one lives 12). */
export const ACCESS_TTL_S = 24 * 3600;

/**
 * Revoked sessions one person may have on the list at once. A person who signs out more often than
 * this within a day (each sign-out needs a sign-in, which costs an argon2 hash) is signed out
 * everywhere instead, which drops their entries, so no account can grow the list without bound.
 */
export const MAX_REVOKED_PER_PERSON = 1000;

/** The revocation list in memory: session id -> when its last access token expires (epoch ms). */
export class RevokedSessions {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Reads the list from the control file (at start); entries already past their time are skipped. */
  load(db: ControlDb): void {
    const now = iso(this.clock.now());
    for (const r of db.select().from(revokedSessions).all()) {
      if (r.expiresAt > now) this.until.set(r.sessionId, Date.parse(r.expiresAt));
    }
  }

  /** Whether a session was signed out. The hot path of every bearer token: one Map lookup. */
  has(sessionId: string): boolean {
    return this.until.has(sessionId);
  }

  /** Entries held, for tests and the closing figures. */
  get size(): number {
    return this.until.size;
  }

  /** @internal Memory only; `revokeSession` writes the row first. */
  add(sessionId: string, untilMs: number): void {
    this.until.set(sessionId, untilMs);
  }

  /** @internal Memory only. */
  drop(sessionIds: Iterable<string>): void {
    for (const id of sessionIds) this.until.delete(id);
  }

  /** @internal Drops entries whose tokens have all expired; memory only. */
  prune(now: number): void {
    for (const [id, t] of this.until) if (t <= now) this.until.delete(id);
  }
}

/**
 * Ends one session of a person: its refresh tokens are spent and its access tokens refused from
 * now on. Past MAX_REVOKED_PER_PERSON live entries the person is signed out everywhere instead.
 */
export function revokeSession(s: Services, sessionId: string, userId: string): void {
  const now = s.clock.now();
  const until = now + ACCESS_TTL_S * 1000;
  writeControl(s, (afterCommit) => {
    spendRefreshTokens(s, eq(refreshTokens.sessionId, sessionId), iso(now));
    const live = s.control.sqlite
      .query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM revoked_sessions WHERE user_id = ? AND expires_at > ?")
      .get(userId, iso(now))!.n;
    if (live >= MAX_REVOKED_PER_PERSON) {
      endAllSessions(s, userId);
      return;
    }
    s.control.db
      .insert(revokedSessions)
      .values({ sessionId, userId, expiresAt: iso(until) })
      .onConflictDoUpdate({ target: revokedSessions.sessionId, set: { expiresAt: iso(until) } })
      .run();
    afterCommit(() => s.revoked.add(sessionId, until));
  });
}

/**
 * Ends every session of a person, inside the caller's unit of work or one of its own: the session
 * version moves (every access token issued before is refused) and every refresh token is spent.
 */
export function endAllSessions(s: Services, userId: string): void {
  writeControl(s, (afterCommit) => {
    s.control.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, userId))
      .run();
    spendRefreshTokens(s, eq(refreshTokens.userId, userId), iso(s.clock.now()));
    // The new version refuses these sessions' tokens already; their entries only took room.
    const listed = s.control.db.select({ id: revokedSessions.sessionId }).from(revokedSessions).where(eq(revokedSessions.userId, userId)).all();
    s.control.db.delete(revokedSessions).where(eq(revokedSessions.userId, userId)).run();
    afterCommit(() => s.revoked.drop(listed.map((r) => r.id)));
  });
}

/** Forgets revoked sessions whose access tokens have all expired (a job; docs/security.md). */
export function pruneRevokedSessions(s: Services, now: number): void {
  s.control.db
    .delete(revokedSessions)
    .where(lte(revokedSessions.expiresAt, iso(now)))
    .run();
  s.revoked.prune(now);
}

function spendRefreshTokens(s: Services, which: ReturnType<typeof eq>, now: string): void {
  s.control.db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(which, isNull(refreshTokens.usedAt)))
    .run();
}
