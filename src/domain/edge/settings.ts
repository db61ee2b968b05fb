// The edge cache settings (decisions.md section 14), read from the environment table config.ts
// hands over (config.ts stays the only reader of process.env): CAPA_EDGE_PURGE names what to
// purge (`varnish:<url>[,<url>...]`, `fastly:<serviceId>` or `cloudflare:<zoneId>`),
// CAPA_EDGE_TOKEN the token those purges carry, CAPA_EDGE_TTL how long the edge may keep a
// production answer, and CAPA_EDGE_ALLOW_PRIVATE whether a Varnish URL may name this machine or a
// private network. A bad value stops start-up with a one-line ConfigError that names the variable
// and never repeats a token or a password. docs/configuration.md lists all four.
import { ConfigError } from "../../config-error.ts";
import { bareHost, privateReason } from "../webhooks/safety.ts";

/** The caches Capa can purge. */
export type EdgeVendor = "varnish" | "fastly" | "cloudflare";

/** One purge target: each Varnish URL is its own, so one that is down never holds up another. */
export interface EdgeTarget {
  /** Stable name of the target, stored with its purge rows: `varnish:<url>`, `fastly:<id>`, `cloudflare:<zone>`. */
  id: string;
  vendor: EdgeVendor;
  /** The Varnish URL, the Fastly service id or the Cloudflare zone id. */
  address: string;
}

/** Every edge setting, defaults applied. */
export interface EdgeSettings {
  /** The vendor of CAPA_EDGE_PURGE; null when nothing is purged. */
  vendor: EdgeVendor | null;
  targets: EdgeTarget[];
  /** CAPA_EDGE_TOKEN: sent with every purge; null when nothing is purged. */
  token: string | null;
  /** CAPA_EDGE_TTL: the Surrogate-Control max-age of production answers. */
  ttlSeconds: number;
  /** CAPA_EDGE_ALLOW_PRIVATE: a Varnish URL may name a loopback or private address. */
  allowPrivate: boolean;
}

/**
 * The edge keeps an answer this long when something purges it (decisions.md 14). When nothing
 * does, it keeps it no longer than a browser does (Cache-Control max-age=60), so turning on an
 * edge cache without purging never serves content a day old.
 */
export const TTL_WITH_PURGE = 86_400;
export const TTL_WITHOUT_PURGE = 60;
const TTL_MAX = 31_536_000;

/** What `edge` is when nothing is set. */
export const EDGE_OFF: EdgeSettings = { vendor: null, targets: [], token: null, ttlSeconds: TTL_WITHOUT_PURGE, allowPrivate: false };

type Env = Record<string, string | undefined>;

const GRAMMAR = "varnish:<url>[,<url>...], fastly:<serviceId> or cloudflare:<zoneId>";

function allowPrivate(env: Env): boolean {
  const raw = env.CAPA_EDGE_ALLOW_PRIVATE?.trim().toLowerCase();
  if (!raw) return false;
  if (["1", "true", "on", "yes"].includes(raw)) return true;
  if (["0", "false", "off", "no"].includes(raw)) return false;
  throw new ConfigError(`CAPA_EDGE_ALLOW_PRIVATE must be one of 1, 0, true, false, on, off; got ${JSON.stringify(env.CAPA_EDGE_ALLOW_PRIVATE)}`);
}

function ttl(env: Env, purging: boolean): number {
  const raw = env.CAPA_EDGE_TTL?.trim();
  if (!raw) return purging ? TTL_WITH_PURGE : TTL_WITHOUT_PURGE;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= TTL_MAX)) throw new ConfigError(`CAPA_EDGE_TTL must be a whole number of seconds from 1 to ${TTL_MAX}, got ${JSON.stringify(raw)}`);
  return n;
}

