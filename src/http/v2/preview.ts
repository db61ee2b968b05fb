// POST /v2/preview-tokens: mints a preview token.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { PreviewToken, PreviewTokenBody } from "../../domain/entries/bodies.ts";
import { managementAuth } from "../plugins/management.ts";
import { mintPreviewToken } from "../../domain/preview/service.ts";

export function previewTokenRoutes(s: Services) {
  return new Elysia().use(managementAuth(s, "/v2")).post(
    "/v2/preview-tokens",
    async ({ project, actor, request, set }) => {
      const answer = mintPreviewToken(s, project, actor, await typedBody(request, PreviewTokenBody));
      set.status = 201;
      return answer;
    },
    {
      scope: "instance:read",
      detail: doc({ summary: "Mint a preview token (pvw_...) for /api reads of drafts", body: PreviewTokenBody, answers: { 201: PreviewToken } }),
    },
  );
}
