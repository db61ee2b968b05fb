// The API key routes of /v2 (/v2/tenants/api-keys), used only by the lazily loaded keys screen.
import type * as Shared from "../../../src/shared/settings.ts";
import type { ActiveBody, AllowedOriginsBody, MintKeyBody, RotateBody, UpdateKeyBody } from "../../../src/shared/bodies.ts";
import type { DomainsSeen, Grantable, KeyState, MintedKey, RotatedKey } from "../../../src/shared/settings.ts";
import { call } from "./client.ts";

export type { MintKeyBody as NewKey, UpdateKeyBody as KeyPatch } from "../../../src/shared/bodies.ts";
export type { Grantable, MintedKey } from "../../../src/shared/settings.ts";

/** A key as the list shows it with `includeStatus=true`, which always adds its state. */
export type ApiKey = Required<Shared.ApiKey>;

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
  domains: (id: string) => call<DomainsSeen>("GET", `${BASE}/${id}/domains-seen`).then((r) => r.data),
  mint: (k: MintKeyBody) => call<MintedKey>("POST", BASE, { body: k }),
  update: (id: string, patch: UpdateKeyBody) => call<KeyState>("PATCH", `${BASE}/${id}`, { body: patch }),
  origins: (id: string, allowedOrigins: string[]) =>
    call<KeyState>("PATCH", `${BASE}/${id}/allowed-origins`, { body: { allowedOrigins } satisfies AllowedOriginsBody }),
  rotate: (id: string, graceHours: number) => call<RotatedKey>("POST", `${BASE}/${id}/rotate`, { body: { graceHours } satisfies RotateBody }),
  setActive: (id: string, active: boolean) => call<KeyState>("PATCH", `${BASE}/${id}/active`, { body: { active } satisfies ActiveBody }),
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
