// GET /api/entries/{ns} and /api/entries/{ns}/{id}: the hot read path. Production answers are
// rendered once into bytes and served from the LRU until the project changes.
import { Elysia } from "elysia";
import { AppError, fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { KeyAuth } from "../../domain/keys/auth.ts";
import type { AuthKey } from "../../domain/keys/service.ts";
import { DRAFTS, PUBLISHED } from "../../domain/reads/names.ts";
import type { Reader } from "../../domain/reads/query.ts";
import type { ReadJob, ReadOutcome } from "../../domain/reads/job.ts";
import type { ReadPool } from "../../infra/read-pool.ts";
import { readSlots } from "../../infra/limits.ts";
import { checkPreviewToken } from "../../domain/preview/service.ts";
import { storable, type PageRecorder } from "../../domain/pages/service.ts";
import { COMPRESS_ABOVE, etagOf, serveAnswer, type CachedAnswer, type RenderCache } from "../../infra/render-cache.ts";
import { apiAuth, KEYED_VARY, type ApiCall } from "./shell.ts";
import { isUuid } from "../../domain/models/fields.ts";

const PROD_CACHE = "public, max-age=60";
const DEV_CACHE = "no-store, no-cache";

/** The reader of a key: production keys see published copies; the others see drafts. */
export function readerOf(key: AuthKey): Reader {
  const all = key.scopes.has("instance:read");
  return {
    vis: key.row.environment === "production" ? PUBLISHED : DRAFTS,
    readable: (mid) => all || key.scopes.has(`instance:read:${mid}`),
  };
}

const grantSigs = new WeakMap<AuthKey, string>();

/** The part of a key that changes what it may read (so keys with the same grants share answers). */
function grantSig(key: AuthKey): string {
  let sig = grantSigs.get(key);
  if (sig === undefined) {
    sig = [...key.scopes]
      .filter((x) => x.startsWith("instance:read"))
      .sort()
      .join(",");
    grantSigs.set(key, sig);
  }
  return sig;
}

/** The caller's address as the server saw it ("local" for in-process requests). */
export function clientIp(server: { requestIP(r: Request): { address: string } | null } | null | undefined, request: Request): string {
  return server?.requestIP(request)?.address ?? "local";
}

export function entryReadRoutes(s: Services, keys: KeyAuth, cache: RenderCache, pages: PageRecorder, pool: ReadPool) {
  s.changes.on("content", (pid) => cache.invalidate(pid));
  s.changes.on("models", (pid) => cache.invalidate(pid));

  async function handle(request: Request, ns: string, id: string | null, ip: string): Promise<Response> {
    const call: ApiCall = apiAuth(s, keys, request);
    const key = call.key;
    if (grantSig(key) === "") fail("scope_missing", { hint: "Mint a key that holds instance:read (or instance:read:<modelId>)." });
    const url = call.info.url;
    const q = url.searchParams;
    const h = s.projects.get(key.row.projectId);
    const prod = key.row.environment === "production";
    const previewToken = url.search.includes("preview=") ? q.get("preview") : null;
    const cacheable = prod && previewToken === null;
    const cacheKey = cacheable ? `${cache.prefix(h.id)}${grantSig(key)}|${call.version}|${url.pathname}${url.search}` : "";
    let answer = cacheable ? cache.get(cacheKey) : undefined;
    let recorded: { models: string[]; entries: string[] } | null = null;
    if (!answer) {
      let preview: ReadJob["preview"] = null;
      if (previewToken !== null && prod) {
        const grant = checkPreviewToken(s, h, previewToken);
        if (!grant)
          fail("invalid_parameter", {
            message: "The preview token is not valid or has expired.",
            param: "preview",
            hint: "Mint a token with POST /v2/preview-tokens.",
          });
        preview = { entryIds: grant.entryIds, modelId: grant.modelId };
      }
      // In-flight limits (client = key + IP, key, project), then a worker of the global read pool.
      const release = s.limits.inFlight.acquire(readSlots(s.config.inFlight, key.row.id, ip, h.id));
      let outcome: ReadOutcome;
      try {
        outcome = await pool.run({
          projectId: h.id,
          ns,
          id,
          search: url.search,
          production: prod,
          preview,
          grants: [...key.scopes].filter((x) => x.startsWith("instance:read")),
        });
      } finally {
        release();
      }
      if (!outcome.ok) {
        const e = outcome.error;
        const headers = e.code === "entry_not_found" && prod && id !== null && isUuid(id) ? { "cache-control": PROD_CACHE } : undefined;
        throw new AppError(e.code, { message: e.message, param: e.param, hint: e.hint, extra: e.extra, headers });
      }
      const result = outcome;
      const meta: Record<string, unknown> = { version: call.version, requestId: call.info.id, contract: 1 };
      if (result.page) meta.page = result.page;
      if (result.count !== undefined) meta.count = result.count;
      if (result.missingReferences.length) meta.missingReferences = result.missingReferences;
      // The worker sends data as JSON text; it is spliced in rather than parsed and re-serialised.
      const body = new TextEncoder().encode(`{"data":${result.dataJson},"meta":${JSON.stringify(meta)}}`);
      const surrogate = [`project:${h.id}`, ...result.models.map((m) => `model:${m}`), ...result.entryIds.map((e) => `entry:${e}`)].join(" ");
      answer = { body, etag: etagOf(body), surrogate } satisfies CachedAnswer;
      if (cacheable) cache.set(cacheKey, answer);
      recorded = { models: result.models, entries: result.entryIds };
    }
    const page = storable(request.headers.get("svc-page"));
    if (page) {
      const entries =
        recorded?.entries ??
        answer.surrogate
          .split(" ")
          .filter((x) => x.startsWith("entry:"))
          .map((x) => x.slice(6));
      const models =
        recorded?.models ??
        answer.surrogate
          .split(" ")
          .filter((x) => x.startsWith("model:"))
          .map((x) => x.slice(6));
      pages.record(
        h.id,
        page,
        storable(request.headers.get("svc-path")),
        storable(request.headers.get("svc-schema")),
        models,
        entries,
        url.pathname + url.search,
      );
    }
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "svc-version": call.version,
      ...call.info.headers,
      vary: answer.body.byteLength > COMPRESS_ABOVE ? `${KEYED_VARY}, Accept-Encoding` : KEYED_VARY,
      "cache-control": cacheable ? PROD_CACHE : previewToken !== null ? "no-store" : DEV_CACHE,
    };
    return serveAnswer(request, answer, headers, cacheable);
  }

  return new Elysia()
    .get("/api/entries/:ns", ({ request, params, server }) => handle(request, params.ns, null, clientIp(server, request)))
    .get("/api/entries/:ns/:id", ({ request, params, server }) => handle(request, params.ns, params.id, clientIp(server, request)));
}
