// The only reader of the environment. Every setting is read in loadConfig below, with its default, and has one row in
// docs/configuration.md; a bad value stops start-up with a one-line ConfigError.
import { resolve } from "node:path";
import { readMediaSettings, type MediaSettings } from "./domain/media/settings.ts";
import { readMailSettings, type MailSettings } from "./domain/mail/settings.ts";
import { machine } from "./infra/machine.ts";
import { readEdgeSettings, type EdgeSettings } from "./domain/edge/settings.ts";
import { DEFAULT_PASSWORD_COST, type PasswordCost } from "./domain/users/passwords.ts";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminEmail: string | null;
  adminPassword: string | null;
  demo: boolean;
  /** Base of the `docs` links in errors (CAPA_DOCS_URL); default the public URL, never a request's Host. */
  docsUrl: string;
  /** The read host's public base URL (links in events); default http://HOST:PORT. */
  publicUrl: string;
  /** The management host's base URL (links in events); default the public URL. */
  apiUrl: string;
  readHosts: string[];
  managementHosts: string[];
  /** Origins whose pages may call /v2 from a browser (CAPA_MANAGEMENT_ORIGINS; decisions.md 12); default none. */
  managementOrigins: string[];
  edgeSecret: string | null;
  replicaUrl: string | null;
  /** The S3 endpoint of a non-AWS store (MinIO, R2, ...); AWS itself needs none. */
  replicaEndpoint: string | null;
  replicaRegion: string | null;
  /** Project files per Litestream process (docs/backup.md). */
  replicaShardSize: number;
  /** How long a project file stays unwritten before Litestream stops watching it (docs/backup.md). */
  replicaIdleMs: number;
  /** Files Litestream watches at once before quiet ones leave early, the control file included (docs/backup.md). */
  replicaMaxWatched: number;
  /** A bearer token that may read /metrics besides the owners' sessions. */
  metricsToken: string | null;
  webhookAllowPrivate: boolean;
  webhookCaFile: string | null;
  fieldChanges: boolean;
  /** Days an entry stays in the trash before the purge job deletes it for ever (docs/editing.md). */
  trashDays: number;
  openProjectsMax: number;
  projectIdleMs: number;
  /** Project files each read worker keeps open (its own LRU, beside the main thread's). */
  readWorkerOpenProjects: number;
  /** SQLite's page cache per connection, in KiB. */
  sqliteCacheKiB: number;
  /** argon2id's cost for passwords set from now on (domain/users/passwords.ts). */
  passwordCost: PasswordCost;
  /** SQLite's memory-mapped reads per connection, in bytes (0: off). */
  sqliteMmapBytes: number;
  /** The rendered-answer cache's bound, in bytes. */
  renderCacheBytes: number;
  /** Built GraphQL schemas kept (per project, model-set version and readable models). */
  graphqlSchemas: number;
  /** Keys kept in the authentication cache. */
  keyCacheMax: number;
  /** Item reads by id run on the main thread under the same in-flight limits (docs/reads.md). */
  readInline: boolean;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Read workers (CAPA_READ_POOL). */
  readPoolSize: number;
  /** Reads the pool holds at once, shared by its workers (decisions.md 8: 2 x cores). */
  readPlaces: number;
  /** In-flight reads allowed per client (key + IP), per key and per project (interface.md: 3, 4, 4). */
  inFlight: { client: number; key: number; project: number };
  /** How long a read waits for a free worker before 503 service_unavailable. */
  readWaitMs: number;
  /** How long an entries read may run before 504 query_timeout. */
  readTimeoutMs: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  jwtSecret: string | null;
  /** Who may create projects over /v2: the server's operator only (default) or anyone signed in. */
  projectCreators: "operators" | "anyone";
  /** The media library's settings (docs/media.md). */
  media: MediaSettings;
  /** The base of public file URLs (CAPA_MEDIA_BASE_URL); default the public URL. */
  mediaBaseUrl: string;
  /** CAPA_SMTP_URL and CAPA_MAIL_FROM (docs/configuration.md); null: the server sends no mail. */
  mail: MailSettings | null;
  /** CAPA_EDGE_PURGE, CAPA_EDGE_TOKEN, CAPA_EDGE_TTL, CAPA_EDGE_ALLOW_PRIVATE (docs/scaling.md). */
  edge: EdgeSettings;
}

import { ConfigError } from "./config-error.ts";
export { ConfigError };

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "on", "yes"].includes(v)) return true;
  if (["0", "false", "off", "no"].includes(v)) return false;
  throw new ConfigError(`${name} must be one of 1, 0, true, false, on, off; got "${raw}"`);
}

