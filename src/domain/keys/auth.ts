// Key authentication on the hot path: an in-process cache of keys by secret hash, so a request
// costs one SHA-256 and a map lookup. Changes through the change bus evict at once; expiry is
// checked against the clock on every request. Use (lastUsedAt, domains seen) is recorded in
// memory and written in batches, never on the request path. Behind the cache, lookupKey reads
// what authentication needs of a key in one go: the row, its scopes as a set, its read grants
// and their signature, its origins, and its project's name and subscription.
import type { Statement } from "bun:sqlite";
import { LRUCache } from "lru-cache";
import { eq, sql } from "drizzle-orm";
import { apiKeys, keyDomains, projects } from "../../storage/control/schema.ts";
import { iso } from "../../infra/clock.ts";
import { sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import { grantSignature, readGrantsOf } from "../reads/job.ts";
import { predecessorOf, type KeyRow } from "./records.ts";
import { writeControl } from "../unit-of-work.ts";

/** A key with its project's name and subscription flag: what authentication needs, cached. */
export interface AuthKey {
  row: KeyRow;
  scopes: ReadonlySet<string>;
  origins: string[];
  projectName: string;
  subscriptionActive: boolean;
  /** The predecessor of a rotated key, with its expiry. */
  rotatedFrom: { id: string; expiresAt: string | null } | null;
  /** Its instance:read grants and their signature, computed once per load (src/domain/reads/job.ts). */
  readGrants: string[];
  grantSig: string;
}

/** Looks a secret up by its hash (no cache; KeyAuth below caches it). */
export function lookupKey(s: Services, secret: string): AuthKey | null {
  const row = s.control.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sha256Hex(secret)))
    .get();
  if (!row) return null;
  const p = s.control.db.select({ name: projects.name, sub: projects.subscriptionActive }).from(projects).where(eq(projects.id, row.projectId)).get();
  if (!p) return null;
  const pred = predecessorOf(s, row);
  const scopes: string[] = JSON.parse(row.scopes);
  const readGrants = readGrantsOf(scopes);
  return {
    row,
    scopes: new Set(scopes),
    readGrants,
    grantSig: grantSignature(readGrants),
    origins: JSON.parse(row.allowedOrigins),
    projectName: p.name,
    subscriptionActive: p.sub,
    rotatedFrom: pred,
  };
}

const MINUTE = 60_000;
/**
 * Cached entries are re-read after this long at the latest. Changes made in this process evict at
 * once through the change bus; changes by another process (the CLI) empty the cache at the next
 * check, through SQLite's data_version (see otherProcessWrote).
 */
const CACHE_TTL_MS = 30_000;

export type KeyCheck = { ok: true; key: AuthKey } | { ok: false };

export class KeyAuth {
  /** Keys (and unknown secrets, as false) by secret hash; at most CAPA_KEY_CACHE of them. */
  private readonly cache: LRUCache<string, AuthKey | false>;
  /** keyId -> hash, to evict by id. */
  private readonly hashes = new Map<string, string>();
  /** keyId -> the latest recorded use (changes at most once a minute), as text and as ms. */
  private readonly used = new Map<string, string>();
  private readonly usedMs = new Map<string, number>();
  private readonly dirtyUse = new Set<string>();
  /** `${keyId}\n${domain}` -> last seen, waiting for the next flush. */
  private readonly domains = new Map<string, string>();
  /**
   * keyId -> domain -> when it was last noted, in ms, kept across flushes; and the host of each
   * Origin header seen. A site sends the same Origin on every read, so the hot path parses no URL
   * and makes no string (a cross-origin read cost 3.6 us more than a plain one without these).
   * Both are bounded: they start over past 10,000 entries.
   */
  private readonly notedMs = new Map<string, Map<string, number>>();
  private readonly hosts = new Map<string, string | null>();

  /** `services` is called only after construction (the services hold this object). */
  constructor(
    private readonly services: () => Services,
    maxKeys = 5000,
  ) {
    this.cache = new LRUCache<string, AuthKey | false>({ max: maxKeys, ttl: CACHE_TTL_MS });
  }

  /** The number of cached lookups (tests check the bound). */
  get cached(): number {
    return this.cache.size;
  }

  private get s(): Services {
    return this.services();
  }

  /** `PRAGMA data_version` of the control file as last seen (null before the first check), and the statement that reads it. */
  private dataVersion: number | null = null;
  private dataVersionQuery: Statement<{ data_version: number }, []> | null = null;

  /** When data_version was last read (performance.now(), a monotonic clock of this process). */
  private dataVersionAt = Number.NEGATIVE_INFINITY;

