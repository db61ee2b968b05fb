// The control file (data/control.sqlite): people, sessions, projects, memberships, API keys and
// server secrets. Timestamps are ISO 8601 UTC strings with milliseconds, so they sort as text.
import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    lastProjectId: text("last_project_id"),
    createdAt: text("created_at").notNull(),
    // Access tokens carry the version they were issued under; changing the password moves it,
    // so every earlier access token stops working at once (docs/security.md, "Your own account").
    sessionVersion: integer("session_version").notNull().default(0),
  },
  (t) => [uniqueIndex("users_email").on(t.email)],
);

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: text("created_at").notNull(),
    // The session (one sign-in and the refreshes that follow it) the token belongs to; its access
    // tokens carry the same id as the claim `sid`. Null on tokens made before sessions had ids.
    sessionId: text("session_id"),
  },
  (t) => [uniqueIndex("refresh_tokens_hash").on(t.tokenHash), index("refresh_tokens_user").on(t.userId), index("refresh_tokens_session").on(t.sessionId)],
);

/**
 * Sessions ended by sign-out, kept until the last access token the session could hold has
 * expired; the server keeps them in memory too, so the check on every /v2 request costs no query
 * (docs/security.md, "Signing out").
 */
export const revokedSessions = sqliteTable(
  "revoked_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    userId: text("user_id").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("revoked_sessions_user").on(t.userId), index("revoked_sessions_expiry").on(t.expiresAt)],
);

/** One-use password reset links (decisions.md section 15): the token is mailed, stored as its SHA-256. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [uniqueIndex("password_resets_token").on(t.tokenHash), index("password_resets_user").on(t.userId)],
);

/**
 * Mail to send (invitations, password resets), written in the transaction that asks for it, so a
 * crash never loses one. A row holds no secret: the link's token is made when the mail is sent.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    /** `invitation` or `password_reset`. */
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    /** The invitation's id; null for a password reset. */
    ref: text("ref"),
    createdAt: text("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    lastError: text("last_error"),
  },
  (t) => [index("mail_outbox_due").on(t.nextAttemptAt)],
);

export const projects = sqliteTable(
  "projects",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    subscriptionActive: integer("subscription_active", { mode: "boolean" }).notNull().default(true),
    timezone: text("timezone"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("projects_slug").on(t.slug)],
);

export const memberships = sqliteTable(
  "memberships",
  {
    projectId: text("project_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role").notNull(),
    lastOpenedAt: text("last_opened_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("memberships_user").on(t.userId)],
);

/**
 * Invitations to a project (decisions.md section 2): members join only by accepting one. The
 * token is shown once, to the inviter, and stored as its SHA-256; it is single use and expires.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedBy: text("accepted_by"),
  },
  (t) => [uniqueIndex("invitations_token").on(t.tokenHash), index("invitations_project").on(t.projectId, t.createdAt)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    name: text("name").notNull(),
    /** `scoped` or `legacy`. */
    family: text("family").notNull(),
    environment: text("environment").notNull(),
    /** Legacy keys: read, write, delete or agent. */
    permission: text("permission"),
    /** JSON list of expanded scope strings. */
    scopes: text("scopes").notNull().default("[]"),
    keyHash: text("key_hash").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    apiVersion: text("api_version"),
    expiresAt: text("expires_at"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** JSON list of origins; empty means any. */
    allowedOrigins: text("allowed_origins").notNull().default("[]"),
    rotatedFromId: text("rotated_from_id"),
    /** Set on a predecessor once it has been rotated. */
    rotatedToId: text("rotated_to_id"),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_project").on(t.projectId)],
);

export const keyDomains = sqliteTable(
  "key_domains",
  {
    keyId: text("key_id").notNull(),
    domain: text("domain").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.domain] })],
);

export const serverSecrets = sqliteTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Projects that have webhook endpoints, so the webhook sender looks only into their files
 * instead of opening every project each second.
 */
export const webhookProjects = sqliteTable("webhook_projects", {
  projectId: text("project_id").primaryKey(),
  createdAt: text("created_at").notNull(),
});

/**
 * The edge purge outbox of the control file (decisions.md 14; src/domain/edge/outbox.ts): purges
 * of what lives here, keys (`key:<id>`) and projects (`project:<id>`), written in the transaction
 * of the key or project change. Same shape as the project files' `edge_purges`.
 */
export const edgePurges = sqliteTable(
  "edge_purges",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    target: text("target").notNull(),
    /** JSON list of tags. */
    tags: text("tags").notNull(),
    createdAt: text("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    lastError: text("last_error"),
  },
  (t) => [index("edge_purges_due").on(t.target, t.nextAttemptAt)],
);