function list(env: Env, name: string): string[] {
  const raw = env[name];
  if (!raw) return [];
  return raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** A comma list of origins (`https://admin.example.com`), each exactly as a browser sends it. */
function origins(env: Env, name: string): string[] {
  return list(env, name).map((o) => {
    let u: URL | null = null;
    try {
      u = new URL(o);
    } catch {
      // Refused below.
    }
    if (!u || !["http:", "https:"].includes(u.protocol) || u.origin !== o)
      throw new ConfigError(`${name} must list origins such as https://admin.example.com, got "${o}"`);
    return o;
  });
}

function url(env: Env, name: string, schemes: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!schemes.includes(u.protocol)) throw new ConfigError(`${name} must start with ${schemes.join(" or ")}, got "${raw}"`);
  return raw.replace(/\/+$/, "");
}

function oneOf<T extends string>(env: Env, name: string, values: T[], dflt: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return dflt;
  if (!(values as string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(", ")}; got "${env[name]}"`);
  return raw as T;
}

function metricsToken(env: Env): string | null {
  const raw = env.CAPA_METRICS_TOKEN || null;
  if (raw !== null && (raw.length < 16 || /\s/.test(raw))) throw new ConfigError("CAPA_METRICS_TOKEN must be at least 16 characters without spaces");
  return raw;
}

/** Reads the configuration from an environment (process.env by default). */
export function loadConfig(env: Env = process.env): Config {
  const email = env.CAPA_ADMIN_EMAIL?.trim() || null;
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError(`CAPA_ADMIN_EMAIL must be an e-mail address, got "${email}"`);
  const password = env.CAPA_ADMIN_PASSWORD || null;
  if (password !== null && password.length < 8) throw new ConfigError("CAPA_ADMIN_PASSWORD must be at least 8 characters");
  const logLevel = (env.CAPA_LOG_LEVEL || "info").toLowerCase();
  if (!["debug", "info", "warn", "error", "silent"].includes(logLevel)) {
    throw new ConfigError(`CAPA_LOG_LEVEL must be debug, info, warn, error or silent; got "${logLevel}"`);
  }
  const host = env.HOST?.trim() || "127.0.0.1";
  return {
    port: int(env, "PORT", 3000, 0, 65535),
    host,
    dataDir: resolve(env.CAPA_DATA_DIR?.trim() || "./data"),
    adminEmail: email,
    adminPassword: password,
    demo: bool(env, "CAPA_DEMO", true),
    docsUrl: url(env, "CAPA_DOCS_URL", ["http:", "https:"]) ?? url(env, "CAPA_PUBLIC_URL", ["http:", "https:"]) ?? `http://${host}:${env.PORT?.trim() || 3000}`,
    publicUrl: url(env, "CAPA_PUBLIC_URL", ["http:", "https:"]) ?? `http://${host}:${env.PORT?.trim() || 3000}`,
    apiUrl: url(env, "CAPA_API_URL", ["http:", "https:"]) ?? url(env, "CAPA_PUBLIC_URL", ["http:", "https:"]) ?? `http://${host}:${env.PORT?.trim() || 3000}`,
    readHosts: list(env, "CAPA_READ_HOSTS"),
    managementHosts: list(env, "CAPA_MANAGEMENT_HOSTS"),
    managementOrigins: origins(env, "CAPA_MANAGEMENT_ORIGINS"),
    edgeSecret: env.CAPA_EDGE_SECRET || null,
    replicaUrl: url(env, "CAPA_REPLICA_URL", ["file:", "s3:"]),
    replicaEndpoint: url(env, "CAPA_REPLICA_ENDPOINT", ["http:", "https:"]),
    replicaRegion: env.CAPA_REPLICA_REGION?.trim() || null,
    replicaShardSize: int(env, "CAPA_REPLICA_SHARD_SIZE", 50, 1, 500),
    replicaIdleMs: int(env, "CAPA_REPLICA_IDLE_SECONDS", 60, 1, 86400) * 1000,
    replicaMaxWatched: int(env, "CAPA_REPLICA_MAX_WATCHED", 60, 2, 100000),
    metricsToken: metricsToken(env),
    webhookAllowPrivate: bool(env, "CAPA_WEBHOOK_ALLOW_PRIVATE", false),
    webhookCaFile: env.CAPA_WEBHOOK_CA_FILE || null,
    fieldChanges: bool(env, "CAPA_FIELD_CHANGES", true),
    trashDays: int(env, "CAPA_TRASH_DAYS", 30, 1, 3650),
    openProjectsMax: int(env, "CAPA_OPEN_PROJECTS", 256, 1, 100000),
    projectIdleMs: int(env, "CAPA_PROJECT_IDLE_SECONDS", 300, 1, 86400) * 1000,
    readWorkerOpenProjects: int(env, "CAPA_READ_WORKER_OPEN_PROJECTS", 64, 1, 100000),
    sqliteCacheKiB: int(env, "CAPA_SQLITE_CACHE_KB", 256, 64, 1048576),
    passwordCost: {
      memoryKiB: int(env, "CAPA_PASSWORD_MEMORY_KIB", DEFAULT_PASSWORD_COST.memoryKiB, 1024, 4194304),
      time: int(env, "CAPA_PASSWORD_TIME_COST", DEFAULT_PASSWORD_COST.time, 1, 20),
    },
    sqliteMmapBytes: int(env, "CAPA_SQLITE_MMAP_MB", 0, 0, 65536) * 1024 * 1024,
    renderCacheBytes: int(env, "CAPA_RENDER_CACHE_MB", 32, 1, 65536) * 1024 * 1024,
    graphqlSchemas: int(env, "CAPA_GRAPHQL_SCHEMAS", 32, 1, 100000),
    keyCacheMax: int(env, "CAPA_KEY_CACHE", 5000, 1, 1000000),
    readInline: bool(env, "CAPA_READ_INLINE", true),
    rateLimitPerSecond: int(env, "CAPA_RATE_LIMIT", 50, 1, 1000000),
    rateLimitBurst: int(env, "CAPA_RATE_BURST", 100, 1, 1000000),
    // One worker a core but the main thread's (which answers, authenticates and renders every
    // request), sharing the 2 x cores places of decisions.md 8 (infra/read-pool.ts). On 2 cores
    // one worker read 15-20% more than two, at a peak 21 MiB lower (docs/performance.md, ninth session).
    readPoolSize: int(env, "CAPA_READ_POOL", Math.max(1, (navigator.hardwareConcurrency || 1) - 1), 1, 1024),
    readPlaces: 2 * (navigator.hardwareConcurrency || 1),
    readWaitMs: int(env, "CAPA_READ_WAIT_MS", 2000, 1, 60000),
    inFlight: {
      client: int(env, "CAPA_INFLIGHT_CLIENT", 3, 1, 10000),
      key: int(env, "CAPA_INFLIGHT_KEY", 4, 1, 10000),
      project: int(env, "CAPA_INFLIGHT_PROJECT", 4, 1, 10000),
    },
    readTimeoutMs: int(env, "CAPA_READ_TIMEOUT_MS", 5000, 1, 600000),
    logLevel: logLevel as Config["logLevel"],
    jwtSecret: env.CAPA_JWT_SECRET || null,
    projectCreators: oneOf(env, "CAPA_PROJECT_CREATORS", ["operators", "anyone"], "operators"),
    media: readMediaSettings(env, machine()),
    mediaBaseUrl:
      url(env, "CAPA_MEDIA_BASE_URL", ["http:", "https:"]) ?? url(env, "CAPA_PUBLIC_URL", ["http:", "https:"]) ?? `http://${host}:${env.PORT?.trim() || 3000}`,
    mail: readMailSettings(env),
    edge: readEdgeSettings(env),
  };
}

/** A configuration for tests: a temp data dir, no demo, quiet logs, plus overrides. */
export function testConfig(dataDir: string, over: Partial<Config> = {}): Config {
  // Tests send bursts with a frozen clock; the rate limit's own tests set it low explicitly.
  return {
    // Error docs links name the test requests' host (test/harness.ts BASE).
    ...loadConfig({
      CAPA_DATA_DIR: dataDir,
      CAPA_DEMO: "0",
      CAPA_LOG_LEVEL: "silent",
      CAPA_RATE_LIMIT: "1000000",
      CAPA_RATE_BURST: "1000000",
      CAPA_DOCS_URL: "http://capa.test",
      // The cheapest argon2id: a sign-in costs about 1 ms instead of 200 (passwords.ts).
      CAPA_PASSWORD_MEMORY_KIB: "1024",
      CAPA_PASSWORD_TIME_COST: "1",
    }),
    // Two places a worker on any machine: the pool's tests count places.
    readPlaces: 2,
    ...over,
  };
}
