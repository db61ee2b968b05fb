// POST /v2/preview-tokens: mints a preview token.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { authenticatePerson } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requireScope } from "../../domain/access/principal.ts";
import { mintPreviewToken } from "../../domain/preview/service.ts";
import { actorOf } from "./entries.ts";

export function previewTokenRoutes(s: Services) {
  return new Elysia().post("/v2/preview-tokens", async ({ request, set }) => {
    const p = await authenticatePerson(s, request);
    requireScope(p, "instance:read");
    const answer = mintPreviewToken(s, s.projects.get(projectOf(p)), actorOf(p), await jsonBody(request));
    set.status = 201;
    return answer;
  });
}
