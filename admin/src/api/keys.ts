// The API key routes of /v2 (/v2/tenants/api-keys), used only by the lazily loaded keys screen.
import { call } from "./client.ts";

/** A key as the list shows it with `includeStatus=true` (never its secret). */
export interface ApiKey {
  id: string;
  name: string;
  keyPrefix: string;
  bundle: "scoped" | "legacy";
  environment: "production" | "development";
  scopes: string[];
  permission: string | null;
  version: string;
  createdAt: string;
  active: boolean;
  allowedOrigins: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** What the signed-in person may put on a key (GET /grantable). */
export interface Grantable {
  scopes: { scope: string; held: boolean }[];
  presets: { name: string; scopes: string[]; grantable: boolean }[];
}

/** The answer to a mint or a rotation: the only answers holding the secret. */
export interface MintedKey {
  id: string;
  name: string;
  apiKey: string;
  keyPrefix: string;
  environment: string;
  expiresAt: string | null;
}

/** What the `New key` form sends. */
export interface NewKey {
  name: string;
  environment: "production" | "development";
  preset?: string;
  scopes?: string[];
  expiresAt?: string;
  apiVersion?: string;
}

/** What `Edit` sends: only what changed. */
export interface KeyPatch {
  name?: string;
  expiresAt?: string | null;
  scopes?: string[];
  apiVersion?: string;
}

/** One dated version of the read API (GET /api/versions). */
export interface ApiVersion {
  date: string;
  status: "current" | "supported" | "deprecated" | "sunset";
}

const BASE = "/v2/tenants/api-keys";

/** The key routes, one function per documented route. */
export const keyApi = {
  list: () => call<{ data: ApiKey[] }>("GET", BASE, { query: { includeStatus: "true" } }).then((r) => r.data),
  grantable: () => call<Grantable>("GET", `${BASE}/grantable`),
  domains: (id: string) => call<{ data: { domain: string; lastSeenAt: string }[] }>("GET", `${BASE}/${id}/domains-seen`).then((r) => r.data),
  mint: (k: NewKey) => call<MintedKey>("POST", BASE, { body: k }),
  update: (id: string, patch: KeyPatch) => call<unknown>("PATCH", `${BASE}/${id}`, { body: patch }),
  origins: (id: string, allowedOrigins: string[]) => call<unknown>("PATCH", `${BASE}/${id}/allowed-origins`, { body: { allowedOrigins } }),
  rotate: (id: string, graceHours: number) =>
    call<MintedKey & { rotatedFrom: { id: string; expiresAt: string } }>("POST", `${BASE}/${id}/rotate`, { body: { graceHours } }),
  setActive: (id: string, active: boolean) => call<unknown>("PATCH", `${BASE}/${id}/active`, { body: { active } }),
  versions: () => readVersions(),
};

/**
 * The supported versions, from the read API's public list. The one request of the app outside
 * /v2: the list is documented for every client, needs no key, and no /v2 route repeats it, so
 * it goes without the person's token.
 */
export async function readVersions(): Promise<{ current: string; versions: ApiVersion[] }> {
  const res = await fetch("/api/versions", { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`The server answered ${res.status}.`);
  return ((await res.json()) as { data: { current: string; versions: ApiVersion[] } }).data;
}

/** The query key of the project's key list. */
export const keyListKey = (project: string) => ["api-keys", project] as const;
