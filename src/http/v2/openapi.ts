// GET /v2/openapi.json: the management API's OpenAPI 3.1 document (decisions.md 12). No key: it
// describes routes, not a project. Built on the first request from the app's route table (every
// route is in it by then) and kept for the life of the app: the routes never change while it runs.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { managementDocument, type RouteRow } from "../openapi/management.ts";
import { type CachedAnswer, etagOf, serveAnswer } from "../../infra/render-cache.ts";
import { doc } from "./doc.ts";
import { OpenApiDocument } from "../openapi/answers.ts";

export function managementOpenApiRoutes(s: Services, routes: () => readonly RouteRow[]) {
  const built: { answer: CachedAnswer | null } = { answer: null };
  return new Elysia().get(
    "/v2/openapi.json",
    ({ request }) => {
      if (!built.answer) {
        const body = new TextEncoder().encode(JSON.stringify(managementDocument(routes(), s.config.publicUrl)));
        built.answer = { body, etag: etagOf(body), models: [], entryIds: [], edge: null };
      }
      // Revalidated on every use (the ETag makes that cheap): a new server version may change it.
      const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-cache", vary: "Accept-Encoding" };
      return serveAnswer(request, built.answer, headers, "browser");
    },
    { detail: doc({ summary: "This document: the management API as OpenAPI 3.1", answers: { 200: OpenApiDocument } }) },
  );
}
