// Keys on the read API and the legacy surfaces. The /api shell every keyed read route runs
// through (edge check, version and contract resolution, key authentication, rate, subscription,
// origin and scope) records the headers that every answer to the request carries, errors
// included. Routes reach it as Elysia macros:
// - `key: "<scope>" | true`: the /api shell; resolves `{ call }`.
// - `legacy: true`: a legacy key in x-api-key (the legacy surfaces); resolves `{ key }`.
// GraphQL calls apiAuth itself, because its refusals are GraphQL results, not the /api envelope.
import { Elysia } from "elysia";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { AuthKey } from "../../domain/keys/auth.ts";
import { DEFAULT_VERSION, isVersion, LATEST_VERSION, VERSIONS } from "../../domain/versions.ts";
import type { RequestInfo } from "../context.ts";
import { legacyKeyOf } from "../../domain/access/authenticate.ts";

export const KEYED_VARY = "Origin, x-api-key, Svc-Version, Svc-Contract";

export interface ApiCall {
  key: AuthKey;
  version: string;
  info: RequestInfo;
  /** lastUsedAt as it was before this request. */
  lastUsedBefore: string | null;
}

const VERSION_HINT = `Supported versions: ${VERSIONS.map((v) => v.date).join(", ")}.`;

/** Checks the edge secret and the Svc-Version header; returns the header's version or null. */
export function apiPreamble(s: Services, request: Request): { info: RequestInfo; headerVersion: string | null } {
  const info = s.requests.of(request);
  if (s.config.edgeSecret !== null && request.headers.get("x-svc-edge") !== s.config.edgeSecret) fail("edge_only");
  const hv = request.headers.get("svc-version");
  if (hv !== null) {
    if (!isVersion(hv.trim())) fail("invalid_version", { param: "Svc-Version", hint: VERSION_HINT });
    info.version = hv.trim();
  }
  return { info, headerVersion: hv === null ? null : hv.trim() };
}

/** Authenticates a keyed /api request; `scope` is the scope the route needs (none for /api/me). */
export function apiAuth(s: Services, request: Request, scope?: string): ApiCall {
  const keys = s.keys;
  // Every answer of a keyed route carries these, refusals before authentication included.
  const early = s.requests.of(request);
  early.headers["svc-contract"] = "1";
  early.headers.vary = KEYED_VARY;
  const { info, headerVersion } = apiPreamble(s, request);
  const secret = request.headers.get("x-api-key");
  if (secret === null || secret.trim() === "") fail("missing_key", { param: "x-api-key" });
  const check = keys.check(secret.trim());
  if (!check.ok) fail("invalid_key", { param: "x-api-key" });
  const key = check.key;
  const version = headerVersion ?? key.row.apiVersion ?? DEFAULT_VERSION;
  info.version = version;
  info.keyId = key.row.id;
  info.projectId = key.row.projectId;
  info.headers["svc-key-id"] = key.row.id;
  info.headers["svc-contract"] = "1";
  info.headers.vary = KEYED_VARY;
  // The per-key token bucket; its headers go on every answer to the key, refusals included.
  const rate = s.limits.rate.take(key.row.id, s.clock.now());
  info.headers["ratelimit-limit"] = String(rate.limit);
  info.headers["ratelimit-remaining"] = String(rate.remaining);
  info.headers["ratelimit-reset"] = String(rate.reset);
  if (!rate.ok) {
    s.metrics.refusals.inc({ limit: "rate" });
    fail("rate_limit_exceeded", {
      message: `This key sent more than ${s.config.rateLimitPerSecond} requests a second (burst ${rate.limit}).`,
      hint: "Retry after the number of seconds in the Retry-After header.",
      headers: { "retry-after": String(rate.retryAfter) },
    });
  }
  const contract = request.headers.get("svc-contract");
  if (contract !== null && contract.trim() !== "1") {
    fail("contract_not_found", { param: "Svc-Contract", message: `Contract ${JSON.stringify(contract.slice(0, 32))} does not exist.` });
  }
  if (!key.subscriptionActive) fail("subscription_required");
  const origin = request.headers.get("origin");
  if (origin !== null && key.origins.length > 0 && !key.origins.includes(origin)) fail("origin_refused", { param: "Origin" });
  if (scope && !key.scopes.has(scope)) {
    fail("scope_missing", { hint: `This route needs the scope ${scope}; a per-model grant such as ${scope}:<modelId> does not satisfy it.` });
  }
  const lastUsedBefore = keys.lastUsed(key);
  keys.touch(key, origin);
  return { key, version, info, lastUsedBefore };
}

/** A success answer `{ data, meta }` with the headers of the request and `cacheControl`. */
export function apiOk(info: RequestInfo, data: unknown, cacheControl: string, extraMeta?: Record<string, unknown>, keyed = true): Response {
  const meta: Record<string, unknown> = { version: info.version ?? LATEST_VERSION, requestId: info.id };
  if (keyed) meta.contract = 1;
  if (extraMeta) Object.assign(meta, extraMeta);
  return new Response(JSON.stringify({ data, meta }), {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": cacheControl, "svc-version": info.version ?? LATEST_VERSION, ...info.headers },
  });
}

/** The key macros. */
export function keyedAuth(s: Services) {
  return new Elysia().macro({
    key: (scope: string | true) => ({
      resolve: ({ request }) => ({ call: apiAuth(s, request, scope === true ? undefined : scope) }),
    }),
    legacy: (_on: true) => ({
      resolve: ({ request }) => {
        const key = legacyKeyOf(s, request.headers);
        s.requests.annotate(request, { keyId: key.row.id, projectId: key.row.projectId });
        return { key };
      },
    }),
  });
}