/** A Varnish purge URL: http(s), no credentials, and no private address unless allowed. */
function varnishUrl(raw: string, allowed: boolean): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // A value that does not parse may still hold a password after "@": only its scheme-less shape is shown.
    throw new ConfigError(`CAPA_EDGE_PURGE: ${JSON.stringify(raw.replace(/\/\/[^/@]*@/, "//***@"))} is not an http:// or https:// URL`);
  }
  if (u.username || u.password) {
    throw new ConfigError(`CAPA_EDGE_PURGE: a Varnish URL holds no user or password (the token goes in CAPA_EDGE_TOKEN); got "${u.protocol}//***@${u.host}"`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new ConfigError(`CAPA_EDGE_PURGE: ${JSON.stringify(raw)} is not an http:// or https:// URL`);
  if (u.hash) throw new ConfigError(`CAPA_EDGE_PURGE: a Varnish URL takes no #fragment; got ${JSON.stringify(raw)}`);
  const host = bareHost(u);
  if (!allowed) {
    // Names are checked again against DNS before every purge (edge/purgers.ts); literals and
    // loopback names are refused here, where the operator sees it at once.
    const local = host === "localhost" || host.endsWith(".localhost");
    const why = local ? "is a loopback name" : privateReason(host);
    if (why) throw new ConfigError(`CAPA_EDGE_PURGE: ${host} ${why}; set CAPA_EDGE_ALLOW_PRIVATE=1 to purge a Varnish on this machine or a private network`);
  }
  return u.href;
}

function targetsOf(raw: string, allowed: boolean): { vendor: EdgeVendor; targets: EdgeTarget[] } {
  const colon = raw.indexOf(":");
  const vendor = raw.slice(0, colon).trim().toLowerCase();
  const rest = raw.slice(colon + 1).trim();
  if (colon < 1 || rest === "" || !/^[a-z]+$/.test(vendor)) throw new ConfigError(`CAPA_EDGE_PURGE must be ${GRAMMAR}; got ${JSON.stringify(raw)}`);
  switch (vendor) {
    case "varnish": {
      const parts = rest.split(",").map((p) => p.trim());
      if (parts.some((p) => p === "")) throw new ConfigError(`CAPA_EDGE_PURGE: the varnish list has an empty URL; write ${GRAMMAR}`);
      const urls = [...new Set(parts.map((p) => varnishUrl(p, allowed)))];
      return { vendor, targets: urls.map((u) => ({ id: `varnish:${u}`, vendor, address: u })) };
    }
    case "fastly":
      if (!/^[A-Za-z0-9]{1,64}$/.test(rest))
        throw new ConfigError(`CAPA_EDGE_PURGE: a Fastly service id is 1 to 64 letters and digits; got ${JSON.stringify(rest)}`);
      return { vendor, targets: [{ id: `fastly:${rest}`, vendor, address: rest }] };
    case "cloudflare": {
      if (!/^[0-9a-fA-F]{32}$/.test(rest)) throw new ConfigError(`CAPA_EDGE_PURGE: a Cloudflare zone id is 32 hexadecimal digits; got ${JSON.stringify(rest)}`);
      const zone = rest.toLowerCase();
      return { vendor, targets: [{ id: `cloudflare:${zone}`, vendor, address: zone }] };
    }
    default:
      throw new ConfigError(`CAPA_EDGE_PURGE names an unknown cache ${JSON.stringify(vendor)}; use varnish, fastly or cloudflare`);
  }
}

/** Reads the edge settings from an environment table; throws ConfigError naming a bad value. */
export function readEdgeSettings(env: Env): EdgeSettings {
  const raw = env.CAPA_EDGE_PURGE?.trim() || null;
  const token = env.CAPA_EDGE_TOKEN?.trim() || null;
  const allowed = allowPrivate(env);
  if (raw === null) {
    if (token !== null) throw new ConfigError("CAPA_EDGE_TOKEN is set but CAPA_EDGE_PURGE is not; set both to purge an edge cache, or neither");
    return { ...EDGE_OFF, ttlSeconds: ttl(env, false), allowPrivate: allowed };
  }
  const { vendor, targets } = targetsOf(raw, allowed);
  if (token === null)
    throw new ConfigError(`CAPA_EDGE_TOKEN must be set with CAPA_EDGE_PURGE: the token ${vendor === "varnish" ? "capa.vcl checks" : "of the purge API"}`);
  // It travels in a header: visible ASCII only, so it can neither break nor add a header line.
  if (!/^[\x21-\x7e]{16,1024}$/.test(token)) throw new ConfigError("CAPA_EDGE_TOKEN must be 16 to 1024 visible ASCII characters without spaces");
  return { vendor, targets, token, ttlSeconds: ttl(env, true), allowPrivate: allowed };
}
