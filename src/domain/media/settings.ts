// The media library's settings, read from the environment table config.ts hands over (config.ts
// stays the only reader of process.env). A bad value stops start-up with a one-line ConfigError,
// as every other setting does. docs/media.md lists each with its default.
import { ConfigError } from "../../config-error.ts";
import type { Machine } from "../../infra/machine.ts";
import { DEFAULT_MAX_BYTES } from "./intake.ts";
import { DEFAULT_MAX_PIXELS } from "./probe.ts";

/** Every media setting, defaults applied. */
export interface MediaSettings {
  /** CAPA_MEDIA_STORE: `local` or `s3://bucket/prefix`. */
  store: string;
  /** CAPA_MEDIA_S3_ENDPOINT: the endpoint of a non-AWS S3 service. */
  s3Endpoint: string | null;
  /** CAPA_MEDIA_S3_REGION. */
  s3Region: string | null;
  /** CAPA_MEDIA_MAX_BYTES: the largest file accepted. */
  maxBytes: number;
  /** CAPA_MEDIA_MAX_PIXELS: the most pixels an image may declare. */
  maxPixels: number;
  /** CAPA_MEDIA_VARIANT_CACHE_BYTES: the bound of the variant cache on disk. */
  variantCacheBytes: number;
  /** CAPA_MEDIA_NEW_VARIANTS_PER_SECOND and CAPA_MEDIA_NEW_VARIANT_BURST: a client's tokens for new variants. */
  perClient: { rate: number; burst: number };
  /** CAPA_MEDIA_DECODE_BUDGET: bytes the image decodes running at once may hold; one may hold half. */
  decodeBudget: number;
  /** Image decodes at once: the cores, at least 2 (one is kept for small work). Not a setting. */
  renderSlots: number;
}

const MIB = 1024 * 1024;
/** The smallest decode budget accepted: a decode of half of it still holds a 4,000 px wide working set. */
export const MIN_DECODE_BUDGET = 128 * MIB;

/** The default decode budget: a quarter of the machine's memory, from 256 MiB to 2 GiB. */
export function defaultDecodeBudget(memoryBytes: number): number {
  return Math.min(2048 * MIB, Math.max(256 * MIB, Math.floor(memoryBytes / 4 / MIB) * MIB));
}

/** The defaults of every media setting. */
export const MEDIA_DEFAULTS: Omit<MediaSettings, "decodeBudget" | "renderSlots"> = {
  store: "local",
  s3Endpoint: null,
  s3Region: null,
  maxBytes: DEFAULT_MAX_BYTES,
  maxPixels: DEFAULT_MAX_PIXELS,
  variantCacheBytes: 1024 * 1024 * 1024,
  perClient: { rate: 2, burst: 20 },
};

function whole(env: Record<string, string | undefined>, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Reads the media settings from an environment table, sizing defaults from the machine; throws ConfigError naming a bad value. */
export function readMediaSettings(env: Record<string, string | undefined>, machine: Machine): MediaSettings {
  const store = env.CAPA_MEDIA_STORE?.trim() || "local";
  if (store !== "local" && !/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(store)) {
    throw new ConfigError(`CAPA_MEDIA_STORE must be local or s3://bucket/prefix, got "${store}"`);
  }
  const endpoint = env.CAPA_MEDIA_S3_ENDPOINT?.trim() || null;
  if (endpoint !== null && !/^https?:\/\/[^/\s]+/.test(endpoint)) throw new ConfigError(`CAPA_MEDIA_S3_ENDPOINT must be an http(s):// URL, got "${endpoint}"`);
  return {
    store,
    s3Endpoint: endpoint,
    s3Region: env.CAPA_MEDIA_S3_REGION?.trim() || null,
    maxBytes: whole(env, "CAPA_MEDIA_MAX_BYTES", MEDIA_DEFAULTS.maxBytes, 1, 1024 ** 4),
    maxPixels: whole(env, "CAPA_MEDIA_MAX_PIXELS", MEDIA_DEFAULTS.maxPixels, 1, 1_000_000_000),
    variantCacheBytes: whole(env, "CAPA_MEDIA_VARIANT_CACHE_BYTES", MEDIA_DEFAULTS.variantCacheBytes, 0, 1024 ** 4),
    perClient: {
      rate: whole(env, "CAPA_MEDIA_NEW_VARIANTS_PER_SECOND", MEDIA_DEFAULTS.perClient.rate, 1, 10_000),
      burst: whole(env, "CAPA_MEDIA_NEW_VARIANT_BURST", MEDIA_DEFAULTS.perClient.burst, 1, 100_000),
    },
    decodeBudget: whole(env, "CAPA_MEDIA_DECODE_BUDGET", defaultDecodeBudget(machine.memoryBytes), MIN_DECODE_BUDGET, 1024 ** 4),
    renderSlots: Math.max(2, machine.cpus),
  };
}
