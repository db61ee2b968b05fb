// GET /api/entries/{ns} and /api/entries/{ns}/{id}: the hot read path. The key plugin has checked
// the key; a production answer comes from the render cache when it can, otherwise the read runs
// on a worker under the in-flight limits (domain/reads/gateway.ts) and its rendered bytes are
// cached until the project changes.
import { Elysia } from "elysia";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { checkPreviewToken } from "../../domain/preview/service.ts";
import { runLimitedRead } from "../../domain/reads/gateway.ts";
import { itemArgsOf, listArgsOf } from "../../domain/reads/args.ts";
import { readModel } from "../../domain/reads/query.ts";
import { readerOf } from "../../domain/reads/job.ts";
import { PUBLISHED } from "../../domain/reads/names.ts";
import type { ReadJob } from "../../domain/reads/job.ts";
import type { PageRecorder } from "../../domain/pages/service.ts";
import { isUuid } from "../../domain/models/fields.ts";
import { renderedAnswer, serveAnswer, unkept, varyFor, type CachedAnswer } from "../../infra/render-cache.ts";
import { addEdgeHeaders, edgeServe, fitTags } from "../../domain/edge/tags.ts";
import { keyedAuth } from "../plugins/keyed.ts";
import { clientIp } from "../context.ts";
import { KEYED_VARY, type ApiCall } from "../plugins/keyed.ts";

const PROD_CACHE = "public, max-age=60";
const DEV_CACHE = "no-store, no-cache";

export function entryReadRoutes(s: Services, pages: PageRecorder) {
  const cache = s.renderCache;

  async function handle(request: Request, call: ApiCall, ns: string, id: string | null, ip: string): Promise<Response> {
    const key = call.key;
    if (key.grantSig === "") fail("scope_missing", { hint: "Mint a key that holds instance:read (or instance:read:<modelId>)." });
    const url = call.info.url;
    const projectId = key.row.projectId;
    const prod = key.row.environment === "production";
    const previewToken = url.search.includes("preview=") ? url.searchParams.get("preview") : null;
    const cacheable = prod && previewToken === null;
    const prefix = cacheable ? cache.prefix(projectId) : "";
    const cacheKey = cacheable ? `${prefix}${key.grantSig}|${call.version}|${url.pathname}${url.search}` : "";
    // The key's tag and the edge lifetime (never past the key's expiry) go on every cacheable answer.
    const edge = cacheable ? edgeServe(s.config.edge, key.row.id, key.row.expiresAt, s.clock.now()) : null;
    let answer = cacheable ? cache.get(cacheKey) : undefined;
    if (!answer) {
      let preview: ReadJob["preview"] = null;
      if (previewToken !== null && prod) {
        const grant = checkPreviewToken(s, s.projects.get(projectId), previewToken);
        if (!grant)
          fail("invalid_parameter", {
            message: "The preview token is not valid or has expired.",
            param: "preview",
            hint: "Mint a token with POST /v2/preview-tokens.",
          });
        preview = { entryIds: grant.entryIds, modelId: grant.modelId };
      }
      // The model first, then the grammar, as a read has always refused them; the worker gets the typed read.
      readModel(s.projects.get(projectId), readerOf(key.readGrants, PUBLISHED), ns);
      const args = id === null ? listArgsOf(url.searchParams) : itemArgsOf(id, url.searchParams);
      // media-wire: mediaBase lets the read resolve media references to absolute URLs.
      const job: ReadJob = { projectId, ns, args, production: prod, preview, grants: key.readGrants, mediaBase: s.config.mediaBaseUrl };
      const notFoundId = edge && id !== null && isUuid(id) ? id.toLowerCase() : null;
      const result = await runLimitedRead(s, job, key.row.id, ip, (code) => {
        if (code !== "entry_not_found" || notFoundId === null || !edge) return undefined;
        // Tagged with the entry and its model, so the entry's publish purges the 404 at the edge.
        const headers = { "cache-control": PROD_CACHE };
        addEdgeHeaders(headers, fitTags(projectId, [ns], [notFoundId]), edge);
        return headers;
      });
      const meta: Record<string, unknown> = { version: call.version, requestId: call.info.id, contract: 1 };
      // A read that names a locale says which it read and which values came from another (decisions.md 13).
      if (result.locale !== undefined) meta.locale = result.locale;
      if (result.fallbacks !== undefined) meta.fallbacks = result.fallbacks;
      if (result.page) meta.page = result.page;
      if (result.count !== undefined) meta.count = result.count;
      if (result.missingReferences.length) meta.missingReferences = result.missingReferences;
      // The worker sends data as JSON text; it is spliced in rather than parsed and re-serialised.
      const body = new TextEncoder().encode(`{"data":${result.dataJson},"meta":${JSON.stringify(meta)}}`);
      answer = renderedAnswer(body, projectId, result.models, result.entryIds) satisfies CachedAnswer;
      // A change committed while the read ran has bumped the generation and sent its purge,
      // which may reach the edge before this answer does: the edge must not keep it.
      if (cacheable && cache.prefix(projectId) !== prefix) answer = unkept(answer);
      else if (cacheable) cache.set(cacheKey, answer);
    }
    pages.recordRead(projectId, request.headers, answer, [url.pathname + url.search]);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "svc-version": call.version,
      ...call.info.headers,
      vary: varyFor(answer, KEYED_VARY),
      "cache-control": cacheable ? PROD_CACHE : previewToken !== null ? "no-store" : DEV_CACHE,
    };
    return serveAnswer(request, answer, headers, edge);
  }

  return new Elysia()
    .use(keyedAuth(s))
    .get("/api/entries/:ns", ({ call, request, params, server }) => handle(request, call, params.ns, null, clientIp(server, request)), { key: true })
    .get("/api/entries/:ns/:id", ({ call, request, params, server }) => handle(request, call, params.ns, params.id, clientIp(server, request)), { key: true });
}
