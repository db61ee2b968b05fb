// The services every domain function receives: explicit dependencies, no globals. Everything an
// app keeps between requests lives here (caches, wake tables, the webhook sender). Types only:
// src/wire.ts (the composition root) builds them, once per app, so two apps in one process
// (tests, the benchmark) never share state, and this file loads nothing at run time.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Clock, Ids } from "./infra/clock.ts";
import type { Logger } from "./infra/log.ts";
import type { ControlDb } from "./storage/sqlite.ts";
import type { ProjectPool } from "./storage/pool.ts";
import type { KeyAuth } from "./domain/keys/auth.ts";
import type { CapaMetrics } from "./infra/metrics.ts";
import type { InFlight, RateLimiter } from "./infra/limits.ts";
import type { EventSubscribers, Unit } from "./domain/unit-of-work.ts";
import type { WakeTable } from "./infra/wake.ts";
import type { FieldChangeWork } from "./domain/field-changes/work.ts";
import type { WebhookSender } from "./domain/webhooks/sender.ts";
import type { RenderCache } from "./infra/render-cache.ts";
import type { RequestInfos } from "./http/context.ts";
import type { ReadPool } from "./infra/read-pool.ts";
import type { PageRecorder } from "./domain/pages/service.ts";
import type { SignInThrottle } from "./domain/users/sign-in-throttle.ts";
import type { Passwords } from "./domain/users/passwords.ts";
import type { SecretBox } from "./infra/secret-box.ts";
import type { RevokedSessions } from "./domain/users/revocation.ts";
import type { ResetThrottle } from "./domain/users/reset-throttle.ts";
import type { MailSender } from "./domain/mail/outbox.ts";
import type { EdgePurger } from "./domain/edge/purger.ts";

export interface TokenSigner {
  sign(payload: Record<string, string | number>): Promise<string>;
  verify(token: string): Promise<Record<string, unknown> | false>;
}

/** Listeners told, after a commit, about changes that invalidate derived state (read caches, GraphQL schemas). */
export interface ChangeBus {
  /** Content of a project changed (publish, unpublish, delete). */
  content(projectId: string): void;
  /** A model of a project changed. */
  models(projectId: string): void;
  /** A key changed (revoked, rotated, edited, deleted). */
  key(keyId: string): void;
  on(kind: "content" | "models" | "key", fn: (id: string) => void): void;
}

export interface Services {
  config: Config;
  clock: Clock;
  ids: Ids;
  log: Logger;
  /** The control file; `unit` is its open unit of work (src/domain/unit-of-work.ts). */
  control: { sqlite: Database; db: ControlDb; unit?: Unit | null };
  projects: ProjectPool;
  tokens: TokenSigner;
  changes: ChangeBus;
  /** Subscribers to written events (webhook deliveries), registered by feature modules. */
  events: EventSubscribers;
  /** Key authentication (cached). */
  keys: KeyAuth;
  /** Counters and histograms for /metrics (src/infra/metrics.ts says how to add one). */
  metrics: CapaMetrics;
  /** Read limits: in-flight counts (entries reads and GraphQL documents together) and the per-key rate. */
  limits: { inFlight: InFlight; rate: RateLimiter };
  /** Rendered production answers, invalidated per project (entries reads and GraphQL GET). */
  renderCache: RenderCache;
  /** Which projects have background work due, per loop, so a tick opens only those files. */
  wake: { actions: WakeTable; batches: WakeTable; fieldChanges: FieldChangeWork; trash: WakeTable };
  /** The webhook sender (its lanes, quiet times and TLS options). */
  webhooks: WebhookSender;
  /** Per-request facts (id, URL, headers every answer carries), by request. */
  requests: RequestInfos;
  /** The worker threads that run uncached entries reads (and GraphQL's), started lazily. */
  reads: ReadPool;
  /** Page reads (Svc-Page) noted on the read path, written in batches. */
  pages: PageRecorder;
  /** Hardening (issue 15 item 11): per-account and per-IP sign-in throttle, bounded, on the injected clock. */
  signIns: SignInThrottle;
  /** Password hashes at the configured argon2id cost (domain/users/passwords.ts). */
  passwords: Passwords;
  /** Hardening (issue 15 item 7): seals secrets at rest with the data directory's secret.key. */
  secretBox: SecretBox;
  /** Sessions signed out before their tokens expire, in memory and in the control file (issue 24 item 3). */
  revoked: RevokedSessions;
  /** The mail outbox's sender; null when the server sends no mail (no CAPA_SMTP_URL). */
  mail: MailSender | null;
  /** How often password reset mail may be asked for, per address and per client IP. */
  resets: ResetThrottle;
  /** The edge purger: sends the purge outbox to the targets of CAPA_EDGE_PURGE (docs/scaling.md). */
  edge: EdgePurger;
}
