// POST and GET /api/graphql (interface.md, "GraphQL behaviour"): the /api shell, the request's
// parameters from the body or the query string, then the GraphQL run. Every answer is a GraphQL
// result, refusals included (`errors` and no `data`, with the refusal's status). POST is never
// cached; a GET with a production key is cacheable like entries (max-age 60, ETag, 304).
import { Elysia } from "elysia";
import { readSlots } from "../../infra/limits.ts";
import { clientIp } from "../context.ts";
import { AppError, fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ReadJob, ReadOutcome } from "../../domain/reads/job.ts";
import { renderedAnswer, serveAnswer, unkept, varyFor, type CachedAnswer } from "../../infra/render-cache.ts";
import { edgeServe, schemaTag } from "../../domain/edge/tags.ts";
import { PUBLISHED } from "../../domain/reads/names.ts";
import { readerOf } from "../../domain/reads/job.ts";
import { checkPreviewToken } from "../../domain/preview/service.ts";
import type { GraphqlAnswer, GraphqlParams } from "../../graphql/execute.ts";
import type { SchemaCache } from "../../graphql/schema-cache.ts";
import { apiAuth, KEYED_VARY, type ApiCall } from "../plugins/keyed.ts";
import { errorResponse } from "../guard.ts";
import { graphqlContentType } from "./graphql-media.ts";

const PROD_CACHE = "public, max-age=60";

/** The keyed Vary, and Accept: the Content-Type follows it (graphql-media.ts). */
export const GRAPHQL_VARY = `${KEYED_VARY}, Accept`;

/** graphql-js and our schema builder, loaded on the first GraphQL request (src/graphql/engine.ts). */
type Engine = typeof import("../../graphql/engine.ts");
const loadEngine = (): Promise<Engine> => import("../../graphql/engine.ts");

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

function jsonParam(raw: string | null, param: string): Json | null {
  if (raw === null || raw === "") return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    fail("invalid_parameter", { message: `${param} is not valid JSON.`, param, hint: `Send ${param} as a JSON object.` });
  }
  if (v !== null && !isObject(v)) fail("invalid_parameter", { message: `${param} must be a JSON object.`, param, hint: `Send ${param} as a JSON object.` });
  return v as Json | null;
}

