// GET /api/openapi.json: the read API's OpenAPI 3.1 document as this key sees it (decisions.md
// 12). Any valid key may read it (like /api/me); a key that reads no model gets the paths and no
// model schemas. Rendered documents are kept per project, model-set version, grant signature and
// version (keys with the same grants share one), dropped when a model of the project changes,
// and served like a cached production read: strong ETag, 304, Surrogate-Key.
import { Elysia } from "elysia";
import { LRUCache } from "lru-cache";
import type { Services } from "../../services.ts";
import { allModels } from "../../domain/models/catalog.ts";
import { readerOf } from "../../domain/reads/job.ts";
import { PUBLISHED } from "../../domain/reads/names.ts";
import { renderedAnswer, serveAnswer, varyFor, type CachedAnswer } from "../../infra/render-cache.ts";
import { edgeServe, schemaTag } from "../../domain/edge/tags.ts";
import { readApiDocument } from "../openapi/read-api.ts";
import { KEYED_VARY, keyedAuth } from "../plugins/keyed.ts";

/** Documents kept; one per grant set, version and model-set version in use. */
const MAX_DOCUMENTS = 64;

export function readOpenApiRoutes(s: Services) {
  const cache = new LRUCache<string, CachedAnswer>({ max: MAX_DOCUMENTS });
  // A model change moves the model-set version, so old keys are never asked for again; drop them now.
  s.changes.on("models", (pid) => {
    for (const k of [...cache.keys()]) if (k.startsWith(`${pid}|`)) cache.delete(k);
  });
  return new Elysia().use(keyedAuth(s)).get(
    "/api/openapi.json",
    ({ call, request }) => {
      const key = call.key;
      const h = s.projects.get(key.row.projectId);
      const models = allModels(h);
      const cacheKey = `${h.id}|${models.version}|${key.grantSig}|${call.version}`;
      let answer = cache.get(cacheKey);
      if (!answer) {
        const reader = readerOf(key.readGrants, PUBLISHED);
        const readable = key.grantSig === "" ? [] : models.list.filter((m) => reader.readable(m.id));
        // A project with a second locale documents locale and fallbackLocale (decisions.md 13); one with one keeps its document.
        const locales = models.locales.codes.length > 1 ? models.locales.codes : null;
        const doc = readApiDocument({ readable, version: call.version, serverUrl: s.config.publicUrl, locales });
        const body = new TextEncoder().encode(JSON.stringify(doc));
        // Tagged like a GraphQL answer: its shape follows the schema, which every model change purges.
        answer = renderedAnswer(
          body,
          h.id,
          readable.map((m) => m.namespace),
          [],
          [schemaTag(h.id)],
        );
        cache.set(cacheKey, answer);
      }
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "svc-version": call.version,
        ...call.info.headers,
        vary: varyFor(answer, KEYED_VARY),
        // The document holds no content, only shapes: every key's may be kept a minute like a production read.
        "cache-control": "public, max-age=60",
      };
      return serveAnswer(request, answer, headers, edgeServe(s.config.edge, key.row.id, key.row.expiresAt, s.clock.now()));
    },
    { key: true },
  );
}
