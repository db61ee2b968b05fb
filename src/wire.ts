// The composition root: the one place that builds an app's services, from its configuration and
// the injected clock, ids and logger. Everything that keeps state between requests is made here,
// once per app (src/services.ts has the types); nothing else constructs services.
import { jwt } from "@elysiajs/jwt";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { systemClock, systemIds, type Clock, type Ids } from "./infra/clock.ts";
import { createLogger, type Logger } from "./infra/log.ts";
import { openControl, openProjectFile } from "./storage/sqlite.ts";
import { ProjectPool } from "./storage/pool.ts";
import { KeyAuth } from "./domain/keys/auth.ts";
import { createMetrics } from "./infra/metrics.ts";
import { InFlight, RateLimiter } from "./infra/limits.ts";
import { EventSubscribers } from "./domain/unit-of-work.ts";
import { serverSecret } from "./domain/secrets.ts";
import { WakeTable } from "./infra/wake.ts";
import { nextActionDue, projectsOnDisk } from "./domain/scheduling/wake.ts";
import { nextBatchDue } from "./domain/bulk/wake.ts";
import { nextPurgeDue } from "./domain/entries/trash.ts";
import { FieldChangeWork } from "./domain/field-changes/work.ts";
import { WebhookSender } from "./domain/webhooks/sender.ts";
import { RenderCache } from "./infra/render-cache.ts";
import { RequestInfos } from "./http/context.ts";
import { ReadPool } from "./infra/read-pool.ts";
import { PageRecorder } from "./domain/pages/service.ts";
import { SignInThrottle } from "./domain/users/sign-in-throttle.ts";
import { Passwords } from "./domain/users/passwords.ts";
import { SecretBox } from "./infra/secret-box.ts";
import { RevokedSessions } from "./domain/users/revocation.ts";
import { ResetThrottle } from "./domain/users/reset-throttle.ts";
import { MailSender } from "./domain/mail/outbox.ts";
import { smtpMailer } from "./infra/mailer.ts";
import { EdgePurger } from "./domain/edge/purger.ts";
import type { ChangeBus, Services } from "./services.ts";

export interface ServiceDeps {
  clock?: Clock;
  ids?: Ids;
  log?: Logger;
}

/** A ChangeBus that calls its listeners synchronously. */
export function createChangeBus(): ChangeBus {
  const listeners = { content: [] as ((id: string) => void)[], models: [] as ((id: string) => void)[], key: [] as ((id: string) => void)[] };
  return {
    content: (id) => {
      for (const f of listeners.content) f(id);
    },
    models: (id) => {
      for (const f of listeners.models) f(id);
    },
    key: (id) => {
      for (const f of listeners.key) f(id);
    },
    on: (kind, fn) => listeners[kind].push(fn),
  };
}

/**
 * Opens the control file and builds every service of one app. Members that need the services
 * themselves (key lookups, the wake tables' scans, the sender) get them through a closure that
 * is only called after this returns.
 */
export function createServices(config: Config, deps: ServiceDeps = {}): Services {
  const clock = deps.clock ?? systemClock;
  // Replicated files are opened so that only Litestream checkpoints them (storage/sqlite.ts).
  const replicated = config.replicaUrl !== null;
  const control = openControl(join(config.dataDir, "control.sqlite"), { replicated });
  // Hardening (issue 15 item 7): secrets at rest are sealed with the data directory's key.
  const secretBox = SecretBox.forDataDir(config.dataDir);
  const log = deps.log ?? createLogger(config.logLevel);
  const secret = config.jwtSecret ?? serverSecret(control.db, secretBox, log, "jwt", () => crypto.getRandomValues(new Uint8Array(32)).toBase64());
  const signer = jwt({ name: "jwt", secret, alg: "HS256" }).decorator.jwt;
  // read-perf: each connection's memory is bounded by configuration (storage/sqlite.ts).
  const fileOptions = { replicated, cacheKiB: config.sqliteCacheKiB, mmapBytes: config.sqliteMmapBytes };
  const projects = new ProjectPool(join(config.dataDir, "projects"), config.openProjectsMax, config.projectIdleMs, fileOptions, openProjectFile);
  const metrics = createMetrics();
  const changes = createChangeBus();
  const renderCache = new RenderCache(config.renderCacheBytes); // read-perf: CAPA_RENDER_CACHE_MB
  changes.on("content", (pid) => renderCache.invalidate(pid));
  changes.on("models", (pid) => renderCache.invalidate(pid));
  const ids = deps.ids ?? systemIds;
  const self = (): Services => s;
  const s: Services = {
    config,
    clock,
    ids,
    log,
    control,
    projects,
    tokens: {
      sign: (payload) => signer.sign(payload),
      verify: async (token) => (await signer.verify(token, { currentDate: new Date(clock.now()) })) || false,
    },
    changes,
    events: new EventSubscribers(),
    keys: new KeyAuth(self, config.keyCacheMax), // read-perf: CAPA_KEY_CACHE
    metrics,
    limits: { inFlight: new InFlight(), rate: new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst) },
    renderCache,
    wake: {
      actions: new WakeTable(
        () => projectsOnDisk(s),
        (id) => (projects.exists(id) ? nextActionDue(projects.get(id)) : null),
      ),
      batches: new WakeTable(
        () => projectsOnDisk(s),
        (id) => (projects.exists(id) ? nextBatchDue(projects.get(id)) : null),
      ),
      fieldChanges: new FieldChangeWork(self),
      // When each project's trash next holds an entry older than CAPA_TRASH_DAYS.
      trash: new WakeTable(
        () => projectsOnDisk(s),
        (id) => (projects.exists(id) ? nextPurgeDue(projects.get(id), config.trashDays) : null),
      ),
    },
    webhooks: new WebhookSender(self),
    requests: new RequestInfos(() => ids.uuid()),
    reads: new ReadPool(
      {
        size: config.readPoolSize,
        places: config.readPlaces,
        dir: join(config.dataDir, "projects"),
        // read-perf: each worker keeps its own few files open, with the same connection bounds.
        openMax: config.readWorkerOpenProjects,
        idleMs: config.projectIdleMs,
        waitMs: config.readWaitMs,
        timeoutMs: config.readTimeoutMs,
        fileOptions,
      },
      log,
    ),
    pages: new PageRecorder(self),
    // Hardening (issue 15 item 11): the sign-in throttle.
    signIns: new SignInThrottle(clock),
    passwords: new Passwords(config.passwordCost),
    secretBox,
    revoked: new RevokedSessions(clock),
    mail: config.mail ? new MailSender(self, smtpMailer(config.mail)) : null,
    resets: new ResetThrottle(clock),
    edge: new EdgePurger(self, config.edge.targets, metrics),
  };
  s.revoked.load(control.db);
  // Workers keep their own handles and model caches: they are told about model changes and removed files.
  changes.on("models", (projectId) => s.reads.broadcast({ type: "models", projectId }));
  projects.onRemove((projectId) => s.reads.broadcast({ type: "drop", projectId }));
  s.reads.onRefuse = (limit) => metrics.refusals.inc({ limit });
  s.limits.inFlight.onRefuse = (limit) => metrics.refusals.inc({ limit });
  changes.on("key", (id) => s.keys.evict(id));
  return s;
}