/** The parameters of a POST body (`{ query, variables, operationName, extensions }`). */
async function fromBody(g: Engine, request: Request): Promise<GraphqlParams> {
  const { checkNesting, checkSize, LIMITS } = g;
  const declared = Number(request.headers.get("content-length") ?? 0);
  checkSize("POST body", declared, LIMITS.bodyBytes);
  const type = request.headers.get("content-type");
  // GraphQL over HTTP: a POST without a JSON Content-Type is refused (4xx), not guessed at.
  if (type === null || !/^application\/(graphql-response\+)?json\b/i.test(type.trim())) {
    fail("invalid_parameter", {
      message: "The body must be JSON.",
      param: "Content-Type",
      hint: "Send Content-Type: application/json with { query, variables, operationName, extensions }.",
    });
  }
  const text = await request.text();
  checkSize("POST body", Buffer.byteLength(text), LIMITS.bodyBytes);
  // Variables and extensions nest no deeper than the document may (the query itself is a string here).
  checkNesting("POST body", text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail("invalid_json", { param: "body" });
  }
  if (Array.isArray(body)) {
    fail("invalid_parameter", {
      message: "Batching is not supported: send one operation per request.",
      param: "body",
      hint: "Send one JSON object { query, variables, operationName } per request.",
    });
  }
  if (!isObject(body))
    fail("invalid_parameter", { message: "The body must be a JSON object.", param: "body", hint: "Send { query, variables, operationName, extensions }." });
  const str = (k: string) => {
    const v = body[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") fail("invalid_parameter", { message: `${k} must be a string.`, param: k, hint: `Send ${k} as a string.` });
    return v;
  };
  let variables: Json | null;
  let variablesBytes = 0;
  if (typeof body.variables === "string") {
    variablesBytes = Buffer.byteLength(body.variables);
    variables = jsonParam(body.variables, "variables");
  } else {
    if (body.variables !== undefined && body.variables !== null && !isObject(body.variables)) {
      fail("invalid_parameter", { message: "variables must be a JSON object.", param: "variables", hint: "Send variables as a JSON object." });
    }
    variables = (body.variables as Json | undefined) ?? null;
    variablesBytes = variables ? Buffer.byteLength(JSON.stringify(variables)) : 0;
  }
  if (body.extensions !== undefined && body.extensions !== null && !isObject(body.extensions)) {
    fail("invalid_parameter", { message: "extensions must be a JSON object.", param: "extensions", hint: "Send extensions as a JSON object." });
  }
  return { query: str("query"), variables, variablesBytes, operationName: str("operationName"), extensions: (body.extensions as Json | undefined) ?? null };
}

/** The parameters of a GET query string (`variables` and `extensions` as JSON text). */
function fromQuery(g: Engine, url: URL): GraphqlParams {
  const { checkNesting, checkSize, LIMITS } = g;
  checkSize("GET URL", Buffer.byteLength(url.pathname + url.search), LIMITS.urlBytes);
  const q = url.searchParams;
  const rawVars = q.get("variables");
  checkNesting("variables JSON", rawVars ?? "");
  checkNesting("extensions JSON", q.get("extensions") ?? "");
  return {
    query: q.get("query"),
    variables: jsonParam(rawVars, "variables"),
    variablesBytes: rawVars ? Buffer.byteLength(rawVars) : 0,
    operationName: q.get("operationName") || null,
    extensions: jsonParam(q.get("extensions"), "extensions"),
  };
}

/**
 * The GraphQL routes. Root fields' reads run on the read pool, as entries reads do; `run` replaces
 * that (the benchmark runs them in process to count statements).
 */
export function graphqlRoutes(s: Services, run: (job: ReadJob) => Promise<ReadOutcome> = (job) => s.reads.run(job)) {
  const cache = s.renderCache;
  // The engine and the schema cache (bounded by CAPA_GRAPHQL_SCHEMAS), made on the first GraphQL request.
  const loaded: { g: Engine | null; schemas: SchemaCache | null } = { g: null, schemas: null };
  s.changes.on("models", (pid) => loaded.schemas?.drop(pid));

  async function handle(request: Request, get: boolean, ip: string): Promise<Response> {
    loaded.g ??= await loadEngine();
    loaded.schemas ??= new loaded.g.SchemaCache(s.config.graphqlSchemas);
    const { g, schemas } = loaded;
    const info = s.requests.of(request);
    const docsBase = s.config.docsUrl;
    let call: ApiCall | null = null;
    let answer: GraphqlAnswer;
    let cached: CachedAnswer | undefined;
    let cacheKey = "";
    try {
      call = apiAuth(s, request);
      const key = call.key;
      const h = s.projects.get(key.row.projectId);
      const params = get ? fromQuery(g, info.url) : await fromBody(g, request);
      const prod = key.row.environment === "production";
      // A production key with ?preview= sees the drafts the token covers; such answers are never cached.
      const previewToken = info.url.search.includes("preview=") ? info.url.searchParams.get("preview") : null;
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
      const cacheable = get && prod && previewToken === null && params.extensions?.svc !== true;
      const prefix = cache.prefix(h.id);
      if (cacheable) {
        cacheKey = `${prefix}${key.grantSig}|${call.version}|graphql|${info.url.search}`;
        cached = cache.get(cacheKey);
      }
      if (cached) answer = { status: 200, body: {}, cacheable: true, models: [], entryIds: [] };
      else {
        const schema = schemas.get(h, readerOf(key.readGrants, PUBLISHED).readable);
        const slots = readSlots(s.config.inFlight, key.row.id, ip, h.id);
        answer = await g.runGraphql({ s, call, h, built: schema, run, docsBase, preview, acquire: () => s.limits.inFlight.acquire(slots) }, params);
        if (cacheable && answer.cacheable) {
          // schema:<projectId>: the answer follows the key's schema, which any model change rebuilds.
          cached = renderedAnswer(new TextEncoder().encode(JSON.stringify(answer.body)), h.id, answer.models, answer.entryIds, [schemaTag(h.id)]);
          // As for entries: a change committed during the run may be purged at the edge before this arrives.
          if (cache.prefix(h.id) !== prefix) cached = unkept(cached);
          else cache.set(cacheKey, cached);
        }
      }
    } catch (e) {
      // The /api shell's refusals (version, key, rate, origin, ...) render as the guard renders
      // the edge's and the method's: one GraphQL shape for every check before the run.
      if (!(e instanceof AppError)) throw e;
      return errorResponse(s, request, e);
    }
    // Svc-Page: what the page read, recorded off the response path (the REST reads each root field became).
    if (cached) s.pages.recordRead(call.key.row.projectId, request.headers, cached, [info.url.pathname + info.url.search]);
    else if (answer.status === 200 && answer.rest?.length) {
      s.pages.recordRead(
        call.key.row.projectId,
        request.headers,
        answer,
        answer.rest.map((r) => r.url),
      );
    }
    if (cached) return respondCached(request, cached, call);
    return respond(request, answer, call.version, answer.headers, get && call.key.row.environment !== "production");
  }

  /** An uncached answer: POST never cached, a development GET no-store, no-cache. */
  function respond(request: Request, a: GraphqlAnswer, version: string, extra?: Record<string, string>, devGet = false): Response {
    const info = s.requests.of(request);
    const headers: Record<string, string> = {
      "content-type": graphqlContentType(request.headers.get("accept")),
      ...info.headers,
      ...extra,
      vary: GRAPHQL_VARY,
      "svc-version": version,
      "x-request-id": info.id,
      "cache-control": a.status === 200 && devGet ? "no-store, no-cache" : "no-store",
    };
    return new Response(JSON.stringify(a.body), { status: a.status, headers });
  }

  /** A production GET answer from the render cache, with its ETag (304 when the client has it) and edge tags. */
  function respondCached(request: Request, answer: CachedAnswer, call: ApiCall): Response {
    const info = s.requests.of(request);
    const headers: Record<string, string> = {
      "content-type": graphqlContentType(request.headers.get("accept")),
      ...info.headers,
      "svc-version": call.version,
      "x-request-id": info.id,
      vary: varyFor(answer, GRAPHQL_VARY),
      "cache-control": PROD_CACHE,
    };
    return serveAnswer(request, answer, headers, edgeServe(s.config.edge, call.key.row.id, call.key.row.expiresAt, s.clock.now()));
  }

  return new Elysia()
    .post("/api/graphql", ({ request, server }) => handle(request, false, clientIp(server, request)), { parse: "none" })
    .get("/api/graphql", ({ request, server }) => handle(request, true, clientIp(server, request)));
}