  /**
   * Whether another connection (the CLI, another process) committed to the control file since the
   * last check. SQLite's data_version changes exactly then, never for this connection's own
   * writes; so a subscription turned off or a key revoked by the CLI bites at the next request.
   * Reading it opens a read transaction (the WAL index's locks: a few microseconds, about a tenth
   * of a cached /api/me answer in a profile under load), so it is read at most once a millisecond:
   * a change is seen by the first request that starts a millisecond or more after its commit.
   * The clock is the process's own, not the injected one, which tests freeze.
   */
  private otherProcessWrote(): boolean {
    const at = performance.now();
    if (at - this.dataVersionAt < 1) return false;
    this.dataVersionAt = at;
    this.dataVersionQuery ??= this.s.control.sqlite.query<{ data_version: number }, []>("PRAGMA data_version");
    const v = this.dataVersionQuery.get()!.data_version;
    if (v === this.dataVersion) return false;
    const first = this.dataVersion === null;
    this.dataVersion = v;
    return !first;
  }

  /** Forgets a key's cached entry (told by the change bus when a key changes). */
  evict(keyId: string): void {
    const h = this.hashes.get(keyId);
    if (h) this.cache.delete(h);
    this.hashes.delete(keyId);
  }

  /** Finds an active, unexpired key for a secret. Display values (ending in … or *) never match. */
  check(secret: string): KeyCheck {
    if (secret.length < 8 || secret.length > 200 || secret.endsWith("…") || secret.endsWith("*")) return { ok: false };
    const hash = sha256Hex(secret);
    // Another process changed keys or projects: every cached entry may be stale.
    if (this.otherProcessWrote()) {
      this.cache.clear();
      this.hashes.clear();
    }
    let k = this.cache.get(hash);
    if (k === undefined) {
      k = lookupKey(this.s, secret) ?? false;
      this.cache.set(hash, k);
      if (k) this.hashes.set(k.row.id, hash);
    }
    if (k === false || !k.row.active) return { ok: false };
    if (k.row.expiresAt && Date.parse(k.row.expiresAt) <= this.s.clock.now()) return { ok: false };
    return { ok: true, key: k };
  }

  /** The last use recorded before now (what /api/me shows as lastUsedAt). */
  lastUsed(key: AuthKey): string | null {
    return this.used.get(key.row.id) ?? key.row.lastUsedAt;
  }

  /** The in-memory last use of a key by id, when newer than what is stored. */
  lastUsedById(keyId: string): string | null {
    return this.used.get(keyId) ?? null;
  }

  /** Records a use: at most one change a minute per key; the domain of an Origin header is noted too. */
  touch(key: AuthKey, origin: string | null): void {
    const now = this.s.clock.now();
    let prevMs = this.usedMs.get(key.row.id);
    if (prevMs === undefined) {
      const prev = this.lastUsed(key);
      prevMs = prev ? Date.parse(prev) : -Infinity;
    }
    if (now - prevMs >= MINUTE) {
      this.used.set(key.row.id, iso(now));
      this.usedMs.set(key.row.id, now);
      this.dirtyUse.add(key.row.id);
    } else {
      this.usedMs.set(key.row.id, prevMs);
    }
    if (origin) {
      const host = this.hostOf(origin);
      if (host === null) return;
      let byHost = this.notedMs.get(key.row.id);
      if (byHost === undefined) {
        if (this.notedMs.size >= 10_000) this.notedMs.clear();
        byHost = new Map();
        this.notedMs.set(key.row.id, byHost);
      }
      const seen = byHost.get(host);
      if (seen !== undefined && now - seen < MINUTE) return;
      if (byHost.size >= 10_000) byHost.clear();
      byHost.set(host, now);
      this.domains.set(`${key.row.id}\n${host}`, iso(now));
    }
  }

  /** The host name of an Origin header (null when it is not a URL), parsed once per distinct header. */
  private hostOf(origin: string): string | null {
    let host = this.hosts.get(origin);
    if (host !== undefined) return host;
    try {
      host = new URL(origin).hostname || null;
    } catch {
      host = null;
    }
    if (this.hosts.size >= 10_000) this.hosts.clear();
    this.hosts.set(origin, host);
    return host;
  }

  /** Writes recorded uses in one transaction. Called by a timer and at shutdown. */
  flush(): void {
    if (this.dirtyUse.size === 0 && this.domains.size === 0) return;
    const uses = [...this.dirtyUse].map((id) => [id, this.used.get(id)!] as const);
    const domains = [...this.domains].map(([k, at]) => [...k.split("\n"), at] as [string, string, string]);
    this.dirtyUse.clear();
    this.domains.clear();
    const db = this.s.control.db;
    writeControl(this.s, () => {
      for (const [id, at] of uses) db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id)).run();
      for (const [keyId, domain, at] of domains) {
        db.insert(keyDomains)
          .values({ keyId, domain, lastSeenAt: at })
          .onConflictDoUpdate({ target: [keyDomains.keyId, keyDomains.domain], set: { lastSeenAt: sql`excluded.last_seen_at` } })
          .run();
      }
    });
  }
}
