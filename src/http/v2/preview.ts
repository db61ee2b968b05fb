// POST /v2/preview-tokens: mints a preview token.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { jsonBody } from "./body.ts";
import { managementAuth } from "../plugins/management.ts";
import { mintPreviewToken } from "../../domain/preview/service.ts";

export function previewTokenRoutes(s: Services) {
  return new Elysia().use(managementAuth(s, "/v2")).post(
    "/v2/preview-tokens",
    async ({ project, actor, request, set }) => {
      const answer = mintPreviewToken(s, project, actor, await jsonBody(request));
      set.status = 201;
      return answer;
    },
    { scope: "instance:read" },
  );
}
