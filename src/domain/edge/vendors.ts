// One purge call to each kind of edge cache, as its documentation describes it, and how many tags
// one call may carry:
// - Varnish with varnish-modules' xkey vmod (deploy/varnish/capa.vcl): `PURGE <url>` with the tags
//   space-separated in `xkey-purge` and `Authorization: Bearer <CAPA_EDGE_TOKEN>`. The tags share
//   one request header, which Varnish's http_req_hdr_len caps at 8 KiB (name included).
// - Fastly, "purge multiple surrogate key tags": `POST /service/{service_id}/purge` with
//   `Fastly-Key` and the JSON body `{ "surrogate_keys": [...] }`, "up to 256 surrogate keys" per
//   request (developer.fastly.com/reference/api/purging/). Hard purges: a soft one would let a
//   revoked key's answers be served stale.
// - Cloudflare, "purge cached content by tag": `POST /client/v4/zones/{zone_id}/purge_cache` with
//   `Authorization: Bearer <API token>` and `{ "tags": [...] }`, at most 100 operations per
//   request on every plan (developers.cloudflare.com/cache/how-to/purge-cache/, "Purge limits";
//   older pages said 30 tags per call).
// A 429 (Fastly, Cloudflare) or 503 names its wait in Retry-After (or Fastly-RateLimit-Reset);
// the purger keeps to it. No call ever throws.
import type { EdgeTarget, EdgeVendor } from "./settings.ts";
import { bareHost, checkDestination, pinnedUrl, type Destination } from "../webhooks/safety.ts";

/** How many tags, and how many bytes of them (space-joined), one call may carry. */
export const CALL_LIMITS: Record<EdgeVendor, { tags: number; bytes: number }> = {
  varnish: { tags: 1000, bytes: 7900 },
  fastly: { tags: 256, bytes: Number.POSITIVE_INFINITY },
  cloudflare: { tags: 100, bytes: Number.POSITIVE_INFINITY },
};

/** The vendors' API bases; tests and the benchmark point them at local servers. */
export interface ApiBases {
  fastly: string;
  cloudflare: string;
}

export const VENDOR_APIS: ApiBases = { fastly: "https://api.fastly.com", cloudflare: "https://api.cloudflare.com" };

/** What a call needs besides the target and tags. */
export interface CallContext {
  token: string;
  timeoutMs: number;
  apis: ApiBases;
  /** Null: a Varnish URL may reach any address (CAPA_EDGE_ALLOW_PRIVATE); else its check before each call. */
  resolve: ((u: URL) => Promise<Destination>) | null;
}

/** The outcome of one call. */
export type CallResult = { ok: true; status: number } | { ok: false; status: number | null; error: string; retryAfterMs: number | null };

/** The request of one purge call: URL, method, headers and body. */
export function purgeRequest(target: EdgeTarget, tags: string[], ctx: CallContext): { url: string; init: RequestInit } {
  switch (target.vendor) {
    case "varnish":
      return { url: target.address, init: { method: "PURGE", headers: { authorization: `Bearer ${ctx.token}`, "xkey-purge": tags.join(" ") } } };
    case "fastly":
      return {
        url: `${ctx.apis.fastly}/service/${encodeURIComponent(target.address)}/purge`,
        init: {
          method: "POST",
          headers: { "fastly-key": ctx.token, accept: "application/json", "content-type": "application/json" },
          body: JSON.stringify({ surrogate_keys: tags }),
        },
      };
    case "cloudflare":
      return {
        url: `${ctx.apis.cloudflare}/client/v4/zones/${target.address}/purge_cache`,
        init: {
          method: "POST",
          headers: { authorization: `Bearer ${ctx.token}`, "content-type": "application/json" },
          body: JSON.stringify({ tags }),
        },
      };
  }
}

/** The wait a refusal names: Retry-After (seconds or a date), else Fastly-RateLimit-Reset (epoch seconds). */
export function retryAfterMs(headers: Headers, now: number): number | null {
  const ra = headers.get("retry-after")?.trim();
  if (ra) {
    if (/^\d+$/.test(ra)) return Number(ra) * 1000;
    const at = Date.parse(ra);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headers.get("fastly-ratelimit-reset")?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return null;
}

/** Sends one purge call; never throws. `now` is the wall clock, for a Retry-After given as a date. */
export async function sendPurge(target: EdgeTarget, tags: string[], ctx: CallContext, now = Date.now()): Promise<CallResult> {
  const req = purgeRequest(target, tags, ctx);
  let url = req.url;
  const headers = req.init.headers as Record<string, string>;
  let tls: { serverName?: string } | undefined;
  if (target.vendor === "varnish" && ctx.resolve) {
    // As for webhooks: the name is resolved and checked, and the call goes to the checked address.
    const u = new URL(url);
    const d = await ctx.resolve(u);
    if ("refused" in d) return { ok: false, status: null, error: `Not sent: ${d.refused}.`, retryAfterMs: null };
    if (d.address !== null) {
      url = pinnedUrl(u, d.address);
      headers.host = u.host;
      tls = { serverName: bareHost(u) };
    }
  }
  const signal = AbortSignal.timeout(ctx.timeoutMs);
  try {
    const res = await fetch(url, { ...req.init, headers, redirect: "manual", signal, tls });
    const text = (await res.text().catch(() => "")).slice(0, 2000);
    if (res.status >= 200 && res.status < 300) {
      // Cloudflare answers 200 with success false for a purge it did not do.
      if (target.vendor === "cloudflare" && !cloudflareSucceeded(text))
        return { ok: false, status: res.status, error: `Answered ${res.status} without success: ${text.slice(0, 300)}`, retryAfterMs: null };
      return { ok: true, status: res.status };
    }
    const wait = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers, now) : null;
    const detail = text.trim() ? `: ${text.trim().replace(/\s+/g, " ").slice(0, 300)}` : "";
    return { ok: false, status: res.status, error: `Answered ${res.status}${detail}`, retryAfterMs: wait };
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string };
    const timedOut = err.name === "TimeoutError" || signal.aborted;
    const error = timedOut
      ? `No answer within ${ctx.timeoutMs / 1000} s.`
      : `Request failed: ${err.code ?? err.name ?? "error"}${err.message ? ` (${err.message})` : ""}.`;
    return { ok: false, status: null, error, retryAfterMs: null };
  }
}

function cloudflareSucceeded(text: string): boolean {
  try {
    return (JSON.parse(text) as { success?: unknown }).success === true;
  } catch {
    return false;
  }
}

/** The check of a Varnish URL's destination before each call, unless private addresses are allowed. */
export function destinationCheck(allowPrivate: boolean): CallContext["resolve"] {
  return allowPrivate ? null : (u) => checkDestination(u, "refuse");
}
