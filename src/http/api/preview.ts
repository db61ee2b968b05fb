// GET /api/preview?token=: verifies a preview token.
import { Elysia } from "elysia";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { checkPreviewToken } from "../../domain/preview/service.ts";
import { findModel } from "../../domain/models/catalog.ts";
import { keyedAuth } from "../plugins/keyed.ts";
import { apiOk } from "../plugins/keyed.ts";

export function previewRoutes(s: Services) {
  return new Elysia().use(keyedAuth(s)).get(
    "/api/preview",
    ({ call, query }) => {
      if (typeof query.token !== "string" || query.token === "")
        fail("invalid_parameter", { message: "token is required.", param: "token", hint: "Example: /api/preview?token=pvw_..." });
      const h = s.projects.get(call.key.row.projectId);
      const g = checkPreviewToken(s, h, query.token);
      const data = g
        ? { valid: true, entryIds: g.entryIds, model: g.modelId ? (findModel(h, g.modelId)?.namespace ?? null) : null, expiresAt: g.expiresAt }
        : { valid: false, entryIds: null, model: null, expiresAt: null };
      return apiOk(call.info, data, "no-store");
    },
    { key: true },
  );
}
